"""Which process brings a table's Discord messages up to date, when several share the database.

One process at a time delivers a table: it claims the table for a short lease and lets it go after
its pass. A process that finds the table claimed tries again a moment later, so a move it committed
is still shown; a lease left by a process that died runs out. What a process remembers of a table's
messages (what each shows) is trusted only while it was the last to deliver the table: when another
process delivered it since, those memories are dropped and the next pass compares afresh.

With SQLite one process owns the database, and none of this is needed.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.tables.delivery import Delivery

LEASE = 60.0  # longer than any pass: a pass waits out Discord's rate limits inside it
RETRY = 1.0  # a table another process is delivering is asked for again this much later


class Courier:
    def __init__(self, delivery: Delivery, deliver: Callable[[int], Awaitable[None]]) -> None:
        self.delivery = delivery
        self.deliver = deliver
        self.me = secrets.token_hex(8)

    async def __call__(self, table_id: int) -> None:
        store = self.delivery.service.store
        if not store.db.shared:
            await self.deliver(table_id)
            return
        now = time.time()
        before = await store.claim_courier(table_id, self.me, now + LEASE, now)
        if before is None:
            self.delivery.worker.request(table_id, delay=RETRY)
            return
        if before != self.me:
            self.delivery.forget(table_id)
        try:
            await self.deliver(table_id)
        finally:
            await store.release_courier(table_id, self.me)
