"""With several processes on one database, the work a process left behind when it died is taken up
by the others: a computer that was about to move, Discord messages that lag behind the stored
state, a finished table not yet rated, and deadlines set by other processes, which this process's
timer does not know of.

At start-up each process recovers what is stored (``bot.wiring.Services.recover``); this repeats the
check while it runs, and drops the counts of channels gone quiet. With SQLite one process owns
the database, and none of that is needed.

On either database it also purges what is stored of the servers the bot left ``KEEP`` seconds ago
(``bot.guilds``): their tables with everything that hangs off them, their events, ratings and
settings. A server that invites the bot back before then finds everything as it was.
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
KEEP = 30 * 86400.0  # how long the data of a server the bot left is kept
PURGE_EVERY = 3600.0  # how often the servers left are looked at


class Sweep:
    def __init__(
        self,
        store: Store,
        computers: Callable[[int], None],
        delivery: Callable[[int], None],
        rearm: Callable[[], Awaitable[None]],
        is_closed: Callable[[], bool],
        now: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.computers = computers  # wakes a table's computer
        self.delivery = delivery  # brings a table's messages up to date
        self.rearm = rearm  # re-reads the next due time, which another process may have set
        self.is_closed = is_closed
        self.now = now  # wall-clock seconds: when a server was left, and when it is purged
        self.task: asyncio.Task[None] | None = None
        self.purged_at = float("-inf")

    def start(self) -> None:
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self.run(), name="sweep")

    async def run(self) -> None:
        # One process on SQLite has nothing left behind by others: it wakes only to purge.
        interval = INTERVAL if self.store.db.shared else PURGE_EVERY
        while not self.is_closed():
            try:
                if self.now() - self.purged_at >= PURGE_EVERY:
                    self.purged_at = self.now()
                    await self.purge()
            except Exception:
                log.exception("purging the servers left failed")
            await asyncio.sleep(interval)
            try:
                if self.store.db.shared:
                    await self.once()
            except Exception:
                log.exception("sweep failed")

    async def purge(self) -> list[int]:
        """Delete what is stored of every server left more than ``KEEP`` seconds ago; their ids.
        (Of several processes, whichever comes first purges a server; the others find it gone.)"""
        before = self.now() - KEEP
        purged = []
        for guild_id in await self.store.servers.left_before(before):
            if await self.store.servers.purge(guild_id, before):
                log.info("server %s: left 30 days ago, its data purged", guild_id)
                purged.append(guild_id)
        return purged

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
