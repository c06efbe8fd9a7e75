"""A setting changed in one process takes effect in another within 15 s, on PostgreSQL: the real
bot in SimCord is one process; a second store with its own settings cache, on the same database,
stands for the other (as in ``test_shared_database.py``). Both ways: a change made there opens
this bot's next tables in the new language once 15 s have passed; /settings used here reaches
the other process within 15 s of its clock."""

from __future__ import annotations

import pytest

from bot.core.config import Config
from bot.storage.store import Store
from bot.tables.server_settings import INTERVAL, ServerSettings
from tests.support.servers import server


@pytest.fixture
async def shared_database(pg_cluster, bot_config):
    """The bot's database: a fresh PostgreSQL database (before the bot starts)."""
    from tests.support.postgres import fresh_database

    bot_config.database = await fresh_database(pg_cluster.url)
    return bot_config.database


async def test_a_setting_changed_in_one_process_takes_effect_in_the_other_within_15_s(
    shared_database, simcord_env, simcord_bot
):
    other_store = await Store.open(shared_database)
    try:
        moment = [0.0]
        other = ServerSettings(other_store.servers, Config(), now=lambda: moment[0])
        srv = server(simcord_env)
        alice = srv.members[0]

        async def open_and_read_language() -> str:
            await alice.slash(srv.channel, "othello new")
            newest = max(await simcord_bot.store.tables_with_status("lobby"), key=lambda t: t.id)
            await simcord_bot.lobby.cancel(newest.id, alice.id)
            return newest.language

        assert await open_and_read_language() == "en"  # this process has read the server's settings
        await other.change(srv.guild.id, {"language": "ja"})  # ... and the other changes them
        # Opening and cancelling a table moves the bot's clock on a few seconds of its own.
        await simcord_env.advance_time(INTERVAL / 2)
        assert await open_and_read_language() == "en", "within the interval: as read before"
        await simcord_env.advance_time(INTERVAL / 2)
        assert await open_and_read_language() == "ja", "15 s after the change at most, it applies here"

        # The other way: an admin's /settings here, the other process's next read after 15 s.
        assert (await other.of(srv.guild.id)).clock is None
        await srv.settings(clock=3600)
        moment[0] += INTERVAL - 1
        assert (await other.of(srv.guild.id)).clock is None
        moment[0] += 1
        assert (await other.of(srv.guild.id)).clock == 3600
    finally:
        await other_store.close()
