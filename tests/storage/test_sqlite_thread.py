"""aiosqlite's private parts that ``bot/storage/sqlite_thread.py`` reads, as they stand in the
pinned version: an upgrade that renames or changes them fails here, not in production."""

from __future__ import annotations

import asyncio
import re
import sqlite3
import threading
from pathlib import Path

import aiosqlite
import pytest

from bot.storage.sqlite_thread import on_thread, raw

BOT = Path(__file__).resolve().parents[2] / "bot"


async def test_raw_is_the_connection_aiosqlite_runs_its_own_statements_on(tmp_path):
    db = await aiosqlite.connect(tmp_path / "t.sqlite3", isolation_level=None, check_same_thread=False)
    try:
        conn = raw(db)
        assert isinstance(conn, sqlite3.Connection)
        conn.execute("CREATE TABLE t (v INTEGER)").close()
        conn.execute("INSERT INTO t VALUES (7)").close()
        assert await db.execute_fetchall("SELECT v FROM t") == [(7,)]  # aiosqlite's public read sees it
    finally:
        await db.close()
    with pytest.raises(ValueError):
        raw(db)  # closed: sqlite.py's rollback counts on this error


async def test_on_thread_runs_a_call_on_aiosqlite_s_thread_in_the_order_queued(tmp_path):
    db = await aiosqlite.connect(tmp_path / "t.sqlite3", isolation_level=None, check_same_thread=False)
    try:
        loop_thread = threading.get_ident()
        await db.execute("CREATE TABLE t (v INTEGER)")
        insert = asyncio.ensure_future(db.execute("INSERT INTO t VALUES (1)"))
        await asyncio.sleep(0)  # the insert is queued first
        thread, rows = await on_thread(db, lambda: (threading.get_ident(), raw(db).execute("SELECT v FROM t").fetchall()))
        await insert
        assert thread != loop_thread
        assert rows == [(1,)]  # queued after the public insert, so run after it
        with pytest.raises(ZeroDivisionError):
            await on_thread(db, lambda: 1 / 0)  # the call's error comes back to the caller
    finally:
        await db.close()


def test_no_other_module_reads_aiosqlite_s_private_parts():
    readers = [
        path.relative_to(BOT).as_posix()
        for path in BOT.rglob("*.py")
        if re.search(r"\._(conn|execute)\b", path.read_text())
    ]
    assert readers == ["storage/sqlite_thread.py"]
