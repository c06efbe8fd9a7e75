"""Which process brings a table's Discord messages up to date, when several share the database.

One process at a time delivers a table: it holds the table's delivery lock (a PostgreSQL session
lock, which goes with the process if it dies) for its pass. A process that finds the table taken
tries again a moment later, so a move it committed is still shown. What each of a table's messages
shows is stored as well as remembered: when another process delivered the table since (or answered
a click on it), the stored fingerprints replace what this process remembers, so it edits only what
changed.

With SQLite one process owns the database, and none of this is needed.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot.storage.locks import DELIVERY

if TYPE_CHECKING:
    from bot.tables.delivery import Delivery

RETRY = 0.2  # a table another process is delivering is asked for again this much later


class Courier:
    def __init__(
        self,
        delivery: Delivery,
        deliver: Callable[[int], Awaitable[None]],
        hands: Callable[[int], Awaitable[None]] | None = None,
    ) -> None:
        self.delivery = delivery
        self.deliver = deliver  # a whole pass
        self.hands = hands  # the urgent part of a pass, after a move (``Worker.first``)
        self.me = secrets.token_hex(8)

    async def __call__(self, table_id: int) -> None:
        await self.run(table_id, self.deliver)

    async def first(self, table_id: int) -> None:
        await self.run(table_id, self.hands or self.deliver)

    async def run(self, table_id: int, deliver: Callable[[int], Awaitable[None]]) -> None:
        store = self.delivery.service.store
        if not store.db.shared:
            await deliver(table_id)
            return
        async with store.db.lease(DELIVERY, table_id) as mine:
            if not mine:
                self.delivery.worker.request(table_id, delay=RETRY)
                return
            if await store.shared_work.take_courier(table_id, self.me):
                await self.delivery.load_shown(table_id)
            await deliver(table_id)
