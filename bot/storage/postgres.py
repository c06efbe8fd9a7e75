"""The PostgreSQL driver (asyncpg): the same interface as ``connection.Connection``, over a pool.

Several bot processes may share one PostgreSQL database, so coordination lives in the database:

* ``transaction()`` and implicit write transactions work as with SQLite (a task's writes outside a
  transaction open one it owns until ``commit()``), but each holds a pooled connection of its own,
  so moves at different tables run side by side;
* ``table_lock(id)``: a transaction holding ``pg_advisory_xact_lock`` for one game table, so two
  processes getting clicks for the same table apply them one after the other (each re-reads the
  table and checks its version under the lock);
* ``mutex(ns, key)``: a session advisory lock (tournament rounds), waited for;
* ``lease(ns, key)``: a session advisory lock tried once (a table's Discord delivery): one process
  at a time delivers a table; a process that finds it taken tries again a little later.

A crashed process's locks go with its connections, so nothing needs cleaning up after a crash.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Iterable
from contextvars import ContextVar
from typing import Any

import asyncpg

from bot.storage.connection import WRITES, Rows, _Pending
from bot.storage.dialect import POSTGRESQL, numbered
from bot.storage.locks import MIGRATE, TABLE

RETURNS = ("SELECT", "WITH", "VALUES", "SHOW")


class IntegrityError(sqlite3.IntegrityError):
    """A constraint violation, the same class callers already catch for SQLite."""


def _rowcount(status: str) -> int:
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else -1


class PgConnection:
    dialect = POSTGRESQL
    shared = True  # several processes may use the database at once

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool
        #: (connection, task) of the transaction the current task runs in. The task is kept because a
        #: task started inside a transaction inherits this variable, but not the transaction.
        self._owner: ContextVar[tuple[asyncpg.Connection, asyncio.Task | None] | None] = ContextVar(
            f"pg_owner_{id(self)}", default=None
        )
        self._implicit: dict[asyncio.Task, tuple[asyncpg.Connection, Any]] = {}
        self.commits = 0

    @classmethod
    async def open(cls, url: str, size: int = 20) -> PgConnection:
        pool = await asyncpg.create_pool(url, min_size=2, max_size=size, command_timeout=60)
        return cls(pool)

    async def close(self) -> None:
        for task in list(self._implicit):
            await self._end_implicit(task, "rollback")
        await self.pool.close()

    # ---- transactions ---------------------------------------------------------------------------
    def _held(self) -> asyncpg.Connection | None:
        owner = self._owner.get()
        if owner is not None and owner[1] is asyncio.current_task():
            return owner[0]
        held = self._implicit.get(asyncio.current_task())  # type: ignore[arg-type]
        return held[0] if held else None

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[PgConnection]:
        if self._held() is not None:
            yield self
            return
        async with self.pool.acquire() as conn:
            token = self._owner.set((conn, asyncio.current_task()))
            try:
                async with conn.transaction():
                    yield self
                self.commits += 1
            finally:
                self._owner.reset(token)

    @contextlib.asynccontextmanager
    async def table_lock(self, table_id: int) -> AsyncIterator[None]:
        """Everything inside is one transaction holding the table's lock across all processes."""
        async with self.transaction():
            await self._held().execute("SELECT pg_advisory_xact_lock($1, $2)", TABLE, table_id)
            yield

    async def xact_lock(self, namespace: int, key: int) -> None:
        """Inside a transaction: hold a lock on (namespace, key) across processes until it ends."""
        await self._held().execute("SELECT pg_advisory_xact_lock($1, $2)", namespace, key)

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
        """True inside when this process holds the lease; False when another process does."""
        async with self.pool.acquire() as conn:
            got = await conn.fetchval("SELECT pg_try_advisory_lock($1, $2)", namespace, key)
            try:
                yield got
            finally:
                if got:
                    await conn.execute("SELECT pg_advisory_unlock($1, $2)", namespace, key)

    async def _begin_implicit(self) -> asyncpg.Connection:
        task = asyncio.current_task()
        conn = await self.pool.acquire()
        tx = conn.transaction()
        try:
            await tx.start()
        except BaseException:
            await self.pool.release(conn)
            raise
        self._implicit[task] = (conn, tx)
        if task is not None:
            task.add_done_callback(self._abandoned)
        return conn

    def _abandoned(self, task: asyncio.Task) -> None:
        if task in self._implicit:
            asyncio.get_running_loop().create_task(self._end_implicit(task, "rollback"))

    async def _end_implicit(self, task: asyncio.Task | None, verb: str) -> None:
        conn, tx = self._implicit.pop(task)  # type: ignore[arg-type]
        if task is not None and not task.done():
            task.remove_done_callback(self._abandoned)
        try:
            await getattr(tx, verb)()
            if verb == "commit":
                self.commits += 1
        finally:
            await self.pool.release(conn)

    async def commit(self) -> None:
        task = asyncio.current_task()
        if task in self._implicit:
            await self._end_implicit(task, "commit")

    async def rollback(self) -> None:
        task = asyncio.current_task()
        if task in self._implicit:
            await self._end_implicit(task, "rollback")

    # ---- statements -----------------------------------------------------------------------------
    def execute(self, sql: str, params: Iterable[Any] = ()) -> _Pending:
        return _Pending(self._run("execute", sql, params))

    def executemany(self, sql: str, rows: Iterable[Iterable[Any]]) -> _Pending:
        return _Pending(self._run("executemany", sql, [tuple(r) for r in rows]))

    async def executescript(self, script: str) -> None:
        conn = self._held()
        if conn is not None:
            await conn.execute(script)
            return
        async with self.pool.acquire() as conn:
            await conn.execute(script)

    async def _run(self, verb: str, sql: str, params: Any) -> Rows:
        conn = self._held()
        if conn is None and sql.lstrip()[:7].upper().startswith(WRITES):
            conn = await self._begin_implicit()
        if conn is not None:
            return await self._statement(conn, verb, sql, params)
        async with self.pool.acquire() as conn:
            return await self._statement(conn, verb, sql, params)

    @staticmethod
    async def _statement(conn: asyncpg.Connection, verb: str, sql: str, params: Any) -> Rows:
        query = numbered(sql)
        try:
            if verb == "executemany":
                if params:
                    await conn.executemany(query, params)
                return Rows([], None, len(params))
            head = sql.lstrip()[:6].upper()
            if head.startswith(RETURNS) or "RETURNING" in sql.upper():
                rows = await conn.fetch(query, *params)
                return Rows(rows, None, len(rows))
            status = await conn.execute(query, *params)
            return Rows([], None, _rowcount(status))
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise IntegrityError(str(exc)) from exc

    # ---- schema ---------------------------------------------------------------------------------
    async def schema_version(self) -> int:
        async with self.pool.acquire() as conn:
            await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")
            value = await conn.fetchval("SELECT MAX(version) FROM schema_version")
        return value or 0

    async def apply_migration(self, number: int, script: str) -> bool:
        """Apply one migration unless another process already did (checked under a lock)."""
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1, 0)", MIGRATE)
            done = await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version")
            if done >= number:
                return False
            await conn.execute(script)
            await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", number)
        return True
