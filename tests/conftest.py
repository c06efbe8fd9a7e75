"""Cog tests drive the real bot through SimCord, with a fresh SQLite file per test."""

from __future__ import annotations

import pytest
import pytest_asyncio

from bot.app import create_bot
from bot.config import Config


@pytest.fixture
def bot_config(tmp_path) -> Config:
    return Config(token="unused", database=str(tmp_path / "tabletop.sqlite3"))


@pytest_asyncio.fixture
async def bots(bot_config):
    """Every bot a test creates; their databases are closed when the test ends (SimCord does not)."""
    made = []
    yield made
    for bot in made:
        if bot.store is not None:
            await bot.store.close()
            bot.store = None


@pytest.fixture
def simcord_bot(bot_config, bots):
    bot = create_bot(bot_config)
    bots.append(bot)
    return bot


@pytest.fixture
def restart(simcord_env, bot_config, bots):
    """Restart the bot as a new process would: old database handle closed, a new bot on the same file."""

    async def do_restart():
        for old in bots:
            if old.store is not None:
                await old.store.close()
                old.store = None
        fresh = create_bot(bot_config)
        bots.append(fresh)
        await simcord_env.restart_bot(fresh)
        return fresh

    return do_restart


@pytest_asyncio.fixture
async def world(tmp_path):
    """The tournament service and ratings on a real database, without Discord."""
    from bot.games import REGISTRY, register
    from bot.rating_store import RatingStore
    from bot.storage import Store
    from bot.tables import TableService
    from bot.tournament_store import TournamentStore
    from bot.tournaments import TournamentService
    from cogs.donguri.render import DonguriUI
    from cogs.final_quest.render import FinalQuestUI
    from cogs.othello_torite.render import OthelloToriteUI
    from cogs.saizen.render import SaizenUI

    for ui in (DonguriUI(), FinalQuestUI(), OthelloToriteUI(), SaizenUI()):
        if ui.game_id not in REGISTRY:
            register(ui)
    store = await Store.open(str(tmp_path / "t.sqlite3"))
    tables = TableService(store)
    service = TournamentService(TournamentStore(store.db), RatingStore(store.db), tables)
    yield service
    await store.close()
