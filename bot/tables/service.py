"""The table lifecycle, with no Discord in it: lobby seats, start, actions, computer seats, end.

Every change goes through a per-table lock and is one transaction: the action, its record lines,
seat and clock changes and the table's version commit together or not at all. Discord follows the
committed version (``delivery.py``). A computer's move is a move of its own, made by a worker
(``computers.py``) without holding the lock while it thinks. The engine cache is bounded and checked
against the stored version, and rebuilt from the log whenever it may be stale.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import random
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from bot.core.engine import Engine, Event, IllegalAction
from bot.core.errors import UserError
from bot.core.games import REGISTRY
from bot.core.i18n import LANGUAGES
from bot.storage.store import Seat, Store, TableRow

COMPUTER = "computer"
LEVELS = ("easy", "normal", "hard")
ENGINE_CACHE = 256
CLOCKS = (60, 300, 900, 3600, 4 * 3600, 12 * 3600, 86400, 3 * 86400, 7 * 86400)
TIMEOUT_POLICIES = ("computer_turn", "computer_seat", "end")
REMIND_BEFORE = 0.2  # remind when a fifth of the clock is left


def bumped(table: TableRow, fields: dict[str, Any]) -> TableRow:
    """The row as ``Store.bump(table.id, **fields)`` leaves it, when ``table`` is the row read
    under the lock just before: a move's caller needs no second read."""
    fields = {k: bool(v) if k == "computer_turn" else v for k, v in fields.items()}
    return dataclasses.replace(table, version=table.version + 1, dirty=True, **fields)


def wall_clock() -> float:
    return datetime.now(UTC).timestamp()


@dataclass
class Outcome:
    table: TableRow
    engine: Engine
    events: list[Event] = field(default_factory=list)


@dataclass
class Note:
    """A platform line for the public record (timeouts, seat changes): a message key and its data."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)


class TableService:
    def __init__(self, store: Store, now: Callable[[], float] = wall_clock) -> None:
        self.store = store
        self.now = now
        self._locks: dict[int, tuple[asyncio.Lock, int]] = {}
        #: table id -> (stored version it matches, engine), least recently used first.
        self.engines: OrderedDict[int, tuple[int, Engine]] = OrderedDict()
        #: Called with a table id after each committed change that a computer may have to answer.
        self.on_computer_turn: Callable[[int], None] = lambda table_id: None
        self._holding: set[int] = set()  # tables whose lock this process holds
        self._to_wake: set[int] = set()  # of those, tables whose computer is woken when it is let go

    @contextlib.asynccontextmanager
    async def locked(self, table_id: int) -> AsyncIterator[None]:
        """The table's lock, in this process and across processes sharing the database.

        In this process an ``asyncio.Lock`` (dropped from memory when nobody holds or waits for
        it); with PostgreSQL also the database's lock for the table, held by one transaction that
        everything inside runs in. A computer to wake is woken only once that transaction has
        committed, so its worker never reads the table as it was before the move.
        """
        lock, users = self._locks.get(table_id, (None, 0))
        lock = lock or asyncio.Lock()
        self._locks[table_id] = (lock, users + 1)
        try:
            async with lock:
                self._holding.add(table_id)
                try:
                    async with self.store.table_lock(table_id):
                        yield
                except BaseException as exc:
                    # A refusal changed nothing; anything else may have left the cache ahead of the
                    # log (with PostgreSQL the commit comes only now, and may fail).
                    if not isinstance(exc, (UserError, IllegalAction)):
                        self.forget(table_id)
                    self._to_wake.discard(table_id)
                    raise
                finally:
                    self._holding.discard(table_id)
                if table_id in self._to_wake:
                    self._to_wake.discard(table_id)
                    self.on_computer_turn(table_id)
        finally:
            lock, users = self._locks[table_id]
            if users <= 1:
                del self._locks[table_id]
            else:
                self._locks[table_id] = (lock, users - 1)

    # ---- lookups ----------------------------------------------------------------------------
    async def table(self, table_id: int) -> TableRow:
        table = await self.store.get_table(table_id)
        if table is None or table.game not in REGISTRY:
            raise UserError("error.no_such_table")
        return table

    async def engine(self, table: TableRow) -> Engine:
        """The table's engine at its stored version: cached, or replayed from the log."""
        cached = self.engines.get(table.id)
        # A newer cached engine serves a reader holding an older row (the delivery worker while a
        # computer moves on); whoever needs the exact version re-reads the row under the lock.
        if cached is not None and cached[0] >= table.version:
            self.engines.move_to_end(table.id)
            return cached[1]
        if cached is not None:
            # Another process sharing the database moved on: play its actions on the cached engine.
            engine = cached[1]
            try:
                for seat, action in await self.store.actions(table.id, len(engine.history)):
                    engine.apply(seat, action)
            except IllegalAction:
                self.forget(table.id)
            else:
                self._remember(table, engine)
                return engine
        cls = REGISTRY[table.game].engine
        log = await self.store.actions(table.id)
        engine = cls.replay(len(table.seats), table.seed, table.options, log)
        self._remember(table, engine)
        return engine

    def _remember(self, table: TableRow, engine: Engine) -> None:
        cached = self.engines.get(table.id)
        if cached is not None and cached[0] > table.version and cached[1] is not engine:
            return
        self.engines[table.id] = (table.version, engine)
        self.engines.move_to_end(table.id)
        while len(self.engines) > ENGINE_CACHE:
            self.engines.popitem(last=False)

    def forget(self, table_id: int) -> None:
        self.engines.pop(table_id, None)

    # ---- lobby ------------------------------------------------------------------------------
    async def open(
        self,
        game: str,
        *,
        guild_id: int | None,
        channel_id: int,
        host: tuple[int, str],
        size: int,
        options: dict[str, Any],
        language: str,
        rated: bool = False,
    ) -> TableRow:
        cls = REGISTRY[game].engine
        if not cls.min_players <= size <= cls.max_players:
            raise UserError("error.bad_size", min=cls.min_players, max=cls.max_players)
        table_id = await self.store.create_table(
            game=game,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host[0],
            status="lobby",
            size=size,
            options=options,
            language=language,
            rated=int(rated),
        )
        await self.store.set_seats(table_id, [Seat(0, host[0], host[1])])
        return await self.table(table_id)

    async def create_seated(
        self,
        game: str,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        players: list[tuple[int | None, str]],
        options: dict[str, Any],
        language: str,
        clock: int | None,
        on_timeout: str,
        tournament_id: int | None = None,
        level: str = "normal",
    ) -> int:
        """A table with every seat already taken, in the given seat order, ready for ``start(...,
        shuffle=False)``: for events, seated by their pairing rather than by Join buttons. Every seat
        gets the event's computer ``level``: empty seats play at it, and so does a computer that
        moves for a player out of time or takes their seat."""
        table_id = await self.store.create_table(
            game=game,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            status="lobby",
            size=len(players),
            options=options,
            language=language,
            clock=clock,
            on_timeout=on_timeout,
            rated=1,
            tournament_id=tournament_id,
        )
        await self.store.set_seats(
            table_id, [Seat(i, uid, name, level=level) for i, (uid, name) in enumerate(players)]
        )
        return table_id

    async def hand_over(self, table_id: int, old: int, new: tuple[int, str]) -> bool:
        """An event replaced a player: the newcomer takes their seat and hand as they are."""
        async with self.locked(table_id):
            table = await self.table(table_id)
            position = table.seat_of(old)
            if table.status != "running" or position is None:
                return False
            await self._seat_member(table, position, new)
            return True

    async def hand_to_computer(self, table_id: int, user_id: int, level: str | None = None) -> bool:
        """A player who left an event: a computer plays their seat to the end of the table, at
        ``level`` (None: the level stored with the seat, which an event sets when it seats)."""
        async with self.locked(table_id):
            table = await self.table(table_id)
            position = table.seat_of(user_id)
            if table.status != "running" or position is None or table.seats[position].away:
                return False
            seats = list(table.seats)
            seats[position].away = True
            if level is not None:
                seats[position].level = level
            async with self.store.transaction():
                await self.store.set_seats(table_id, seats)
                table.seats = seats
                await self._commit(table, await self.engine(table), [], set(), [Note("clock.seat_taken_over", {"seat": position})])
            await self._committed(table_id)
            return True

    async def attach(self, table_id: int, **ids: int | None) -> None:
        await self.store.update_table(table_id, **ids)

    async def _lobby(self, table_id: int) -> TableRow:
        table = await self.table(table_id)
        if table.status != "lobby":
            raise UserError("error.not_in_lobby")
        return table

    async def join(self, table_id: int, user: tuple[int, str]) -> TableRow:
        async with self.locked(table_id):
            table = await self._lobby(table_id)
            if table.seat_of(user[0]) is not None:
                raise UserError("error.already_seated")
            if len(table.seats) >= table.size:
                raise UserError("error.table_full")
            await self._reseat(table, [*table.seats, Seat(0, user[0], user[1])])
            return await self.table(table_id)

    async def leave(self, table_id: int, user_id: int) -> TableRow:
        async with self.locked(table_id):
            table = await self._lobby(table_id)
            if table.seat_of(user_id) is None:
                raise UserError("error.not_seated")
            if user_id == table.host_id:
                raise UserError("error.host_cannot_leave")
            await self._reseat(table, [s for s in table.seats if s.user_id != user_id])
            return await self.table(table_id)

    async def add_computer(self, table_id: int, user_id: int, level: str = "normal") -> TableRow:
        if level not in LEVELS:
            raise UserError("error.bad_level")
        async with self.locked(table_id):
            table = await self._lobby(table_id)
            self._require_host(table, user_id)
            if len(table.seats) >= table.size:
                raise UserError("error.table_full")
            number = 1 + sum(s.is_computer for s in table.seats)
            await self._reseat(table, [*table.seats, Seat(0, None, f"{COMPUTER}:{number}", level=level)])
            return await self.table(table_id)

    async def remove(self, table_id: int, user_id: int, position: int) -> TableRow:
        async with self.locked(table_id):
            table = await self._lobby(table_id)
            self._require_host(table, user_id)
            target = next((s for s in table.seats if s.position == position), None)
            if target is None:
                raise UserError("error.no_such_seat")
            if target.user_id == table.host_id:
                raise UserError("error.host_cannot_leave")
            await self._reseat(table, [s for s in table.seats if s.position != position])
            return await self.table(table_id)

    async def cancel(self, table_id: int, user_id: int) -> TableRow:
        async with self.locked(table_id):
            table = await self.table(table_id)
            self._require_host(table, user_id)
            if table.status not in ("lobby", "running"):
                raise UserError("error.table_closed")
            await self.store.bump(table_id, status="cancelled", computer_turn=0)
            self.forget(table_id)
            return await self.table(table_id)

    async def _reseat(self, table: TableRow, seats: list[Seat]) -> None:
        async with self.store.transaction():
            await self.store.set_seats(
                table.id, [Seat(i, s.user_id, s.name, level=s.level) for i, s in enumerate(seats)]
            )
            await self.store.bump(table.id)

    @staticmethod
    def _require_host(table: TableRow, user_id: int) -> None:
        if user_id != table.host_id:
            raise UserError("error.host_only")

    def ready_to_start(self, table: TableRow) -> bool:
        return table.status == "lobby" and len(table.seats) >= table.size

    async def start(self, table_id: int, user_id: int | None, seed: int, shuffle: bool = True) -> Outcome:
        """Start the table (``user_id`` None: started because it filled up, or by an event)."""
        async with self.locked(table_id):
            table = await self._lobby(table_id)
            if user_id is not None:
                self._require_host(table, user_id)
            cls = REGISTRY[table.game].engine
            if len(table.seats) < cls.min_players:
                raise UserError("error.too_few_players", min=cls.min_players)
            seats = list(table.seats)
            if shuffle:
                random.Random(seed).shuffle(seats)
            seats = [Seat(i, s.user_id, s.name, s.away, s.timeouts, s.level) for i, s in enumerate(seats)]
            table.seats, table.seed, table.status = seats, seed, "running"
            engine = cls(len(seats), seed, table.options)
            async with self.store.transaction():
                await self.store.set_seats(table_id, seats)
                await self.store.update_table(table_id, status="running", seed=seed)
                await self._commit(table, engine, [], set())
            return await self._committed(table_id, engine)

    # ---- play -------------------------------------------------------------------------------
    async def act(
        self,
        table_id: int,
        user_id: int,
        version: int,
        action: str,
        check: Callable[[TableRow], None] | None = None,
    ) -> Outcome:
        """A member's move: checked (first by ``check``, which may refuse with a UserError), applied
        and committed in one transaction, or refused unchanged."""
        async with self.locked(table_id):
            table = await self.table(table_id)
            if check is not None:
                check(table)
            if table.status != "running":
                raise UserError("error.table_closed")
            seat = table.seat_of(user_id)
            if seat is None:
                raise UserError("error.not_seated")
            if table.paused:
                raise UserError("error.paused")
            engine = await self.engine(table)
            log_length = len(engine.history)
            acted_since = any(s == seat for s, _ in engine.history[version:])
            if version > log_length or acted_since:
                raise UserError("error.stale")
            events = engine.apply(seat, action)  # IllegalAction leaves the engine untouched
            try:
                async with self.store.transaction():
                    await self.store.append_actions(table_id, log_length, [(seat, action, False)])
                    if table.seats[seat].timeouts:
                        table.seats[seat].timeouts = 0
                        await self.store.set_seats(table_id, table.seats)
                    fields = await self._commit(table, engine, events, {seat})
            except BaseException:
                self.forget(table_id)  # the engine is ahead of the log: rebuild it from the log
                raise
            outcome = await self._committed(table_id, engine, bumped(table, fields))
            outcome.events = list(events)
            return outcome

    async def play_computers(self, table_id: int) -> None:
        """Computers move (randomly) until a member is to act or the table ends: for tools and tests
        that run a table without the bot; the bot moves computers through its worker."""
        while True:
            table = await self.table(table_id)
            engine = await self.engine(table)
            seat = self.computer_to_act(table, engine)
            if seat is None:
                return
            choice = random.Random(f"{table.seed}:{len(engine.history)}").choice(engine.legal_actions(seat))
            await self.computer_move(table_id, table.version, seat, choice)

    def computer_to_act(self, table: TableRow, engine: Engine) -> int | None:
        if table.status != "running" or engine.is_terminal():
            return None
        return next((s for s in engine.to_act() if table.seats[s].played_by_computer), None)

    async def computer_move(self, table_id: int, version: int, seat: int, action: str) -> bool:
        """Commit a computer's move chosen at ``version``; False when the table moved on meanwhile."""
        async with self.locked(table_id):
            table = await self.table(table_id)
            if table.version != version or table.paused:
                return False
            engine = await self.engine(table)
            if self.computer_to_act(table, engine) != seat or action not in engine.legal_actions(seat):
                return False
            index = len(engine.history)
            events = engine.apply(seat, action)
            try:
                async with self.store.transaction():
                    await self.store.append_actions(table_id, index, [(seat, action, True)])
                    fields = await self._commit(table, engine, events, {seat})
            except BaseException:
                self.forget(table_id)
                raise
            await self._committed(table_id, engine, bumped(table, fields))
            return True

    async def _commit(
        self,
        table: TableRow,
        engine: Engine,
        events: list[Event],
        movers: set[int],
        notes: list[Note] = (),  # type: ignore[assignment]
    ) -> dict[str, Any]:
        """Inside the caller's transaction: the record lines, the clock, the end, and a new version.
        Returns the table's fields it changed (see ``bumped``)."""
        deal = engine.deal_number
        rows = [("event", e.code, e.data, deal) for e in events]
        rows += [("note", n.key, n.params, deal) for n in notes]
        fields: dict[str, Any] = {}
        if engine.is_terminal():
            rows.append(("final", "final", {}, deal))
            fields.update(
                status="finished",
                result=json.dumps(engine.results()),
                deadline=None,
                remind_at=None,
                turn_seats=[],
                computer_turn=0,
            )
        else:
            fields.update(self._clock_fields(table, engine, movers))
            fields["computer_turn"] = int(self.computer_to_act(table, engine) is not None)
        await self.store.append_log(table.id, rows)
        await self.store.bump(table.id, **fields)
        return fields

    async def _committed(
        self, table_id: int, engine: Engine | None = None, table: TableRow | None = None
    ) -> Outcome:
        """After a commit: the cache follows the new version, and a computer to act is woken.
        ``table``: the committed row when the caller knows it (``bumped``), to spare reading it."""
        table = table or await self.table(table_id)
        if engine is None:
            self.forget(table_id)
            engine = await self.engine(table)
        else:
            self._remember(table, engine)
        if table.computer_turn:
            if table_id in self._holding:
                self._to_wake.add(table_id)
            else:
                self.on_computer_turn(table_id)
        return Outcome(table, engine)

    def _clock_fields(self, table: TableRow, engine: Engine, movers: set[int]) -> dict[str, Any]:
        """Restart the move clock, and start a new turn for each seat whose turn came round.

        A seat's turn begins when it is newly waited for, or when others moved since it last did;
        a seat that simply moves again (or waits while others make simultaneous choices) goes on.
        """
        humans = {s.position for s in table.seats if not s.played_by_computer}
        waiting = sorted(set(engine.to_act()) & humans)
        fields: dict[str, Any] = {"turn_seats": waiting}
        fresh = [s for s in waiting if s not in table.turn_seats or (s in movers and movers - {s})]
        if movers and not waiting:
            fresh = []
        if fresh:
            fields.update(turn_no=table.turn_no + 1, ping_seats=fresh)
        if table.clock and waiting and not table.paused:
            deadline = self.now() + table.clock
            fields.update(deadline=deadline, remind_at=deadline - table.clock * REMIND_BEFORE)
        else:
            fields.update(deadline=None, remind_at=None)
        return fields

    # ---- clocks ------------------------------------------------------------------------------
    async def configure(self, table_id: int, user_id: int, setting: str, value: Any) -> TableRow:
        """The host's lobby settings: ``clock`` (seconds per move or None), ``on_timeout``, ``language``."""
        allowed = {"clock": (None, *CLOCKS), "on_timeout": TIMEOUT_POLICIES, "language": LANGUAGES}
        if setting not in allowed or value not in allowed[setting]:
            raise UserError("error.bad_setting")
        async with self.locked(table_id):
            table = await self._lobby(table_id)
            self._require_host(table, user_id)
            await self.store.bump(table_id, **{setting: value})
            return await self.table(table_id)

    async def expire(self, table_id: int, choose: Callable[[TableRow, Engine, int], str] | None = None) -> bool:
        """Handle a passed deadline once: a computer moves for the absent players, or the table ends.

        ``choose(table, engine, seat)``: the move a computer of the seat's level chose beforehand
        (thinking is not done under the lock), or None; then the game's timeout move, else random."""
        async with self.locked(table_id):
            table = await self.table(table_id)
            now = self.now()
            if table.status != "running" or table.paused or table.deadline is None or table.deadline > now:
                return False
            engine = await self.engine(table)
            absent = [s for s in engine.to_act() if not table.seats[s].played_by_computer]
            if table.on_timeout == "end":
                ranks = [
                    len(table.seats) - len(absent) + 1 if s in absent else 1 for s in range(len(table.seats))
                ]
                result = {"ranks": ranks, "scores": [None] * len(ranks), "reason": "timeout", "absent": absent}
                notes = [Note("clock.ended_table", {"seat": seat}) for seat in absent]
                async with self.store.transaction():
                    await self.store.append_log(
                        table_id,
                        [("note", n.key, n.params, engine.deal_number) for n in notes]
                        + [("final", "final", {}, engine.deal_number)],
                    )
                    await self.store.bump(
                        table_id, status="finished", result=json.dumps(result), deadline=None, remind_at=None
                    )
                await self._committed(table_id, engine)
                return True
            seats = list(table.seats)
            start = len(engine.history)
            events: list[Event] = []
            notes: list[Note] = []
            moves: list[tuple[int, str, bool]] = []
            for seat in absent:
                if seat not in engine.to_act():
                    continue
                legal = engine.legal_actions(seat)
                preferred = choose(table, engine, seat) if choose else None
                if preferred not in legal:
                    preferred = REGISTRY[table.game].timeout_action(engine, seat)
                if preferred not in legal:
                    preferred = random.Random(f"{table.seed}:{len(engine.history)}:timeout").choice(legal)
                events += engine.apply(seat, preferred)
                moves.append((seat, preferred, True))
                record = seats[seat]
                record.timeouts += 1
                notes.append(Note("clock.computer_played", {"seat": seat}))
                if table.on_timeout == "computer_seat" and record.timeouts >= table.timeout_limit:
                    record.away = True
                    notes.append(Note("clock.seat_taken_over", {"seat": seat}))
            try:
                async with self.store.transaction():
                    await self.store.append_actions(table_id, start, moves)
                    await self.store.set_seats(table_id, seats)
                    table.seats = seats
                    await self._commit(table, engine, events, {s for s, _, _ in moves}, notes)
            except BaseException:
                self.forget(table_id)
                raise
            await self._committed(table_id, engine)
            return True

    async def pause(self, table_id: int, user_id: int, paused: bool) -> TableRow:
        async with self.locked(table_id):
            table = await self.table(table_id)
            self._require_host(table, user_id)
            if table.status != "running":
                raise UserError("error.table_closed")
            if table.paused == paused:
                raise UserError("error.already_paused" if paused else "error.not_paused")
            if paused:
                left = None if table.deadline is None else max(table.deadline - self.now(), 0)
                fields: dict[str, Any] = {"paused": 1, "remaining": left, "deadline": None, "remind_at": None}
            else:
                fields = {"paused": 0, "remaining": None}
                if table.remaining is not None and table.clock:
                    deadline = self.now() + table.remaining
                    reminder = deadline - table.clock * REMIND_BEFORE
                    fields.update(deadline=deadline, remind_at=reminder if reminder > self.now() else None)
            note = Note("table_cmd.paused_note" if paused else "table_cmd.resumed_note")
            engine = await self.engine(table)
            async with self.store.transaction():
                await self.store.append_log(table_id, [("note", note.key, note.params, engine.deal_number)])
                await self.store.bump(table_id, **fields)
            outcome = await self._committed(table_id, engine)
            return outcome.table

    async def replace(self, table_id: int, user_id: int, position: int, new: tuple[int, str]) -> TableRow:
        """The host hands an empty (computer) or abandoned seat to another member."""
        async with self.locked(table_id):
            table = await self.table(table_id)
            self._require_host(table, user_id)
            if table.status != "running":
                raise UserError("error.table_closed")
            if not 0 <= position < len(table.seats):
                raise UserError("error.no_such_seat")
            if not table.seats[position].played_by_computer:
                raise UserError("error.seat_taken")
            if table.seat_of(new[0]) is not None:
                raise UserError("error.already_seated")
            await self._seat_member(table, position, new)
            return await self.table(table_id)

    async def _seat_member(self, table: TableRow, position: int, new: tuple[int, str]) -> None:
        """A member takes over a seat of a running table: its hand by a fresh DM, and a fresh clock."""
        seats = list(table.seats)
        seats[position] = Seat(position, new[0], new[1])
        engine = await self.engine(table)
        async with self.store.transaction():
            await self.store.set_seats(table.id, seats)
            await self.store.clear_deliveries(table.id, position)
            table.seats = seats
            await self._commit(table, engine, [], set(), [Note("clock.seat_replaced", {"seat": position})])
        await self._committed(table.id, engine)

    async def abandon(self, table_id: int, user_id: int) -> TableRow:
        """The host ends a running table without a result."""
        async with self.locked(table_id):
            table = await self.table(table_id)
            self._require_host(table, user_id)
            if table.status not in ("lobby", "running"):
                raise UserError("error.table_closed")
            if table.tournament_id is not None:
                raise UserError("error.tournament_table")
            await self.store.bump(
                table_id, status="cancelled", deadline=None, remind_at=None, computer_turn=0
            )
            self.forget(table_id)
            return await self.table(table_id)
