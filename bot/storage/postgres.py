"""The PostgreSQL database (``database.Database``, through asyncpg), over a pool of connections.

Several bot processes may share one PostgreSQL database, so coordination lives in the database:

* ``transaction()`` works as with SQLite, but each holds a pooled connection of its own, so moves
  at different tables run side by side; a statement outside one runs on any pooled connection and
  commits on its own;
* ``table_lock(id)``: a transaction holding ``pg_advisory_xact_lock`` for one game table, so two
  processes getting clicks for the same table apply them one after the other (each re-reads the
  table and checks its version under the lock);
* ``mutex(ns, key)``: a session advisory lock (tournament rounds), waited for;
* ``lease(ns, key)``: a session advisory lock tried once (a table's Discord delivery): one process
  at a time delivers a table; a process that finds it taken tries again a little later.

A crashed process's locks go with its connections, so nothing needs cleaning up after a crash.

Every lease of a process is held by one connection of its own (``_locker``), never by a pooled
connection for the time of a pass: a pass holding a pooled connection while it waited for another
one to run its statements wedged the process once as many passes ran as the pool had connections
(24 tables delivered at once, 20 connections), and every click it got after that was deferred
and never answered. A session takes its own lock again without waiting, so the keys it holds are
kept here too, and a second lease of one key in the process is refused as another process's would be.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextvars import ContextVar
from typing import Any, TypeAlias, TypeVar

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from bot.storage.database import IntegrityError, Params, Row
from bot.storage.dialect import POSTGRESQL, numbered
from bot.storage.locks import MIGRATE, TABLE

T = TypeVar("T")
#: A connection of the pool, as ``Pool.acquire`` hands it out.
Conn: TypeAlias = "PoolConnectionProxy[asyncpg.Record]"

__all__ = ["IntegrityError", "PostgresDatabase"]


def _rowcount(status: str) -> int:
    """The rows a statement changed, from its status (``UPDATE 3``, ``INSERT 0 1``)."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else -1


class PostgresDatabase:
    dialect = POSTGRESQL
    shared = True  # several processes may use the database at once

    def __init__(self, pool: asyncpg.Pool[asyncpg.Record]) -> None:
        self.pool = pool
        self.rolled_back: list[Callable[[], None]] = []  # nothing is kept in memory on a shared database
        #: (connection, task) of the transaction the current task runs in. The task is kept because a
        #: task started inside a transaction inherits this variable, but not the transaction.
        self._owner: ContextVar[tuple[Conn, asyncio.Task[Any] | None] | None] = ContextVar(
            f"pg_owner_{id(self)}", default=None
        )
        self._locker: Conn | None = None  # the connection holding this process's leases
        self._locking = asyncio.Lock()  # one statement at a time on it
        self._leased: set[tuple[int, int]] = set()

    @classmethod
    async def open(cls, url: str, size: int = 20) -> PostgresDatabase:
        pool = await asyncpg.create_pool(url, min_size=2, max_size=size, command_timeout=60)
        return cls(pool)

    async def close(self) -> None:
        await self._drop_locker()
        await self.pool.close()

    # ---- statements -----------------------------------------------------------------------------
    async def fetch(self, sql: str, params: Params = ()) -> list[Row]:
        return list(await self._on(lambda conn: conn.fetch(numbered(sql), *params)))

    async def fetchrow(self, sql: str, params: Params = ()) -> Row | None:
        return await self._on(lambda conn: conn.fetchrow(numbered(sql), *params))

    async def fetchval(self, sql: str, params: Params = ()) -> Any:
        return await self._on(lambda conn: conn.fetchval(numbered(sql), *params))

    async def execute(self, sql: str, params: Params = ()) -> int:
        status: str = await self._on(lambda conn: conn.execute(numbered(sql), *params))
        return _rowcount(status)

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        """One statement per row; asyncpg runs them in a transaction of their own outside one."""
        args = [tuple(r) for r in rows]
        if args:
            await self._on(lambda conn: conn.executemany(numbered(sql), args))

    async def _on(self, run: Callable[[Conn], Awaitable[T]]) -> T:
        """``run`` on the current transaction's connection, or on any pooled one; a constraint
        violation raised as the ``IntegrityError`` callers catch for SQLite too."""
        try:
            conn = self._held()
            if conn is not None:
                return await run(conn)
            async with self.pool.acquire() as conn:
                return await run(conn)
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise IntegrityError(str(exc)) from exc

    # ---- transactions ---------------------------------------------------------------------------
    def _held(self) -> Conn | None:
        owner = self._owner.get()
        if owner is not None and owner[1] is asyncio.current_task():
            return owner[0]
        return None

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        if self._held() is not None:
            yield
            return
        async with self.pool.acquire() as conn:
            token = self._owner.set((conn, asyncio.current_task()))
            try:
                async with conn.transaction():
                    yield
            finally:
                self._owner.reset(token)

    # ---- coordination ---------------------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def table_lock(self, table_id: int) -> AsyncIterator[None]:
        """Everything inside is one transaction holding the table's lock across all processes."""
        async with self.transaction():
            await self.xact_lock(TABLE, table_id)
            yield

    async def xact_lock(self, namespace: int, key: int) -> None:
        """Inside a transaction: hold a lock on (namespace, key) across processes until it ends."""
        conn = self._held()
        if conn is None:
            raise RuntimeError("xact_lock outside a transaction")
        await conn.execute("SELECT pg_advisory_xact_lock($1, $2)", namespace, key)

    @contextlib.asynccontextmanager
    async def mutex(self, namespace: int, key: int) -> AsyncIterator[None]:
        async with self.pool.acquire() as conn:
            await conn.execute("SELECT pg_advisory_lock($1, $2)", namespace, key)
            try:
                yield
            finally:
                await conn.execute("SELECT pg_advisory_unlock($1, $2)", namespace, key)

    @contextlib.asynccontextmanager
    async def lease(self, namespace: int, key: int) -> AsyncIterator[bool]:
        """True inside when this process holds the lease; False when another process (or another
        task of this one) does."""
        name = (namespace, key)
        if name in self._leased:
            yield False
            return
        self._leased.add(name)
        try:
            got: bool = await self._on_locker("SELECT pg_try_advisory_lock($1, $2)", namespace, key)
        except BaseException:
            self._leased.discard(name)
            raise
        if not got:
            self._leased.discard(name)
            yield False
            return
        try:
            yield True
        finally:
            # Shielded: a lease left locked by a cancelled unlock would keep every process from the table.
            await asyncio.shield(self._unlock(name))

    async def _unlock(self, name: tuple[int, int]) -> None:
        try:
            await self._on_locker("SELECT pg_advisory_unlock($1, $2)", *name)
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError):
            pass  # the connection is gone, and its locks with it
        finally:
            self._leased.discard(name)

    async def _on_locker(self, sql: str, *args: Any) -> Any:
        """A statement on the connection that holds the leases (taken from the pool once)."""
        async with self._locking:
            if self._locker is None or self._locker.is_closed():
                self._locker = await self.pool.acquire()
            try:
                return await self._locker.fetchval(sql, *args)
            except (asyncpg.InterfaceError, asyncpg.ConnectionDoesNotExistError, OSError):
                await self._drop_locker()  # its leases went with it; the next one takes a new connection
                raise

    async def _drop_locker(self) -> None:
        locker, self._locker = self._locker, None
        if locker is not None:
            with contextlib.suppress(Exception):
                await self.pool.release(locker)

    # ---- schema ---------------------------------------------------------------------------------
    async def schema_version(self) -> int:
        async with self.pool.acquire() as conn:
            await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")
            value: int | None = await conn.fetchval("SELECT MAX(version) FROM schema_version")
        return value or 0

    async def apply_migration(self, number: int, script: str) -> bool:
        """Apply one migration unless another process already did (checked under a lock)."""
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1, 0)", MIGRATE)
            done: int = await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version")
            if done >= number:
                return False
            await conn.execute(script)
            await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", number)
        return True
