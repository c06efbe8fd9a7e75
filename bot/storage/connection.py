"""One SQLite connection shared by every coroutine, without their statements interleaving.

aiosqlite runs statements one at a time, but a transaction spans several ``await``s: without a
guard, a coroutine's statements land inside another coroutine's open transaction, and its commit
commits the other's half-done work (under load that surfaced as ``InterfaceError: bad parameter or
other API misuse``). Here every transaction holds one lock from ``BEGIN IMMEDIATE`` to ``COMMIT``:

* ``async with conn.transaction():`` — an explicit transaction; nested ones join the outer one.
* A write outside one (``INSERT``/``UPDATE``/``DELETE``) opens an implicit transaction owned by the
  current task until it calls ``commit()``, as Python's sqlite3 does; if the task ends without
  committing, the work is rolled back and the lock released.
* A read outside a transaction runs alone under the lock, and its rows are fetched at once, so no
  cursor stays open across another transaction.

Since the lock lets one statement run at a time, the statements themselves (indexed reads and
one-row writes, tens of microseconds) run on the event loop's thread: a trip to aiosqlite's thread
and back costs more than that. ``COMMIT``, which may checkpoint the WAL and sync the disk, still
goes to that thread, as does ``executescript``. (``BEGIN IMMEDIATE`` waits only for another
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

from bot.storage.dialect import SQLITE

WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")
MAY_WAIT = ("COMMIT",)  # run on aiosqlite's thread (see the docstring)


class Rows:
    """A finished cursor: rows already fetched, usable with ``await`` and ``async with``."""

    def __init__(self, rows: list[sqlite3.Row], lastrowid: int | None, rowcount: int) -> None:
        self.rows = rows
        self.lastrowid = lastrowid
        self.rowcount = rowcount

    async def fetchone(self) -> sqlite3.Row | None:
        return self.rows[0] if self.rows else None

    async def fetchall(self) -> list[sqlite3.Row]:
        return self.rows

    def __aiter__(self) -> AsyncIterator[sqlite3.Row]:
        async def gen():
            for row in self.rows:
                yield row

        return gen()


class _Pending:
    """What ``execute`` returns: awaitable, or an async context manager, like aiosqlite's."""

    def __init__(self, coro) -> None:
        self.coro = coro
        self.result: Rows | None = None

    def __await__(self):
        return self.coro.__await__()

    async def __aenter__(self) -> Rows:
        self.result = await self.coro
        return self.result

    async def __aexit__(self, *exc: object) -> None:
        return None


class Connection:
    dialect = SQLITE
    shared = False  # one process owns the file: its in-memory locks coordinate everything

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db
        self.lock = asyncio.Lock()
        self._owner: ContextVar[object | None] = ContextVar(f"tx_owner_{id(self)}", default=None)
        self._implicit: asyncio.Task | None = None
        self.commits = 0

    @classmethod
    async def open(cls, path: str) -> Connection:
        db = await aiosqlite.connect(path, isolation_level=None, check_same_thread=False)
        db.row_factory = sqlite3.Row
        conn = cls(db)
        for pragma in ("journal_mode=WAL", "foreign_keys=ON", "synchronous=NORMAL", "busy_timeout=5000"):
            await conn.execute(f"PRAGMA {pragma}")
        return conn

    async def close(self) -> None:
        await self.db.close()

    # ---- transactions ---------------------------------------------------------------------------
    def _holding(self) -> bool:
        if self._owner.get() is self:
            return True
        return self._implicit is not None and self._implicit is asyncio.current_task()

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        if self._holding():
            yield self
            return
        async with self.lock:
            token = self._owner.set(self)
            try:
                await self._statement("execute", "BEGIN IMMEDIATE", ())
                try:
                    yield self
                except BaseException:
                    await self._statement("execute", "ROLLBACK", ())
                    raise
                await self._statement("execute", "COMMIT", ())
                self.commits += 1
            finally:
                self._owner.reset(token)

    async def _begin_implicit(self) -> None:
        await self.lock.acquire()
        task = asyncio.current_task()
        self._implicit = task
        try:
            await self._statement("execute", "BEGIN IMMEDIATE", ())
        except BaseException:
            self._implicit = None
            self.lock.release()
            raise
        if task is not None:
            task.add_done_callback(self._abandoned)

    def _abandoned(self, task: asyncio.Task) -> None:
        if self._implicit is task:
            asyncio.get_running_loop().create_task(self._end_implicit("ROLLBACK"))

    async def _end_implicit(self, verb: str) -> None:
        task = self._implicit
        if task is not None and not task.done():
            task.remove_done_callback(self._abandoned)
        try:
            await self._statement("execute", verb, ())
            if verb == "COMMIT":
                self.commits += 1
        finally:
            self._implicit = None
            self.lock.release()

    async def commit(self) -> None:
        if self._implicit is not None and self._implicit is asyncio.current_task():
            await self._end_implicit("COMMIT")

    async def rollback(self) -> None:
        if self._implicit is not None and self._implicit is asyncio.current_task():
            await self._end_implicit("ROLLBACK")

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
        async with self.execute("PRAGMA user_version") as cur:
            (version,) = await cur.fetchone()
        return version

    async def apply_migration(self, number: int, script: str) -> bool:
        await self.executescript(f"BEGIN;\n{script}\nPRAGMA user_version={number};\nCOMMIT;")
        return True

    # ---- statements -----------------------------------------------------------------------------
    def execute(self, sql: str, params: Iterable[Any] = ()) -> _Pending:
        return _Pending(self._run("execute", sql, params))

    def executemany(self, sql: str, rows: Iterable[Iterable[Any]]) -> _Pending:
        return _Pending(self._run("executemany", sql, list(rows)))

    async def executescript(self, script: str) -> None:
        async with self.lock:
            await self.db.executescript(script)

    async def _run(self, verb: str, sql: str, params: Any) -> Rows:
        if not self._holding() and sql.lstrip()[:7].upper().startswith(WRITES):
            await self._begin_implicit()
        if self._holding():
            return await self._statement(verb, sql, params)
        async with self.lock:
            return await self._statement(verb, sql, params)

    async def _statement(self, verb: str, sql: str, params: Any) -> Rows:
        """Run one statement, fetch its rows, close it: here, or on the database thread when it may
        wait. Never two at once: the caller holds the lock."""
        conn = self.db._conn  # aiosqlite's own sqlite3 connection

        def run() -> Rows:
            cursor = getattr(conn, verb)(sql, params)
            try:
                rows = cursor.fetchall() if cursor.description else []
                return Rows(rows, cursor.lastrowid, cursor.rowcount)
            finally:
                cursor.close()

        if sql in MAY_WAIT:
            return await self.db._execute(run)
        return run()
