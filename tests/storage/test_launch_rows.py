"""Where each member launched the Activity from (migration 035), on SQLite and PostgreSQL: one row
per member, server and channel, the latest press kept, Discord's 64-bit ids whole, and the row
gone with its table."""

from __future__ import annotations

import pytest

from bot.storage.store import Store

GUILD, CHANNEL, OTHER = 1456074443980800015, 1456074443980800018, 1456074443980800099
ALICE, BOB = 1456074443980800020, 1456074443980800021


@pytest.fixture
async def store(database):
    store = await Store.open(database)
    yield store
    await store.close()


async def table(store: Store) -> int:
    return await store.create_table(
        game="donguri", guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE, status="running", size=3,
        language="en", dirty=0,
    )


async def test_the_latest_press_in_a_channel_is_the_members_table(store):
    first, second = await table(store), await table(store)
    assert await store.launched_table(ALICE, GUILD, CHANNEL) is None, "never pressed"
    await store.launches.remember(ALICE, GUILD, CHANNEL, first, 100.0)
    await store.launches.remember(BOB, GUILD, CHANNEL, second, 101.0)
    await store.launches.remember(ALICE, GUILD, OTHER, second, 102.0)  # a thread's table, under its channel
    assert await store.launched_table(ALICE, GUILD, CHANNEL) == first
    assert await store.launched_table(BOB, GUILD, CHANNEL) == second, "each member their own"
    assert await store.launched_table(ALICE, GUILD, OTHER) == second, "each channel its own"
    await store.launches.remember(ALICE, GUILD, CHANNEL, second, 103.0)
    assert await store.launched_table(ALICE, GUILD, CHANNEL) == second, "the latest press"
    assert await store.launched_table(ALICE, GUILD + 1, CHANNEL) is None, "another server's is not this one's"


async def test_a_launch_goes_with_its_table(store):
    gone, kept = await table(store), await table(store)
    await store.launches.remember(ALICE, GUILD, CHANNEL, gone, 100.0)
    await store.launches.remember(BOB, GUILD, CHANNEL, kept, 100.0)
    await store.db.execute("DELETE FROM game_tables WHERE id = ?", (gone,))  # as a server's purge does
    assert await store.launched_table(ALICE, GUILD, CHANNEL) is None
    assert await store.launched_table(BOB, GUILD, CHANNEL) == kept
