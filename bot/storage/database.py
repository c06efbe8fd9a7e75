"""What the stores ask of a database, declared once; ``sqlite.py`` and ``postgres.py`` implement it.

The caller says how a statement runs by the method it calls; no implementation reads the SQL to
decide:

* ``fetch``, ``fetchrow``, ``fetchval``: a statement that returns rows (a ``SELECT``, or a write
  with ``RETURNING``);
* ``execute`` (one statement) and ``executemany`` (one statement, many rows): a statement that
  returns none; ``execute`` answers how many rows it changed;
* ``transaction()``: everything inside commits together or not at all; a transaction opened
  inside another one joins it.

Outside a transaction, each statement commits on its own (``executemany`` as one); a write of
several statements belongs in ``async with db.transaction():``. There is no ``commit()``.
Placeholders are ``?``; a driver whose database wants another form translates them.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

#: A statement's parameters, in the order of its ``?`` placeholders.
Params = Sequence[Any]


class Row(Protocol):
    """A row read by name or position (``row["id"]``, ``row[0]``), unpacked, or made a ``dict``:
    what ``sqlite3.Row`` and asyncpg's ``Record`` both offer."""

    def __getitem__(self, key: int | str, /) -> Any: ...

    def keys(self) -> Iterable[str]: ...

    def __iter__(self) -> Iterator[Any]: ...

    def __len__(self) -> int: ...


class IntegrityError(sqlite3.IntegrityError):
    """A constraint was violated. SQLite raises ``sqlite3.IntegrityError`` itself, PostgreSQL this
    subclass of it, so callers catch ``sqlite3.IntegrityError`` on either database."""


class Database(Protocol):
    #: ``dialect.SQLITE`` or ``dialect.POSTGRESQL``: for the few statements written differently.
    dialect: str
    #: Several processes may use the database at once (PostgreSQL), so they coordinate through it.
    shared: bool
    #: Called when a transaction is rolled back: what was kept in memory of its writes is forgotten.
    rolled_back: list[Callable[[], None]]

    # ---- statements -----------------------------------------------------------------------------
    async def fetch(self, sql: str, params: Params = ()) -> list[Row]:
        """Every row the statement returns."""
        ...

    async def fetchrow(self, sql: str, params: Params = ()) -> Row | None:
        """The statement's first row, or None."""
        ...

    async def fetchval(self, sql: str, params: Params = ()) -> Any:
        """The first column of the statement's first row, or None."""
        ...

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run a statement that returns no rows; the number of rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        """Run one statement once per parameter row, all or none of them."""
        ...

    def transaction(self) -> AbstractAsyncContextManager[None]:
        """Everything inside commits together or not at all; inside another transaction, joins it."""
        ...

    # ---- coordination (``locks.py`` names the locks) -------------------------------------------
    def table_lock(self, table_id: int) -> AbstractAsyncContextManager[None]:
        """Mutual exclusion for one game table across processes (with PostgreSQL, a transaction
        holding the table's lock; one process owns an SQLite file, and it is a no-op)."""
        ...

    async def xact_lock(self, namespace: int, key: int) -> None:
        """Inside a transaction: hold the lock (namespace, key) across processes until it ends."""
        ...

    def mutex(self, namespace: int, key: int) -> AbstractAsyncContextManager[None]:
        """Hold the lock (namespace, key) across processes while inside, waiting for it."""
        ...

    def lease(self, namespace: int, key: int) -> AbstractAsyncContextManager[bool]:
        """Try the lock (namespace, key) once: True inside when this process holds it."""
        ...

    # ---- schema ---------------------------------------------------------------------------------
    async def schema_version(self) -> int:
        """The number of the last migration applied (0: none)."""
        ...

    async def apply_migration(self, number: int, script: str) -> bool:
        """Apply migration ``number`` (its text for this database); False when another process did."""
        ...

    async def close(self) -> None: ...
