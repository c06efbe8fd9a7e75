"""What one indexed read costs through aiosqlite's public API and on its sqlite3 connection
directly, as ``bot/storage/sqlite.py`` runs it: ``python benchmarks/sqlite_statements.py [--reads N]``.

The three ways run side by side on one WAL file of 1,000 rows; it prints the microseconds per read
of each (the reason ``bot/storage/sqlite_thread.py`` reads aiosqlite's private parts).
"""

from __future__ import annotations

import argparse
import asyncio
import pathlib
import sqlite3
import sys
import tempfile
import time

import aiosqlite

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bot.storage.sqlite_thread import raw  # noqa: E402

SQL = "SELECT v FROM t WHERE id = ?"


async def main(reads: int) -> None:
    with tempfile.TemporaryDirectory() as directory:
        db = await aiosqlite.connect(f"{directory}/bench.sqlite3", isolation_level=None, check_same_thread=False)
        db.row_factory = sqlite3.Row
        await db.execute("PRAGMA journal_mode=WAL")
        await db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)")
        await db.executemany("INSERT INTO t (v) VALUES (?)", [(str(n),) for n in range(1000)])

        async def cursor(n: int) -> None:
            async with db.execute(SQL, (n % 1000 + 1,)) as rows:
                await rows.fetchall()

        async def fetchall(n: int) -> None:
            await db.execute_fetchall(SQL, (n % 1000 + 1,))

        conn = raw(db)

        async def direct(n: int) -> None:
            rows = conn.execute(SQL, (n % 1000 + 1,))
            rows.fetchall()
            rows.close()

        for name, read in (("public cursor", cursor), ("public execute_fetchall", fetchall), ("loop thread", direct)):
            started = time.perf_counter()
            for n in range(reads):
                await read(n)
            print(f"{name:>24}: {(time.perf_counter() - started) / reads * 1e6:7.1f} µs per read")
        await db.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--reads", type=int, default=5000)
    asyncio.run(main(parser.parse_args().reads))
