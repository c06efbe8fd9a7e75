"""A server's settings in the database (SQLite and PostgreSQL), read through the cache every
process keeps: a change reaches every other process within 15 s, through the counter it reads at
most once per interval; and the purge of a server the bot left takes its rows and no other."""

from __future__ import annotations

import json

import pytest

from bot.core.config import Config
from bot.core.errors import UserError
from bot.storage.store import Seat, Store
from bot.tables.server_settings import INTERVAL, ServerSettings


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Counting:
    """The rows of a store, counting how often the counter is read."""

    def __init__(self, rows) -> None:
        self.rows = rows
        self.version_reads = 0

    def __getattr__(self, name):
        return getattr(self.rows, name)

    async def version(self) -> int:
        self.version_reads += 1
        return await self.rows.version()


async def test_settings_are_stored_per_server_with_their_defaults(database):
    store = await Store.open(database)
    try:
        settings = ServerSettings(store.servers, Config(), now=Clock())
        fresh = await settings.of(1)
        assert fresh.chosen == frozenset() and (fresh.language, fresh.clock, fresh.web) == (None, None, True)
        changed = await settings.change(1, {"language": "ja", "clock": None, "table_channels": [30, 20, 30]})
        assert (changed.language, changed.clock, changed.table_channels) == ("ja", None, (20, 30))
        assert changed.chosen == {"language", "clock", "table_channels"}, "no clock, chosen"
        assert (await settings.of(2)).chosen == frozenset(), "another server is untouched"
        for bad in ({"clock": 42}, {"language": "fr"}, {"table_channels": []}, {"web": "yes"}, {"colour": 1}):
            with pytest.raises(UserError):
                await settings.change(1, bad)
        with pytest.raises(UserError):
            await settings.change(1, {}, ["colour"])
        after = await settings.change(1, {"web": False}, ["language"])
        assert (after.language, after.web, after.clock) == (None, False, None)
        assert after.chosen == {"clock", "table_channels", "web"}
        assert await store.servers.version() == 2, "one raise per change; refusals change nothing"
        # A value stored by an older version that is no longer valid reads as the default.
        await store.db.execute(
            "INSERT INTO server_settings (guild_id, name, value) VALUES (?, ?, ?)", (3, "clock", json.dumps(42))
        )
        assert (await settings.of(3)).chosen == frozenset()
    finally:
        await store.close()


async def test_a_change_in_one_process_reaches_the_other_within_the_interval(pg_cluster):
    from tests.support.postgres import fresh_database

    url = await fresh_database(pg_cluster.url)
    stores = [await Store.open(url), await Store.open(url)]
    try:
        clock = Clock()
        rows = Counting(stores[1].servers)
        here = ServerSettings(stores[0].servers, Config(), now=clock)
        there = ServerSettings(rows, Config(), now=clock)
        assert (await there.of(7)).language is None  # read, and kept
        await here.change(7, {"language": "ja", "organizer_role": 99})
        assert (await here.of(7)).language == "ja", "the process that changed it sees it at once"
        clock.now += INTERVAL - 0.5
        assert (await there.of(7)).language is None, "the other reads from memory meanwhile"
        clock.now += 0.5
        assert (await there.of(7)).organizer_role == 99, "and follows the counter once the interval is over"
        reads = rows.version_reads
        for _ in range(200):  # 20 s of reads
            await there.of(7)
            clock.now += 0.1
        assert rows.version_reads == reads + 1, "at most one read of the counter per interval"
        # Changes from both processes, interleaved: neither loses the other's.
        await there.change(7, {"web": False})
        await here.change(8, {"thread_pings": False})
        clock.now += INTERVAL
        for settings in (here, there):
            assert (await settings.of(7)).web is False and (await settings.of(8)).thread_pings is False
            assert (await settings.of(7)).language == "ja"
    finally:
        for store in stores:
            await store.close()


async def filled_server(store: Store, guild_id: int) -> int:
    table_id = await store.create_table(
        game="donguri", guild_id=guild_id, channel_id=guild_id * 10, host_id=1, status="running", size=3,
        options={}, language="en",
    )
    await store.set_seats(table_id, [Seat(0, 1, "a"), Seat(1, 2, "b"), Seat(2, None, "computer:1")])
    await store.append_actions(table_id, 0, [(0, "x", False)])
    await store.db.execute(
        "INSERT INTO tournaments (guild_id, channel_id, organizer_id, name, game, format, rounds, table_size,"
        " points, clock, on_timeout, seed, status, created_at, updated_at)"
        " VALUES (?, 1, 1, 'Cup', 'donguri', 'swiss', 3, 3, '[3,1,0]', 60, 'end', 1, 'running', 'x', 'x')",
        (guild_id,),
    )
    await store.db.execute(
        "INSERT INTO ratings (guild_id, game, user_id, name, mu, sigma) VALUES (?, 'donguri', 1, 'a', 25, 8)",
        (guild_id,),
    )
    await store.servers.change(guild_id, {"language": "ja"})
    return table_id


async def test_the_purge_takes_one_servers_rows_and_no_other(database):
    store = await Store.open(database)
    try:
        gone, kept = await filled_server(store, 1), await filled_server(store, 2)
        before = await store.servers.holds(2)
        await store.servers.left(1, at=100.0)
        await store.servers.left(2, at=100.0)
        assert await store.servers.returned(2), "the bot came back to server 2"
        assert await store.servers.left_before(100.0) == [] and await store.servers.left_before(101.0) == [1]
        assert not await store.servers.purge(2, before=101.0), "a server the bot is in again is never purged"
        assert await store.servers.purge(1, before=101.0)
        assert set((await store.servers.holds(1)).values()) == {0}
        assert await store.get_table(gone) is None
        assert await store.actions(gone) == [] and await store.db.fetchval(
            "SELECT COUNT(*) FROM seats WHERE table_id = ?", (gone,)
        ) == 0, "what hangs off a table goes with it"
        assert await store.servers.holds(2) == before and await store.get_table(kept) is not None
        assert not await store.servers.purge(1, before=101.0), "purged once"
    finally:
        await store.close()
