"""``tabletop-bot migrate-db --to postgresql://… [--from data/tabletop.sqlite3]``: move an SQLite
database to PostgreSQL, for running several processes.

Stop the bot first. Both databases are brought to the latest schema, then every row is copied in
one transaction, tables in an order their foreign keys allow; each id sequence is set past the
largest id copied, so new rows get fresh ids; the row counts are compared at the end. A target
that already holds rows is refused (``--force`` adds to it anyway, for a retry the operator has
checked).
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from bot.storage.dialect import is_url
from bot.storage.store import Store

BATCH = 2000


def copy_order(db: sqlite3.Connection) -> list[str]:
    """The schema's tables, each after the tables its foreign keys point to."""
    names = [
        r[0]
        for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    ]
    needs = {n: {r[2] for r in db.execute(f"PRAGMA foreign_key_list('{n}')")} - {n} for n in names}
    order: list[str] = []
    while len(order) < len(names):
        ready = sorted(n for n in names if n not in order and needs[n] <= set(order))
        if not ready:
            raise RuntimeError(f"foreign keys form a cycle among {sorted(set(names) - set(order))}")
        order += ready
    return order


def converter(kind: str) -> Callable[[Any], Any]:
    """A value as the PostgreSQL column's type wants it (SQLite keeps what it was given)."""
    if kind in ("bigint", "integer", "smallint"):
        return lambda v: None if v is None else int(v)
    if kind in ("double precision", "real", "numeric"):
        return lambda v: None if v is None else float(v)
    return lambda v: None if v is None else str(v)


async def migrate(source: str, target: str, force: bool = False, out: TextIO = sys.stdout) -> dict[str, int]:
    """Copy every row of the SQLite database ``source`` into the PostgreSQL database ``target``;
    returns the rows copied per table."""
    if not is_url(target):
        raise SystemExit("migrate-db: --to must be a postgresql:// URL")
    if is_url(source):
        raise SystemExit("migrate-db: --from must be an SQLite file")
    if not Path(source).is_file():
        raise SystemExit(f"migrate-db: no SQLite database at {source}")
    src_store = await Store.open(source)  # the source, too, at the latest schema
    await src_store.close()
    dst = await Store.open(target)
    src = sqlite3.connect(source)
    copied: dict[str, int] = {}
    try:
        order = copy_order(src)
        from bot.storage.postgres import PostgresDatabase  # the copy uses asyncpg's own COPY

        assert isinstance(dst.db, PostgresDatabase)
        pool = dst.db.pool
        async with pool.acquire() as conn:
            filled = [t for t in order if await conn.fetchval(f"SELECT EXISTS (SELECT 1 FROM {t})")]
            if filled and not force:
                raise SystemExit(f"migrate-db: the target already holds rows in {', '.join(filled)} (--force adds to them)")
            async with conn.transaction():
                for table in order:
                    types = {
                        r["column_name"]: r["data_type"]
                        for r in await conn.fetch(
                            "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = $1",
                            table,
                        )
                    }
                    cursor = src.execute(f"SELECT * FROM {table}")
                    columns = [d[0] for d in cursor.description]
                    convert = [converter(types.get(c, "text")) for c in columns]
                    copied[table] = 0
                    while rows := cursor.fetchmany(BATCH):
                        records: list[tuple[Any, ...]] = [
                            tuple(f(v) for f, v in zip(convert, row, strict=True)) for row in rows
                        ]
                        await conn.copy_records_to_table(table, records=records, columns=columns)
                        copied[table] += len(records)
                    if "id" in columns:
                        sequence = await conn.fetchval("SELECT pg_get_serial_sequence($1, 'id')", table)
                        if sequence:
                            await conn.execute(
                                f"SELECT setval($1, COALESCE((SELECT MAX(id) FROM {table}), 1),"
                                f" (SELECT MAX(id) FROM {table}) IS NOT NULL)",
                                sequence,
                            )
                    print(f"{table}: {copied[table]} rows", file=out)
            for table in order:
                have = await conn.fetchval(f"SELECT COUNT(*) FROM {table}")
                want = src.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
                if have < want:
                    raise SystemExit(f"migrate-db: {table} has {have} rows in PostgreSQL, {want} in SQLite")
    finally:
        src.close()
        await dst.close()
    print(f"migrate-db: copied {sum(copied.values())} rows in {len(copied)} tables", file=out)
    return copied


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tabletop-bot migrate-db", description=__doc__)
    parser.add_argument("--from", dest="source", default="data/tabletop.sqlite3", help="the SQLite file")
    parser.add_argument("--to", dest="target", required=True, help="a postgresql:// URL")
    parser.add_argument("--force", action="store_true", help="copy even into a target that holds rows")
    args = parser.parse_args(argv)
    asyncio.run(migrate(args.source, args.target, args.force))
    return 0
