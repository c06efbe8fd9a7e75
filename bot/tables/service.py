"""The table lifecycle, with no Discord in it: the table's lock, its engine, moves, computers' moves,
the clock, and the commit every change goes through. The lobby (``lobby_ops.py``) and seat changes
in play (``seat_ops.py``) are objects of their own that commit through this one.

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
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from bot.core.config import NOTICE_GRACE
from bot.core.engine import Engine, Event, IllegalAction
from bot.core.errors import UserError
from bot.core.games import REGISTRY
from bot.core.meters import NO_METERS, Meters
from bot.storage.store import Store, TableRow
from bot.tables import notice_plan
from bot.tables.terms import CLOCKS, COMPUTER, LEVELS, REMIND_BEFORE, TIMEOUT_POLICIES, Note, was_seat

__all__ = ["CLOCKS", "COMPUTER", "LEVELS", "TIMEOUT_POLICIES", "Note", "Outcome", "TableService", "require_host"]

# Engines of the tables in play stay built: about 10-16 KB each (32 MB at most), while a replay on
# every move and pass, once more tables are in play than the cache holds, cost 0.8 ms per move.
ENGINE_CACHE = 2048


def bumped(table: TableRow, fields: dict[str, Any]) -> TableRow:
    """The row as ``Store.bump(table.id, **fields)`` leaves it, when ``table`` is the row read
    under the lock just before: a move's caller needs no second read."""
    fields = {k: bool(v) if k == "computer_turn" else v for k, v in fields.items()}
    return dataclasses.replace(table, version=table.version + 1, dirty=True, **fields)


def require_host(table: TableRow, user_id: int, open_in: tuple[str, ...] = ()) -> None:
    """Refuse unless ``user_id`` hosts the table and, where ``open_in`` names statuses, the table
    has one of them."""
    if user_id != table.host_id:
        raise UserError("error.host_only")
    if open_in and table.status not in open_in:
        raise UserError("error.table_closed")


def wall_clock() -> float:
    return datetime.now(UTC).timestamp()


@dataclass
class Outcome:
    table: TableRow
    engine: Engine
    events: list[Event] = field(default_factory=list)
    again: bool = False  # the same request's move was committed before: nothing new is


class TableService:
    def __init__(
        self,
        store: Store,
        now: Callable[[], float] = wall_clock,
        grace: Callable[[TableRow], float] | None = None,
        meters: Meters = NO_METERS,
    ) -> None:
        self.store = store
        self.now = now
        self.meters = meters  # moves committed, for the operators' /metrics
        #: How long a table's turn waits before its player is told (``notices.py``).
        self.grace: Callable[[TableRow], float] = grace or (lambda table: NOTICE_GRACE)
        self._locks: dict[int, tuple[asyncio.Lock, int]] = {}
        #: table id -> (stored version it matches, engine), least recently used first. A cached
        #: engine is never changed: moves are played on a clone that replaces it once committed.
        self.engines: OrderedDict[int, tuple[int, Engine]] = OrderedDict()
        #: Called with a table id after each committed change that a computer may have to answer.
        self.on_computer_turn: Callable[[int], None] = lambda table_id: None
        self._holding: set[int] = set()  # tables whose lock this process holds
        self._to_wake: set[int] = set()  # of those, tables whose computer is woken when it is let go
        #: Of those, the game a commit made, cached once the lock's transaction has committed.
        self._to_keep: dict[int, tuple[TableRow, Engine]] = {}

    @contextlib.asynccontextmanager
    async def locked(self, table_id: int) -> AsyncIterator[None]:
        """The table's lock, in this process and across processes sharing the database.

        In this process an ``asyncio.Lock`` (dropped from memory when nobody holds or waits for
        it); with PostgreSQL also the database's lock for the table, held by one transaction that
        everything inside runs in. A computer to wake is woken only once that transaction has
        committed, so its worker never reads the table as it was before the move; and the game a
        move made is cached only then, so a delivery pass never draws a move that is not stored.
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
                    kept = self._to_keep.pop(table_id, None)
                if kept is not None:
                    self._remember(*kept)
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
            # Another process sharing the database moved on: its actions are played on a copy of
            # the cached engine. A cached engine never changes, so a reader drawing it across
            # awaits draws one state, and two readers catching up never play an action twice.
            start = len(cached[1].history)
            actions = await self.store.actions(table.id, start)
            engine = cached[1].clone()
            try:
                for seat, action in actions:
                    engine.apply(seat, action)
            except IllegalAction:
                self.forget(table.id)
            else:
                self._remember(table, engine)
                return engine
        cls = REGISTRY[table.game].engine
        log = await self.store.actions(table.id)
        assert table.seed is not None, "a table has its seed once it has started"
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

    # ---- play -------------------------------------------------------------------------------
    async def act(
        self,
        table_id: int,
        user_id: int,
        version: int,
        action: str,
        check: Callable[[TableRow], None] | None = None,
        also: Callable[[TableRow, Engine, int], Awaitable[None]] | None = None,
        request: str | None = None,
    ) -> Outcome:
        """A member's move: checked (first by ``check``, which may refuse with a UserError), applied
        and committed in one transaction, or refused unchanged. ``also(table, engine, seat)`` writes
        more in that transaction, given the state the move leaves. ``request`` (a click's id) is
        stored with the move: asked again once it is committed, the move is not refused as out of
        date but answered as it stands (``Outcome.again``), as when another process finished it."""
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
            stored = await self.engine(table)
            log_length = len(stored.history)
            acted_since = any(s == seat for s, _ in stored.history[version:])
            if version > log_length or acted_since:
                if request is not None and await self.store.played(table_id, request):
                    return Outcome(table, stored, again=True)
                raise UserError("error.stale")
            engine = stored.clone()  # readers keep drawing the stored game until the commit
            events = engine.apply(seat, action)  # IllegalAction leaves the engine untouched
            async with self.store.transaction():
                await self.store.append_actions(table_id, log_length, [(seat, action, False)], request)
                if table.seats[seat].timeouts:
                    table.seats[seat].timeouts = 0
                    await self.store.set_seats(table_id, table.seats)
                fields = await self.commit(table, engine, events, {seat}, deal=stored.deal_number)
                if also is not None:
                    await also(bumped(table, fields), engine, seat)
            outcome = await self.committed(table_id, engine, bumped(table, fields))
            self.meters.moved(table.game, "member")
            outcome.events = list(events)
            return outcome

    async def play_computers(self, table_id: int) -> None:
        """Computers move (randomly) until a member is to act or the table ends: for tools and tests
        that run a table without the bot; the bot moves computers through its worker."""
        while await self.random_computer_move(table_id) is not None:
            pass

    async def random_computer_move(self, table_id: int) -> bool | None:
        """One random move of the computer to act (``computer_move``'s answer), None when none is."""
        table = await self.table(table_id)
        engine = await self.engine(table)
        seat = self.computer_to_act(table, engine)
        if seat is None:
            return None
        choice = random.Random(f"{table.seed}:{len(engine.history)}").choice(engine.legal_actions(seat))
        return await self.computer_move(table_id, table.version, seat, choice)

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
            stored = await self.engine(table)
            if self.computer_to_act(table, stored) != seat or action not in stored.legal_actions(seat):
                return False
            index = len(stored.history)
            engine = stored.clone()
            events = engine.apply(seat, action)
            async with self.store.transaction():
                await self.store.append_actions(table_id, index, [(seat, action, True)])
                fields = await self.commit(table, engine, events, {seat}, deal=stored.deal_number)
            await self.committed(table_id, engine, bumped(table, fields))
            self.meters.moved(table.game, "computer")
            return True

    async def commit(
        self,
        table: TableRow,
        engine: Engine,
        events: list[Event],
        movers: set[int],
        notes: Sequence[Note] = (),
        deal: int | None = None,
    ) -> dict[str, Any]:
        """Inside the caller's transaction: the record lines, the clock, the end, and a new version.
        ``deal``: the deal the moves were made in (the one they end, if they end one), the deal of
        their record lines (``record_lines.pack``); by default the engine's. Returns the table's
        fields it changed (see ``bumped``)."""
        deal = engine.deal_number if deal is None else deal
        # The events from the one that opens the next deal on belong to that deal; the notes on the
        # move stay with the deal it was made in, before them.
        ui = REGISTRY.get(table.game)
        cut = next((i for i, e in enumerate(events) if ui is not None and ui.begins_deal(e)), len(events))
        rows = [("event", e.code, e.data, deal) for e in events[:cut]]
        rows += [("note", n.key, n.params, deal) for n in notes]
        rows += [("event", e.code, e.data, engine.deal_number) for e in events[cut:]]
        fields: dict[str, Any] = {}
        if engine.is_terminal():
            rows.append(("final", "final", {}, deal))
            fields.update(
                status="finished",
                result=json.dumps(engine.results()),
                deadline=None,
                remind_at=None,
                turn_seats=[],
                waits={},
                notify_at=None,
                computer_turn=0,
            )
        else:
            fields.update(self._clock_fields(table, engine, movers))
            fields["computer_turn"] = int(self.computer_to_act(table, engine) is not None)
        await self.store.append_log(table.id, rows)
        if rows:
            fields["logged"] = table.logged + len(rows)
        await self.store.bump(table.id, **fields)
        return fields

    async def committed(
        self, table_id: int, engine: Engine | None = None, table: TableRow | None = None
    ) -> Outcome:
        """After a commit: the cache follows the new version, and a computer to act is woken.
        ``table``: the committed row when the caller knows it (``bumped``), to spare reading it."""
        table = table or await self.table(table_id)
        if engine is None:
            self.forget(table_id)
            engine = await self.engine(table)
        elif table_id in self._holding:
            self._to_keep[table_id] = (table, engine)
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
        Each waiting seat's wait is kept (the turn it began at, when, and whether its turn came
        round rather than went on after its own move, which shows its player is here): a wait
        begins with a turn and again with each move of the seat's own. The first wait to reach
        its grace period is when the clock sends the turn notices (``notify_at``).
        """
        now = self.now()
        humans = {s.position for s in table.seats if not s.played_by_computer}
        waiting = sorted(set(engine.to_act()) & humans)
        fields: dict[str, Any] = {"turn_seats": waiting}
        fresh = [s for s in waiting if s not in table.turn_seats or (s in movers and movers - {s})]
        if movers and not waiting:
            fresh = []
        again = [s for s in waiting if s in movers and s not in fresh]
        waits = {s: table.waits[s] for s in waiting if s in table.waits and s not in fresh and s not in again}
        if fresh or again:
            turn = table.turn_no + 1
            waits.update((s, (turn, now, s in fresh)) for s in fresh + again)
            fields["turn_no"] = turn
        think = notice_plan.thought(table, movers, now)
        if think != table.think:
            fields["think"] = think
        if waits != table.waits or think != table.think:
            # A wait already past its grace period is told by the delivery pass this commit asks for.
            grace = self.grace(table)
            fields["waits"] = waits
            due = [since + notice_plan.grace_for(think.get(s), grace) for s, (_, since, _) in waits.items()]
            fields["notify_at"] = min((at for at in due if at > now), default=None)
        if table.clock and waiting and not table.paused:
            deadline = now + table.clock
            fields.update(deadline=deadline, remind_at=deadline - table.clock * REMIND_BEFORE)
        else:
            fields.update(deadline=None, remind_at=None)
        return fields

    # ---- clocks ------------------------------------------------------------------------------
    async def expire(self, table_id: int, choose: Callable[[TableRow, Engine, int], str | None] | None = None) -> bool:
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
                ended = [Note("clock.ended_table", {"seat": seat}) for seat in absent]
                rows = [("note", n.key, n.params, engine.deal_number) for n in ended]
                rows.append(("final", "final", {}, engine.deal_number))
                async with self.store.transaction():
                    await self.store.append_log(table_id, rows)
                    await self.store.bump(
                        table_id, status="finished", result=json.dumps(result), deadline=None, remind_at=None,
                        logged=table.logged + len(rows),
                    )
                await self.committed(table_id, engine)
                return True
            seats = list(table.seats)
            deal = engine.deal_number
            engine = engine.clone()
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
                    notes.append(Note("clock.seat_taken_over", {"seat": seat, "was": was_seat(record)}))
                    record.away = True
            async with self.store.transaction():
                await self.store.append_actions(table_id, start, moves)
                await self.store.set_seats(table_id, seats)
                table.seats = seats
                await self.commit(table, engine, events, {s for s, _, _ in moves}, notes, deal)
            await self.committed(table_id, engine)
            self.meters.moved(table.game, "timeout", len(moves))
            return True
