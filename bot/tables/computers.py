"""Computer seats move from a worker, as soon as they are to act and again after any restart.

A computer's move is a move of its own, in its own transaction. It is chosen without holding the
table's lock (thinking can take up to a second); if the table moved on meanwhile, it is chosen
again. Choices are seeded by the table's seed and the move number, so replays reproduce them.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from bot.ai import pool
from bot.core.engine import Engine
from bot.storage.store import TableRow
from bot.tables.worker import Worker

if TYPE_CHECKING:
    from bot.core.config import Config
    from bot.tables.service import TableService

log_ = logging.getLogger(__name__)


def move_seed(table: TableRow, engine: Engine) -> int:
    return random.Random(f"{table.seed}:{len(engine.history)}").getrandbits(63)


class Computers:
    def __init__(self, service: TableService, config: Config, moved: Callable[[int], None]) -> None:
        self.service = service
        self.config = config  # ``computer_search = false``: computers play at random
        self.moved = moved  # a computer's move was committed: its table is to be shown
        self.worker = Worker("computers", self.step, limit=2)
        service.on_computer_turn = self.worker.request

    async def choose(self, table: TableRow, engine: Engine, seat: int) -> str:
        """The move a computer of this seat's level makes. The search runs in a worker process from
        the stored game alone (options, seed, log), so it sees only what ``determinize`` gives its
        seat, and the event loop keeps answering other tables meanwhile."""
        legal = engine.legal_actions(seat)
        level = table.seats[seat].level
        if not self.config.computer_search or level == "easy" or len(legal) == 1:
            return random.Random(move_seed(table, engine)).choice(legal)
        log = list(engine.history)
        assert table.seed is not None, "a table in play has its seed"
        try:
            return await pool.think(
                table.game, len(table.seats), table.options, table.seed, log, seat, level,
                move_seed(table, engine),
            )
        except Exception:
            log_.exception("table %s: the computer's search failed; it plays at random", table.id)
            return random.Random(move_seed(table, engine)).choice(legal)

    async def for_timeout(self, table_id: int) -> Callable[[TableRow, Engine, int], str | None] | None:
        """Moves for the members whose time ran out, thought out at their seats' level before
        ``expire`` locks the table; they count only if the table has not moved on meanwhile.
        At ``easy`` (or without search) the game's own timeout move stands, as before."""
        service = self.service
        table = await service.table(table_id)
        if table.status != "running" or table.on_timeout == "end" or not self.config.computer_search:
            return None
        engine = await service.engine(table)
        picks: dict[int, str] = {}
        for seat in engine.to_act():
            if not table.seats[seat].played_by_computer and table.seats[seat].level != "easy":
                picks[seat] = await self.choose(table, engine, seat)
        version = table.version

        def choose(now: TableRow, _engine: Engine, seat: int) -> str | None:
            return picks.get(seat) if now.version == version else None

        return choose

    async def step(self, table_id: int) -> None:
        service = self.service
        table = await service.table(table_id)
        engine = await service.engine(table)
        seat = service.computer_to_act(table, engine)
        if seat is None:
            if table.computer_turn:
                await service.store.update_table(table_id, computer_turn=0)
            return
        action = await self.choose(table, engine, seat)
        # False when the table moved on while thinking; whoever moved it woke this worker again.
        if await service.computer_move(table_id, table.version, seat, action):
            self.moved(table_id)

    async def recover(self) -> None:
        for table_id in await self.service.store.computer_tables():
            self.worker.request(table_id)
