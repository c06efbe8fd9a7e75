"""The SQLite database (``database.Database``): one connection shared by every coroutine, without
their statements interleaving.

aiosqlite runs statements one at a time, but a transaction spans several ``await``s: without a
guard, a coroutine's statements land inside another coroutine's open transaction, and its commit
commits the other's half-done work (under load that surfaced as ``InterfaceError: bad parameter or
other API misuse``). Here every transaction holds one lock from ``BEGIN IMMEDIATE`` to ``COMMIT``:

* ``async with db.transaction():`` an explicit transaction; nested ones join the outer one.
* ``execute`` or ``executemany`` outside one is a transaction of its own, under the lock: one
  statement that SQLite commits by itself, run on aiosqlite's thread like a ``COMMIT`` (no
  ``BEGIN`` and ``COMMIT`` around it: three statements were one).
* A ``fetch`` outside one runs alone under the lock, and its rows are fetched at once, so no cursor
  stays open across another transaction. It commits on its own: a write that returns rows
  (``INSERT ... RETURNING``) runs inside ``transaction()``, so that its commit leaves this thread
  (below).

Since the lock lets one statement run at a time, the statements themselves (indexed reads and
one-row writes, tens of microseconds) run on the event loop's thread: a trip to aiosqlite's thread
and back costs more than that. ``COMMIT``, which may checkpoint the WAL and sync the disk, still
goes to that thread, as does a migration's script. (``BEGIN IMMEDIATE`` waits only for another
process's write, and the bot is the database's one writer.) What runs on that thread cannot be
stopped: a task cancelled while its ``COMMIT`` waits there keeps the lock until the ``COMMIT`` has
ended, then takes its cancellation, so the next transaction never begins inside an open one. A
``COMMIT`` that fails (``SQLITE_BUSY`` past ``busy_timeout``, a deferred constraint, a full disk)
rolls the transaction back before the error goes up: what failed is undone, never left open.
aiosqlite's private parts are read in ``sqlite_thread.py`` only.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextvars import ContextVar
from typing import Any, TypeVar

import aiosqlite

from bot.storage.database import Params, Row
from bot.storage.dialect import SQLITE
from bot.storage.sqlite_thread import on_thread, raw

T = TypeVar("T")
PRAGMAS = ("journal_mode=WAL", "foreign_keys=ON", "synchronous=NORMAL", "busy_timeout=5000")


class SQLiteDatabase:
    dialect = SQLITE
    shared = False  # one process owns the file: its in-memory locks coordinate everything

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db
        self.lock = asyncio.Lock()
        self.rolled_back: list[Callable[[], None]] = []
        #: The task running inside a transaction of this database. A task started inside one
        #: inherits this variable, but not the transaction: it is compared with the current task.
        self._owner: ContextVar[asyncio.Task[Any] | None] = ContextVar(f"tx_owner_{id(self)}", default=None)

    @classmethod
    async def open(cls, path: str) -> SQLiteDatabase:
        db = await aiosqlite.connect(path, isolation_level=None, check_same_thread=False)
        db.row_factory = sqlite3.Row
        database = cls(db)
        await database.configure()
        return database

    async def configure(self) -> None:
        async with self.lock:  # outside any transaction, where these take effect
            for pragma in PRAGMAS:
                await self._statement("execute", f"PRAGMA {pragma}", ())

    async def close(self) -> None:
        async with self.lock:  # after the transaction under way, never in its middle
            await self.db.close()

    # ---- statements -----------------------------------------------------------------------------
    async def fetch(self, sql: str, params: Params = ()) -> list[Row]:
        rows, _ = await self._run("execute", sql, params)
        return rows

    async def fetchrow(self, sql: str, params: Params = ()) -> Row | None:
        rows, _ = await self._run("execute", sql, params)
        return rows[0] if rows else None

    async def fetchval(self, sql: str, params: Params = ()) -> Any:
        rows, _ = await self._run("execute", sql, params)
        return rows[0][0] if rows else None

    async def execute(self, sql: str, params: Params = ()) -> int:
        if self._holding():
            return (await self._statement("execute", sql, params))[1]
        async with self.lock:  # a transaction of its own: one statement, committed on the thread
            return (await self._statement("execute", sql, params, wait=True))[1]

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        if self._holding():
            await self._statement("executemany", sql, rows)
            return
        async with self.transaction():  # all rows or none: autocommit would keep the first ones
            await self._statement("executemany", sql, rows)

    async def _run(self, verb: str, sql: str, params: Any) -> tuple[list[Row], int]:
        if self._holding():
            return await self._statement(verb, sql, params)
        async with self.lock:
            return await self._statement(verb, sql, params)

    async def _statement(self, verb: str, sql: str, params: Any, wait: bool = False) -> tuple[list[Row], int]:
        """Run one statement, fetch its rows, close it: here, or on the database thread when it may
        ``wait``. Never two at once: the caller holds the lock. Its rows, and how many it changed."""
        conn = raw(self.db)

        def run() -> tuple[list[Row], int]:
            cursor = getattr(conn, verb)(sql, params)
            try:
                rows = cursor.fetchall() if cursor.description else []
                return rows, cursor.rowcount
            finally:
                cursor.close()

        if wait:
            return await finished(on_thread(self.db, run))
        return run()

    # ---- transactions ---------------------------------------------------------------------------
    def _holding(self) -> bool:
        owner = self._owner.get()
        return owner is not None and owner is asyncio.current_task()

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        if self._holding():
            yield
            return
        async with self.lock:
            token = self._owner.set(asyncio.current_task())
            try:
                await self._statement("execute", "BEGIN IMMEDIATE", ())
                try:
                    yield
                    await self._statement("execute", "COMMIT", (), wait=True)
                except BaseException:
                    self._roll_back()
                    for forget in self.rolled_back:
                        forget()
                    raise
            finally:
                self._owner.reset(token)

    def _roll_back(self) -> None:
        """Undo the open transaction, if one is open: a failed ``COMMIT`` leaves it open, while an
        error SQLite rolls back itself (a full disk, say) leaves none."""
        with contextlib.suppress(ValueError):  # the connection closed: nothing is open on it
            if raw(self.db).in_transaction:
                raw(self.db).execute("ROLLBACK").close()

    # ---- coordination (one process owns an SQLite file: its in-memory locks suffice) -----------------
    @contextlib.asynccontextmanager
    async def table_lock(self, table_id: int) -> AsyncIterator[None]:
        yield

    async def xact_lock(self, namespace: int, key: int) -> None:
        return None

    @contextlib.asynccontextmanager
    async def mutex(self, namespace: int, key: int) -> AsyncIterator[None]:
        yield

    @contextlib.asynccontextmanager
    async def lease(self, namespace: int, key: int) -> AsyncIterator[bool]:
        yield True

    # ---- schema ---------------------------------------------------------------------------------
    async def schema_version(self) -> int:
        version: int = await self.fetchval("PRAGMA user_version")
        return version

    async def apply_migration(self, number: int, script: str) -> bool:
        async with self.lock:
            await finished(self.db.executescript(f"BEGIN;\n{script}\nPRAGMA user_version={number};\nCOMMIT;"))
        return True


async def finished(work: Awaitable[T]) -> T:
    """Wait for ``work`` on aiosqlite's thread until it has ended, even when the waiting task is
    cancelled meanwhile (the cancellation is raised after it): the thread runs it anyway, and the
    lock held around it must not be let go before it ends."""
    task = asyncio.ensure_future(work)
    cancelled = False
    while not task.done():
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:
            if task.cancelled():  # the work itself was cancelled (the loop shutting down)
                raise
            cancelled = True
        except BaseException:
            break  # the work failed: its error is raised below
    if cancelled:
        task.exception()  # retrieved: the cancellation is what the waiting task raises
        raise asyncio.CancelledError
    return task.result()
