"""The SQLite transaction guard (``bot/storage/sqlite.py``) when its ``COMMIT`` is interrupted or
fails: the next transaction always starts on a connection with none open, and what failed is undone.

Before, a task cancelled while its ``COMMIT`` waited on aiosqlite's thread let the lock go with the
``COMMIT`` still queued, and the next ``BEGIN IMMEDIATE`` failed ("cannot start a transaction within
a transaction": at a loaded shutdown, a member's language was lost); a ``COMMIT`` that failed left
its transaction open for the next one to trip over.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading

import pytest

from bot.storage.sqlite import SQLiteDatabase
from bot.storage.sqlite_thread import on_thread, raw


@pytest.fixture
async def db(tmp_path):
    db = await SQLiteDatabase.open(str(tmp_path / "guard.sqlite3"))
    await db.execute("CREATE TABLE t (v INTEGER PRIMARY KEY)")
    yield db
    await db.close()


async def values(db: SQLiteDatabase) -> list[int]:
    return [row[0] for row in await db.fetch("SELECT v FROM t ORDER BY v")]


async def insert(db: SQLiteDatabase, value: int, written: asyncio.Event | None = None) -> None:
    async with db.transaction():
        await db.execute("INSERT INTO t (v) VALUES (?)", (value,))
        if written is not None:
            written.set()


async def test_a_task_cancelled_during_its_commit_holds_the_lock_until_the_commit_has_ended(db):
    # aiosqlite's thread is held up, so the COMMIT queued behind this waits there until the gate opens.
    gate, entered = threading.Event(), threading.Event()
    held = asyncio.ensure_future(on_thread(db.db, lambda: (entered.set(), gate.wait())))
    await asyncio.get_running_loop().run_in_executor(None, entered.wait)
    try:
        written = asyncio.Event()
        first = asyncio.ensure_future(insert(db, 1, written))
        await written.wait()
        for _ in range(3):
            await asyncio.sleep(0)  # its COMMIT reaches the thread's queue
        assert raw(db.db).in_transaction  # the COMMIT waits
        first.cancel()
        await asyncio.sleep(0)
        first.cancel()  # twice, as a shutdown that cancels everything may
        second = asyncio.ensure_future(insert(db, 2))
        for _ in range(5):
            await asyncio.sleep(0)
        assert not first.done() and not second.done()  # the lock stays with the COMMIT under way
    finally:
        gate.set()  # else the thread, and the database's closing, would wait for ever
        await held
    with pytest.raises(asyncio.CancelledError):
        await first  # the cancellation is not swallowed, only put off until the COMMIT ended
    await second
    assert await values(db) == [1, 2]  # the first COMMIT ran to its end on the thread: it stands
    assert not raw(db.db).in_transaction


async def test_a_commit_refused_by_an_outside_reader_is_rolled_back_and_the_next_transaction_runs(db, tmp_path):
    """Where WAL is not to be had (a file system without shared memory: ``journal_mode=WAL`` then
    leaves the rollback journal), a reader outside the bot, an operator's ``sqlite3`` shell, makes
    the ``COMMIT`` wait for its lock and fail with SQLITE_BUSY after ``busy_timeout``."""
    assert (await db.fetch("PRAGMA journal_mode=DELETE"))[0][0] == "delete"
    await db.fetch("PRAGMA busy_timeout=50")
    await insert(db, 1)
    reader = sqlite3.connect(str(tmp_path / "guard.sqlite3"), isolation_level=None)
    try:
        reader.execute("BEGIN")
        assert reader.execute("SELECT count(*) FROM t").fetchone() == (1,)  # its shared lock is held
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            await insert(db, 2)
        assert not raw(db.db).in_transaction
    finally:
        reader.execute("COMMIT")
        reader.close()
    await insert(db, 3)
    assert await values(db) == [1, 3]  # the refused transaction is undone, not committed later


async def test_a_commit_that_breaks_a_deferred_constraint_is_rolled_back(db):
    await db.execute("CREATE TABLE seats (id INTEGER PRIMARY KEY)")
    await db.execute("CREATE TABLE hands (seat INTEGER REFERENCES seats (id) DEFERRABLE INITIALLY DEFERRED)")
    with pytest.raises(sqlite3.IntegrityError):
        async with db.transaction():
            await db.execute("INSERT INTO t (v) VALUES (1)")
            await db.execute("INSERT INTO hands (seat) VALUES (9)")  # no seat 9: refused at COMMIT
    assert not raw(db.db).in_transaction
    await insert(db, 2)
    assert await values(db) == [2]
