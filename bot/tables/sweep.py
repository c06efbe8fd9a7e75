"""With several processes on one database, the work a process left behind when it died is taken up
by the others: a computer that was about to move, Discord messages that lag behind the stored
state, a finished table not yet rated, and deadlines set by other processes, which this process's
timer does not know of.

At start-up each process recovers what is stored (``bot.wiring.Services.recover``); this repeats the
check while it runs, and drops the counts of channels gone quiet. With SQLite one process owns
the database, and this does not run.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.storage.store import Store

log = logging.getLogger(__name__)
INTERVAL = 15.0
STALE = 20.0  # a table untouched this long while work on it is pending was left by a dead process


class Sweep:
    def __init__(
        self,
        store: Store,
        computers: Callable[[int], None],
        delivery: Callable[[int], None],
        rearm: Callable[[], Awaitable[None]],
        is_closed: Callable[[], bool],
    ) -> None:
        self.store = store
        self.computers = computers  # wakes a table's computer
        self.delivery = delivery  # brings a table's messages up to date
        self.rearm = rearm  # re-reads the next due time, which another process may have set
        self.is_closed = is_closed
        self.task: asyncio.Task | None = None

    def start(self) -> None:
        if self.store.db.shared and self.task is None:
            self.task = asyncio.get_running_loop().create_task(self.run(), name="sweep")

    async def run(self) -> None:
        while not self.is_closed():
            await asyncio.sleep(INTERVAL)
            try:
                await self.once()
            except Exception:
                log.exception("sweep failed")

    async def once(self) -> None:
        before = (datetime.now(UTC) - timedelta(seconds=STALE)).isoformat(timespec="seconds")
        computers, lagging = await self.store.shared_work.stalled(before)
        for table_id in computers:
            self.computers(table_id)
        for table_id in lagging:
            self.delivery(table_id)
        await self.rearm()
        await self.store.shared_work.prune_channel_calls(time.time() - 60)  # channels gone quiet (``budget``)

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
            self.task = None
