"""The storage interface (``bot/storage/database.py``) keeps the same promises on SQLite and
PostgreSQL: a statement outside a transaction commits on its own, a transaction commits whole or
not at all (a nested one with it), and nobody reads half of another's transaction."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bot.storage.store import Store
from tests.support.patience import patient


@pytest.fixture
async def store(database):
    store = await Store.open(database)
    yield store
    await store.close()


async def channels(store: Store) -> dict[int, int]:
    return {r["user_id"]: r["channel_id"] for r in await store.db.fetch("SELECT * FROM dm_channels")}


async def test_a_write_outside_a_transaction_is_committed_at_once(store, database):
    """No commit is ever called: another connection sees the row as soon as the statement returns."""
    db = store.db
    assert await db.execute("INSERT INTO dm_channels (user_id, channel_id) VALUES (?, ?)", (1, 10)) == 1
    await db.executemany("INSERT INTO dm_channels (user_id, channel_id) VALUES (?, ?)", [(2, 20), (3, 30)])
    other = await Store.open(database)
    try:
        assert await channels(other) == {1: 10, 2: 20, 3: 30}
    finally:
        await other.close()


async def test_execute_answers_the_rows_it_changed_and_fetch_reads_a_write_that_returns_rows(store):
    db = store.db
    async with db.transaction():
        table_id = await db.fetchval(
            "INSERT INTO game_tables (game, channel_id, host_id, status, size, options, language, dirty,"
            " created_at, updated_at) VALUES ('donguri', 5, 7, 'lobby', 3, '{}', 'en', 0, 'a', 'a') RETURNING id"
        )
    assert (await store.get_table(table_id)).host_id == 7
    await db.executemany("INSERT INTO dm_channels (user_id, channel_id) VALUES (?, ?)", [(1, 10), (2, 20), (3, 30)])
    assert await db.execute("UPDATE dm_channels SET channel_id = 0 WHERE user_id < ?", (3,)) == 2
    assert await db.execute("DELETE FROM dm_channels WHERE user_id = ?", (99,)) == 0
    row = await db.fetchrow("SELECT user_id, channel_id FROM dm_channels WHERE user_id = ?", (3,))
    assert (row["user_id"], row[1], dict(row)) == (3, 30, {"user_id": 3, "channel_id": 30})
    assert await db.fetchrow("SELECT * FROM dm_channels WHERE user_id = ?", (99,)) is None
    assert await db.fetchval("SELECT channel_id FROM dm_channels WHERE user_id = ?", (99,)) is None


async def test_a_transaction_that_fails_leaves_nothing_and_a_nested_one_goes_with_it(store):
    db = store.db
    with pytest.raises(RuntimeError):
        async with db.transaction():
            await db.execute("INSERT INTO dm_channels (user_id, channel_id) VALUES (?, ?)", (1, 10))
            async with db.transaction():  # joins the outer one: its work is undone with it
                await db.execute("INSERT INTO dm_channels (user_id, channel_id) VALUES (?, ?)", (2, 20))
            raise RuntimeError("the move failed")
    assert await channels(store) == {}
    async with db.transaction():
        await db.execute("INSERT INTO dm_channels (user_id, channel_id) VALUES (?, ?)", (1, 10))
        async with db.transaction():
            await db.execute("INSERT INTO dm_channels (user_id, channel_id) VALUES (?, ?)", (2, 20))
    assert await channels(store) == {1: 10, 2: 20}


async def test_executemany_writes_all_rows_or_none(store):
    """A taken key among the rows raises the IntegrityError callers catch on either database."""
    db = store.db
    await db.execute("INSERT INTO dm_channels (user_id, channel_id) VALUES (?, ?)", (2, 20))
    with pytest.raises(sqlite3.IntegrityError):
        await db.executemany("INSERT INTO dm_channels (user_id, channel_id) VALUES (?, ?)", [(1, 10), (2, 21)])
    with pytest.raises(sqlite3.IntegrityError):
        await db.execute("INSERT INTO dm_channels (user_id, channel_id) VALUES (?, ?)", (2, 22))
    assert await channels(store) == {2: 20}
    await db.execute("INSERT INTO dm_channels (user_id, channel_id) VALUES (?, ?)", (3, 30))
    assert await channels(store) == {2: 20, 3: 30}, "a failed statement left no transaction open"


async def test_nobody_reads_half_of_another_task_s_transaction(store):
    """While one task's transaction has written one of its two rows, reads and writes of other
    tasks see neither or both (SQLite makes them wait; PostgreSQL shows them the state before)."""
    db = store.db
    halfway = asyncio.Event()
    seen: list[int] = []

    async def mover() -> None:
        async with db.transaction():
            await db.execute("INSERT INTO dm_channels (user_id, channel_id) VALUES (?, ?)", (1, 10))
            halfway.set()
            await asyncio.sleep(0.05)
            await db.execute("INSERT INTO dm_channels (user_id, channel_id) VALUES (?, ?)", (2, 20))

    async def reader() -> None:
        await halfway.wait()
        seen.append(await db.fetchval("SELECT COUNT(*) FROM dm_channels"))
        await db.execute("INSERT INTO dm_channels (user_id, channel_id) VALUES (?, ?)", (3, 30))

    await asyncio.gather(mover(), reader())
    assert seen[0] in (0, 2)
    assert await channels(store) == {1: 10, 2: 20, 3: 30}


async def test_a_task_started_inside_a_transaction_runs_its_own_not_the_one_open_when_it_writes(store):
    """A task inherits its parent's context: started inside a transaction, it must still wait for
    the lock and commit on its own, not write into whichever transaction is open when it runs (a
    background write begun during a move, once that move has committed)."""
    db = store.db
    parent_done, other_open, child_done = asyncio.Event(), asyncio.Event(), asyncio.Event()

    async def child() -> None:
        await parent_done.wait()
        await other_open.wait()
        async with db.transaction():
            await db.execute("INSERT INTO dm_channels (user_id, channel_id) VALUES (?, ?)", (2, 20))
        child_done.set()

    async def other() -> None:
        await parent_done.wait()
        with pytest.raises(RuntimeError):
            async with db.transaction():
                await db.execute("INSERT INTO dm_channels (user_id, channel_id) VALUES (?, ?)", (3, 30))
                other_open.set()
                await asyncio.sleep(0.05)  # the child runs now, if nothing holds it back
                raise RuntimeError("rolled back")

    async with db.transaction():
        await db.execute("INSERT INTO dm_channels (user_id, channel_id) VALUES (?, ?)", (1, 10))
        started = asyncio.get_running_loop().create_task(child())
    others = asyncio.get_running_loop().create_task(other())
    parent_done.set()
    await asyncio.wait_for(asyncio.gather(started, others), patient(10))
    assert child_done.is_set()
    assert await channels(store) == {1: 10, 2: 20}


async def test_leases_held_at_once_take_no_pooled_connection_and_each_key_is_held_once(pg_cluster):
    """A process delivering more tables at once than its pool has connections, each pass running
    its statements: with each lease on a pooled connection of its own, the passes waited forever
    for the connections their leases held (issue 50). A key is held once in the process, as
    across processes."""
    from bot.storage.postgres import PostgresDatabase
    from tests.support.postgres import fresh_database

    url = await fresh_database(pg_cluster.url)
    db, other = await PostgresDatabase.open(url, size=3), await PostgresDatabase.open(url, size=2)
    try:
        inside = asyncio.Event()
        held = 0

        async def deliver(key: int) -> bool:
            nonlocal held
            async with db.lease(3, key) as mine:
                held += 1
                if held == 10:
                    inside.set()
                await inside.wait()  # all ten leases held at once
                await db.fetchval("SELECT 1")  # a pass's statement: a pooled connection
                return mine

        assert await asyncio.wait_for(asyncio.gather(*(deliver(k) for k in range(10))), 30) == [True] * 10
        async with db.lease(3, 1) as mine:
            async with db.lease(3, 1) as again, other.lease(3, 1) as theirs:
                assert (mine, again, theirs) == (True, False, False)
        async with other.lease(3, 1) as theirs:
            assert theirs, "released by the process that held it"
    finally:
        await db.close()
        await other.close()
