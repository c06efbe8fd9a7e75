"""Computer seats move from a worker, as soon as they are to act and again after any restart.

A computer's move is a move of its own, in its own transaction. It is chosen without holding the
table's lock (thinking can take up to a second); if the table moved on meanwhile, it is chosen
again. Choices are seeded by the table's seed and the move number, so replays reproduce them.
"""

from __future__ import annotations

import logging
import random
from typing import TYPE_CHECKING

from bot.core.engine import Engine
from bot.storage.store import TableRow
from bot.tables.worker import Worker

if TYPE_CHECKING:
    from bot.app import TabletopBot

log = logging.getLogger(__name__)


def move_seed(table: TableRow, engine: Engine) -> int:
    return random.Random(f"{table.seed}:{len(engine.history)}").getrandbits(63)


class Computers:
    def __init__(self, bot: TabletopBot) -> None:
        self.bot = bot
        self.worker = Worker("computers", self.step, limit=2)
        bot.service.on_computer_turn = self.worker.request

    async def choose(self, table: TableRow, engine: Engine, seat: int) -> str:
        """The move a computer of this seat's level makes (the search runs off the event loop)."""
        legal = engine.legal_actions(seat)
        return random.Random(move_seed(table, engine)).choice(legal)

    async def step(self, table_id: int) -> None:
        service = self.bot.service
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
            self.bot.delivery.request(table_id)

    async def recover(self) -> None:
        for table_id in await self.bot.service.store.computer_tables():
            self.worker.request(table_id)
