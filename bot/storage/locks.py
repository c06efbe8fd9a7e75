"""Names of the database locks that coordinate processes sharing one PostgreSQL database.

A lock is a pair (namespace, key) of 32-bit integers, PostgreSQL's two-key advisory lock. With
SQLite one process owns the file, and these locks are no-ops (its in-memory locks suffice).
"""

from __future__ import annotations

import asyncio
import contextlib
import zlib
from collections import defaultdict
from collections.abc import AsyncIterator

from bot.storage.database import Database

TABLE, TOURNAMENT, DELIVERY, MIGRATE, RATINGS, TIMERS, EVENT_DESK, EVENT_LIVE, REST, CHANNEL = 1, 2, 3, 4, 5, 6, 7, 8, 9, 10


def key_of(*parts: object) -> int:
    """A 32-bit key for a lock named by several values (a server and a game, say)."""
    return zlib.crc32(":".join(map(str, parts)).encode()) - 2**31


class KeyedLocks:
    """A lock per key (a tournament, say), held in this process and, with PostgreSQL, across every
    process sharing the database: a session lock on a connection of its own, released when the
    holder is done or its process dies."""

    def __init__(self, db: Database, namespace: int) -> None:
        self.db = db
        self.namespace = namespace
        self.memory: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    @contextlib.asynccontextmanager
    async def __call__(self, key: int) -> AsyncIterator[None]:
        async with self.memory[key], self.db.mutex(self.namespace, key):
            yield
