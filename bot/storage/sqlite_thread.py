"""The one place that reads private parts of aiosqlite (``tests/core/test_layout.py`` allows them
by name; ``tests/storage/test_sqlite_thread.py`` fails if an upgrade renames or changes them).

aiosqlite's public statements each take a trip to its thread and back: 43 µs for
``execute_fetchall`` and 115 µs through a cursor, against 6 µs for the same indexed read on the
event loop's thread (``benchmarks/sqlite_statements.py``; docs/measurements.md). The store runs
thousands of such reads a second under load, so ``sqlite.py`` runs its statements on the sqlite3
connection itself, under its own lock, and sends only what may wait (``COMMIT``) to the thread.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TypeVar

import aiosqlite

T = TypeVar("T")


def raw(db: aiosqlite.Connection) -> sqlite3.Connection:
    """aiosqlite's own sqlite3 connection (``ValueError`` once it is closed)."""
    return db._conn


async def on_thread(db: aiosqlite.Connection, call: Callable[[], T]) -> T:
    """``call()`` run on aiosqlite's thread, after whatever it queued before; its result."""
    done: T = await db._execute(call)  # type: ignore[no-untyped-call]
    return done
