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
from dataclasses import dataclass, field
from typing import Any

from bot.engine import Engine, Event, IllegalAction
from bot.errors import UserError
from bot.games import REGISTRY
from bot.storage import Seat, Store, TableRow

COMPUTER = "computer"
MAX_COMPUTER_STEPS = 5000


@dataclass
class Outcome:
    table: TableRow
    engine: Engine
    events: list[Event] = field(default_factory=list)
    finished: bool = False


class TableService:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.engines: dict[int, Engine] = {}
        self.pending_events: defaultdict[int, list[Event]] = defaultdict(list)

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
        )
        await self.store.set_seats(table_id, [Seat(0, host[0], host[1])])
        return await self.table(table_id)

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

    async def start(self, table_id: int, user_id: int | None, seed: int) -> Outcome:
        """Start the table (``user_id`` None: started because it filled up)."""
        async with self.locks[table_id]:
            table = await self._lobby(table_id)
            if user_id is not None:
                self._require_host(table, user_id)
            cls = REGISTRY[table.game].engine
            if len(table.seats) < cls.min_players:
                raise UserError("error.too_few_players", min=cls.min_players)
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
            try:
                events = engine.apply(seat, action)
            except IllegalAction:
                raise
            except Exception:
                self.forget(table_id)
                raise
            try:
                await self.store.append_actions(table_id, log_length, [(seat, action, False)])
            except Exception:
                self.forget(table_id)
                raise
            outcome = Outcome(table, engine, list(events))
            await self._run_computers(outcome)
            return outcome

    async def _run_computers(self, outcome: Outcome) -> None:
        """Computer seats play a uniformly random legal action, seeded by the table and move number."""
        table, engine = outcome.table, outcome.engine
        computers = {s.position for s in table.seats if s.is_computer}
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
            outcome.finished = True
            result = json.dumps(engine.results())
            await self.store.update_table(table.id, status="finished", result=result)
            outcome.table = await self.table(table.id)

    def drain_events(self, table_id: int) -> list[Event]:
        events = self.pending_events.pop(table_id, [])
        return events
