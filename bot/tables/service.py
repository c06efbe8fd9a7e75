"""The table lifecycle, with no Discord in it: lobby seats, start, actions, computer seats, end.

Every change goes through a per-table lock. An accepted action is committed to the log before
anything is shown, and the engine is rebuilt from the log whenever the cache is missing or an
unexpected error may have left it half-applied.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from bot.core.engine import Engine, Event
from bot.core.errors import UserError
from bot.core.games import REGISTRY
from bot.core.i18n import LANGUAGES
from bot.storage.store import Seat, Store, TableRow

COMPUTER = "computer"
MAX_COMPUTER_STEPS = 5000
CLOCKS = (60, 300, 900, 3600, 4 * 3600, 12 * 3600, 86400, 3 * 86400, 7 * 86400)
TIMEOUT_POLICIES = ("computer_turn", "computer_seat", "end")
REMIND_BEFORE = 0.2  # remind when a fifth of the clock is left


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
        self.locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.engines: dict[int, Engine] = {}
        self.pending_events: defaultdict[int, list[Event]] = defaultdict(list)
        self.pending_notes: defaultdict[int, list[Note]] = defaultdict(list)

    # ---- lookups ----------------------------------------------------------------------------
    async def table(self, table_id: int) -> TableRow:
        table = await self.store.get_table(table_id)
        if table is None or table.game not in REGISTRY:
            raise UserError("error.no_such_table")
        return table

    async def engine(self, table: TableRow) -> Engine:
        cached = self.engines.get(table.id)
        if cached is None:
            cls = REGISTRY[table.game].engine
            log = await self.store.actions(table.id)
            cached = cls.replay(len(table.seats), table.seed, table.options, log)
            self.engines[table.id] = cached
        return cached

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
    ) -> int:
        """A table with every seat already taken, in the given seat order, ready for ``start(...,
        shuffle=False)``: for events, seated by their pairing rather than by Join buttons."""
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
        await self.store.set_seats(table_id, [Seat(i, uid, name) for i, (uid, name) in enumerate(players)])
        return table_id

    async def hand_over(self, table_id: int, old: int, new: tuple[int, str]) -> bool:
        """An event replaced a player: the newcomer takes their seat and hand as they are."""
        async with self.locks[table_id]:
            table = await self.table(table_id)
            position = table.seat_of(old)
            if table.status != "running" or position is None:
                return False
            await self._seat_member(table, position, new)
            return True

    async def hand_to_computer(self, table_id: int, user_id: int) -> bool:
        """A player who left an event: a computer plays their seat to the end of the table."""
        async with self.locks[table_id]:
            table = await self.table(table_id)
            position = table.seat_of(user_id)
            if table.status != "running" or position is None or table.seats[position].away:
                return False
            seats = list(table.seats)
            seats[position].away = True
            await self.store.set_seats(table_id, seats)
            self.pending_notes[table_id].append(Note("clock.seat_taken_over", {"seat": position}))
            outcome = Outcome(await self.table(table_id), await self.engine(table))
            await self._run_computers(outcome)
            await self.store.update_table(table_id, dirty=1)
            return True

    async def attach(self, table_id: int, **ids: int | None) -> None:
        await self.store.update_table(table_id, **ids)

    async def _lobby(self, table_id: int) -> TableRow:
        table = await self.table(table_id)
        if table.status != "lobby":
            raise UserError("error.not_in_lobby")
        return table

    async def join(self, table_id: int, user: tuple[int, str]) -> TableRow:
        async with self.locks[table_id]:
            table = await self._lobby(table_id)
            if table.seat_of(user[0]) is not None:
                raise UserError("error.already_seated")
            if len(table.seats) >= table.size:
                raise UserError("error.table_full")
            await self._reseat(table, [*table.seats, Seat(0, user[0], user[1])])
            return await self.table(table_id)

    async def leave(self, table_id: int, user_id: int) -> TableRow:
        async with self.locks[table_id]:
            table = await self._lobby(table_id)
            if table.seat_of(user_id) is None:
                raise UserError("error.not_seated")
            if user_id == table.host_id:
                raise UserError("error.host_cannot_leave")
            await self._reseat(table, [s for s in table.seats if s.user_id != user_id])
            return await self.table(table_id)

    async def add_computer(self, table_id: int, user_id: int) -> TableRow:
        async with self.locks[table_id]:
            table = await self._lobby(table_id)
            self._require_host(table, user_id)
            if len(table.seats) >= table.size:
                raise UserError("error.table_full")
            number = 1 + sum(s.is_computer for s in table.seats)
            await self._reseat(table, [*table.seats, Seat(0, None, f"{COMPUTER}:{number}")])
            return await self.table(table_id)

    async def remove(self, table_id: int, user_id: int, position: int) -> TableRow:
        async with self.locks[table_id]:
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
        async with self.locks[table_id]:
            table = await self.table(table_id)
            self._require_host(table, user_id)
            if table.status not in ("lobby", "running"):
                raise UserError("error.table_closed")
            await self.store.update_table(table_id, status="cancelled")
            self.forget(table_id)
            return await self.table(table_id)

    async def _reseat(self, table: TableRow, seats: list[Seat]) -> None:
        await self.store.set_seats(table.id, [Seat(i, s.user_id, s.name) for i, s in enumerate(seats)])

    @staticmethod
    def _require_host(table: TableRow, user_id: int) -> None:
        if user_id != table.host_id:
            raise UserError("error.host_only")

    def ready_to_start(self, table: TableRow) -> bool:
        return table.status == "lobby" and len(table.seats) >= table.size

    async def start(self, table_id: int, user_id: int | None, seed: int, shuffle: bool = True) -> Outcome:
        """Start the table (``user_id`` None: started because it filled up, or by an event)."""
        async with self.locks[table_id]:
            table = await self._lobby(table_id)
            if user_id is not None:
                self._require_host(table, user_id)
            cls = REGISTRY[table.game].engine
            if len(table.seats) < cls.min_players:
                raise UserError("error.too_few_players", min=cls.min_players)
            if shuffle:
                seats = list(table.seats)
                random.Random(seed).shuffle(seats)
                await self._reseat(table, seats)
            await self.store.update_table(table_id, status="running", seed=seed, dirty=1)
            table = await self.table(table_id)
            self.forget(table_id)
            engine = await self.engine(table)
            outcome = Outcome(table, engine)
            await self._run_computers(outcome)
            return outcome

    # ---- play -------------------------------------------------------------------------------
    async def act(self, table_id: int, user_id: int, version: int, action: str) -> Outcome:
        async with self.locks[table_id]:
            table = await self.table(table_id)
            if table.status != "running":
                raise UserError("error.table_closed")
            seat = table.seat_of(user_id)
            if seat is None:
                raise UserError("error.not_seated")
            engine = await self.engine(table)
            log_length = len(engine.history)
            acted_since = any(s == seat for s, _ in engine.history[version:])
            if version > log_length or acted_since:
                raise UserError("error.stale")
            events = engine.apply(seat, action)  # IllegalAction leaves the engine untouched
            try:
                await self.store.append_actions(table_id, log_length, [(seat, action, False)])
            except Exception:
                self.forget(table_id)  # the engine is ahead of the log: rebuild it from the log
                raise
            if table.seats[seat].timeouts:
                seats = list(table.seats)
                seats[seat].timeouts = 0
                await self.store.set_seats(table_id, seats)
            outcome = Outcome(table, engine, list(events))
            await self._run_computers(outcome, log_length)
            return outcome

    async def _run_computers(self, outcome: Outcome, since: int | None = None) -> None:
        """Computer seats play a uniformly random legal action, seeded by the table and move number.

        ``since`` is the log position where this change began, to tell who moved in it.
        """
        table, engine = outcome.table, outcome.engine
        since = len(engine.history) if since is None else since
        computers = {s.position for s in table.seats if s.played_by_computer}
        for _ in range(MAX_COMPUTER_STEPS):
            if engine.is_terminal():
                break
            seat = next((s for s in engine.to_act() if s in computers), None)
            if seat is None:
                break
            index = len(engine.history)
            choice = random.Random(f"{table.seed}:{index}").choice(engine.legal_actions(seat))
            outcome.events.extend(engine.apply(seat, choice))
            await self.store.append_actions(table.id, index, [(seat, choice, True)])
        self.pending_events[table.id].extend(outcome.events)
        if engine.is_terminal():
            result = json.dumps(engine.results())
            await self.store.update_table(
                table.id, status="finished", result=result, deadline=None, remind_at=None
            )
        else:
            await self._clock_after_move(table, engine, {s for s, _ in engine.history[since:]})
        outcome.table = await self.table(table.id)

    async def _clock_after_move(self, table: TableRow, engine: Engine, movers: set[int]) -> None:
        """Restart the move clock, and start a new turn for each seat whose turn came round.

        A seat's turn begins when it is newly waited for, or when others moved since it last did;
        a seat that simply moves again (or waits while others make simultaneous choices) goes on.
        """
        humans = {s.position for s in table.seats if not s.played_by_computer}
        waiting = sorted(set(engine.to_act()) & humans)
        fields: dict[str, Any] = {"turn_seats": waiting}
        fresh = [s for s in waiting if s not in table.turn_seats or (s in movers and movers - {s})]
        if fresh:
            fields.update(turn_no=table.turn_no + 1, ping_seats=fresh)
        if table.clock and waiting and not table.paused:
            deadline = self.now() + table.clock
            fields.update(deadline=deadline, remind_at=deadline - table.clock * REMIND_BEFORE)
        else:
            fields.update(deadline=None, remind_at=None)
        await self.store.update_table(table.id, **fields)

    def drain_notes(self, table_id: int) -> list[Note]:
        return self.pending_notes.pop(table_id, [])

    # ---- clocks ------------------------------------------------------------------------------
    async def configure(self, table_id: int, user_id: int, setting: str, value: Any) -> TableRow:
        """The host's lobby settings: ``clock`` (seconds per move or None), ``on_timeout``, ``language``."""
        allowed = {"clock": (None, *CLOCKS), "on_timeout": TIMEOUT_POLICIES, "language": LANGUAGES}
        if setting not in allowed or value not in allowed[setting]:
            raise UserError("error.bad_setting")
        async with self.locks[table_id]:
            table = await self._lobby(table_id)
            self._require_host(table, user_id)
            await self.store.update_table(table_id, **{setting: value})
            return await self.table(table_id)

    async def expire(self, table_id: int) -> Outcome | None:
        """Handle a passed deadline once: a computer moves for the absent players, or the table ends."""
        async with self.locks[table_id]:
            table = await self.table(table_id)
            now = self.now()
            if table.status != "running" or table.paused or table.deadline is None or table.deadline > now:
                return None
            engine = await self.engine(table)
            absent = [s for s in engine.to_act() if not table.seats[s].played_by_computer]
            outcome = Outcome(table, engine)
            if table.on_timeout == "end":
                ranks = [
                    len(table.seats) - len(absent) + 1 if s in absent else 1 for s in range(len(table.seats))
                ]
                result = {
                    "ranks": ranks,
                    "scores": [None] * len(ranks),
                    "reason": "timeout",
                    "absent": absent,
                }
                await self.store.update_table(
                    table_id, status="finished", result=json.dumps(result), deadline=None, remind_at=None
                )
                for seat in absent:
                    self.pending_notes[table_id].append(Note("clock.ended_table", {"seat": seat}))
                outcome.table = await self.table(table_id)
                return outcome
            seats = list(table.seats)
            since = len(engine.history)
            for seat in absent:
                if seat not in engine.to_act():
                    continue
                index = len(engine.history)
                legal = engine.legal_actions(seat)
                preferred = REGISTRY[table.game].timeout_action(engine, seat)
                fallback = random.Random(f"{table.seed}:{index}:timeout")
                choice = preferred if preferred in legal else fallback.choice(legal)
                outcome.events.extend(engine.apply(seat, choice))
                await self.store.append_actions(table_id, index, [(seat, choice, True)])
                record = seats[seat]
                record.timeouts += 1
                self.pending_notes[table_id].append(Note("clock.computer_played", {"seat": seat}))
                if table.on_timeout == "computer_seat" and record.timeouts >= table.timeout_limit:
                    record.away = True
                    self.pending_notes[table_id].append(Note("clock.seat_taken_over", {"seat": seat}))
            await self.store.set_seats(table_id, seats)
            outcome.table = table = await self.table(table_id)
            await self._run_computers(outcome, since)
            return outcome

    async def pause(self, table_id: int, user_id: int, paused: bool) -> TableRow:
        async with self.locks[table_id]:
            table = await self.table(table_id)
            self._require_host(table, user_id)
            if table.status != "running":
                raise UserError("error.table_closed")
            if table.paused == paused:
                raise UserError("error.already_paused" if paused else "error.not_paused")
            if paused:
                left = None if table.deadline is None else max(table.deadline - self.now(), 0)
                await self.store.update_table(
                    table_id, paused=1, remaining=left, deadline=None, remind_at=None
                )
            else:
                fields: dict[str, Any] = {"paused": 0, "remaining": None}
                if table.remaining is not None and table.clock:
                    deadline = self.now() + table.remaining
                    reminder = deadline - table.clock * REMIND_BEFORE
                    fields.update(deadline=deadline, remind_at=reminder if reminder > self.now() else None)
                await self.store.update_table(table_id, **fields)
            self.pending_notes[table_id].append(
                Note("table_cmd.paused_note" if paused else "table_cmd.resumed_note")
            )
            return await self.table(table_id)

    async def replace(self, table_id: int, user_id: int, position: int, new: tuple[int, str]) -> TableRow:
        """The host hands an empty (computer) or abandoned seat to another member."""
        async with self.locks[table_id]:
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
        await self.store.set_seats(table.id, seats)
        await self.store.clear_deliveries(table.id, position)
        self.pending_notes[table.id].append(Note("clock.seat_replaced", {"seat": position}))
        table = await self.table(table.id)
        await self._clock_after_move(table, await self.engine(table), set())
        await self.store.update_table(table.id, dirty=1)

    async def abandon(self, table_id: int, user_id: int) -> TableRow:
        """The host ends a running table without a result."""
        async with self.locks[table_id]:
            table = await self.table(table_id)
            self._require_host(table, user_id)
            if table.status not in ("lobby", "running"):
                raise UserError("error.table_closed")
            if table.tournament_id is not None:
                raise UserError("error.tournament_table")
            await self.store.update_table(
                table_id, status="cancelled", deadline=None, remind_at=None, dirty=1
            )
            self.forget(table_id)
            return await self.table(table_id)

    def drain_events(self, table_id: int) -> list[Event]:
        return self.pending_events.pop(table_id, [])
