"""The SQLite database (``database.Database``): one connection shared by every coroutine, without
their statements interleaving.

aiosqlite runs statements one at a time, but a transaction spans several ``await``s: without a
guard, a coroutine's statements land inside another coroutine's open transaction, and its commit
commits the other's half-done work (under load that surfaced as ``InterfaceError: bad parameter or
other API misuse``). Here every transaction holds one lock from ``BEGIN IMMEDIATE`` to ``COMMIT``:

* ``async with db.transaction():`` an explicit transaction; nested ones join the outer one.
* ``execute`` or ``executemany`` outside one is a transaction of its own, under the lock.
* A ``fetch`` outside one runs alone under the lock, and its rows are fetched at once, so no cursor
  stays open across another transaction. It commits on its own: a write that returns rows
  (``INSERT ... RETURNING``) runs inside ``transaction()``, so that its commit leaves this thread
  (below).

Since the lock lets one statement run at a time, the statements themselves (indexed reads and
one-row writes, tens of microseconds) run on the event loop's thread: a trip to aiosqlite's thread
and back costs more than that. ``COMMIT``, which may checkpoint the WAL and sync the disk, still
goes to that thread, as does a migration's script. (``BEGIN IMMEDIATE`` waits only for another
process's write, and the bot is the database's one writer.)
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Iterable
from contextvars import ContextVar
from typing import Any

import aiosqlite

from bot.storage.database import Params, Row
from bot.storage.dialect import SQLITE

PRAGMAS = ("journal_mode=WAL", "foreign_keys=ON", "synchronous=NORMAL", "busy_timeout=5000")


class SQLiteDatabase:
    dialect = SQLITE
    shared = False  # one process owns the file: its in-memory locks coordinate everything

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db
        self.lock = asyncio.Lock()
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
        async with self.transaction():
            return (await self._statement("execute", sql, params))[1]

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        async with self.transaction():
            await self._statement("executemany", sql, rows)

    async def _run(self, verb: str, sql: str, params: Any) -> tuple[list[Row], int]:
        if self._holding():
            return await self._statement(verb, sql, params)
        async with self.lock:
            return await self._statement(verb, sql, params)

    async def _statement(self, verb: str, sql: str, params: Any, wait: bool = False) -> tuple[list[Row], int]:
        """Run one statement, fetch its rows, close it: here, or on the database thread when it may
        ``wait``. Never two at once: the caller holds the lock. Its rows, and how many it changed."""
        conn = self.db._conn  # aiosqlite's own sqlite3 connection

        def run() -> tuple[list[Row], int]:
            cursor = getattr(conn, verb)(sql, params)
            try:
                rows = cursor.fetchall() if cursor.description else []
                return rows, cursor.rowcount
            finally:
                cursor.close()

        if wait:
            done: tuple[list[Row], int] = await self.db._execute(run)  # type: ignore[no-untyped-call]
            return done
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
                except BaseException:
                    await self._statement("execute", "ROLLBACK", ())
                    raise
                await self._statement("execute", "COMMIT", (), wait=True)
            finally:
                self._owner.reset(token)

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
            await self.db.executescript(f"BEGIN;\n{script}\nPRAGMA user_version={number};\nCOMMIT;")
        return True
