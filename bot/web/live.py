"""Live pages learn of a change at once when this process committed it (the ``changed`` hook of
``TableHooks``), and within ``POLL`` seconds when another process sharing the database did: one
query a round for the versions of every table someone is watching, however many watch it.

Each watched table has one ``Topic``: the latest row read, and an event set when it changes. Every
viewer of the table waits on the same topic, so a change costs one read, not one per viewer.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable

from bot.storage.store import TableRow

log = logging.getLogger(__name__)
POLL = 0.5
BATCH = 500  # tables per version query


def shown(row: TableRow) -> tuple[int, str | None]:
    """What a live page is drawn from, of a table's row besides its game."""
    return (row.version, row.talk)


class Topic:
    def __init__(self, row: TableRow) -> None:
        self.row = row
        self.viewers = 0
        self.changed = asyncio.Event()
        self.reading: asyncio.Task[None] | None = None

    def publish(self, row: TableRow) -> None:
        """A row read now: its viewers are woken when it shows something the one they have does not
        (a new version, or the talk that Final Quest's questions set beside a move)."""
        if row.version < self.row.version or shown(row) == shown(self.row):
            return
        self.row = row
        self.changed.set()
        self.changed = asyncio.Event()  # those waiting were woken; the next change wakes the next


class LiveFeed:
    def __init__(
        self,
        read: Callable[[int], Awaitable[TableRow | None]],
        versions: Callable[[list[int]], Awaitable[dict[int, int]]],
        poll: float = POLL,
    ) -> None:
        self.read = read
        self.versions = versions
        self.poll = poll
        self.topics: dict[int, Topic] = {}
        self.poller: asyncio.Task[None] | None = None

    @contextlib.asynccontextmanager
    async def watch(self, table: TableRow) -> AsyncIterator[Topic]:
        """The table's topic while inside (``table``: its row, as just read)."""
        topic = self.topics.get(table.id)
        if topic is None:
            topic = self.topics[table.id] = Topic(table)
        else:
            topic.publish(table)
        topic.viewers += 1
        if self.poller is None or self.poller.done():
            self.poller = asyncio.create_task(self._poll())
        try:
            yield topic
        finally:
            topic.viewers -= 1
            if topic.viewers == 0 and self.topics.get(table.id) is topic:
                del self.topics[table.id]
                if topic.reading is not None:
                    topic.reading.cancel()

    def changed(self, table_id: int) -> None:
        """A change to the table was committed (the hook): its viewers get it after one read."""
        topic = self.topics.get(table_id)
        if topic is not None and (topic.reading is None or topic.reading.done()):
            topic.reading = asyncio.create_task(self._read(topic))

    async def _read(self, topic: Topic) -> None:
        try:
            row = await self.read(topic.row.id)
        except Exception:
            log.exception("live page: reading table %s failed", topic.row.id)
            return
        if row is not None:
            topic.publish(row)

    async def _poll(self) -> None:
        while self.topics:
            await asyncio.sleep(self.poll)
            ids = sorted(self.topics)
            try:
                for start in range(0, len(ids), BATCH):
                    stored = await self.versions(ids[start : start + BATCH])
                    for table_id, version in stored.items():
                        topic = self.topics.get(table_id)
                        if topic is not None and version != topic.row.version:
                            self.changed(table_id)
            except Exception:
                log.exception("live pages: polling the tables' versions failed")

    async def close(self) -> None:
        """Stop polling; every viewer is woken (to find the server closing)."""
        for topic in self.topics.values():
            topic.changed.set()
        tasks = [t for t in [self.poller, *(topic.reading for topic in self.topics.values())] if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.topics.clear()
