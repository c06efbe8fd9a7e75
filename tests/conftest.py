"""Cog tests drive the real bot through SimCord, with a fresh SQLite file per test. Storage-facing
fixtures (``database``, ``world``) run on both SQLite and PostgreSQL.

The markers of the fast lane (``pytest -m "not slow"``, docs/testing.md) are given here by rule,
so a new test is placed by what it does rather than by remembering a decorator."""

from __future__ import annotations

import os
import re

import pytest
import pytest_asyncio

from bot.app import create_bot
from bot.core.config import Config
from tests.support.locales import patch_client_locales

PROCESS_FILE = re.compile(r"test_.*_(process|postgres)\.py")
# Fuzzing: hundreds of generated clicks a run (the forged-click tests keep each defect it found in
# the fast lane as a concrete case).
FUZZ_FILE = re.compile(r"test_.*fuzz.*\.py")
# The one process file kept in the fast lane: the real entry point starts, answers and stops in a
# few seconds, and nothing else runs bot/main.py as a program.
FAST_PROCESS_FILES = {"test_smoke_process.py"}
# Cases slow for their size alone, in files whose markers are decided elsewhere: their node ids.
SLOW_CASES = (
    # Compares two whole Final Quest snapshots after every move of long games (about 6 s a case).
    "tests/ai/test_ai_conformance.py::test_a_clone_plays_on_exactly_like_its_game[final_quest-4p-{}]",
    'tests/ai/test_ai_conformance.py::test_a_clone_plays_on_exactly_like_its_game[final_quest-4p-{"rebuttal": "asker"}]',
)
# Tests run for every configuration of every game that compare whole games move by move: the fast
# lane keeps each game's configurations with the fewest players.
SMALLEST_TABLES_ONLY = ("tests/ai/test_ai_conformance.py::test_a_clone_plays_on_exactly_like_its_game",)


def larger_table(item) -> bool:
    """A case of a ``SMALLEST_TABLES_ONLY`` test for more players than its game's fewest."""
    callspec = getattr(item, "callspec", None)
    if item.nodeid.split("[")[0] not in SMALLEST_TABLES_ONLY or callspec is None:
        return False
    cls, n = callspec.params.get("cls"), callspec.params.get("n")
    return cls is not None and n is not None and n > min(k for k, _ in cls.sample_configs())


def pytest_collection_modifyitems(config, items):
    """``postgres``: the test uses the PostgreSQL cluster, directly or as the ``postgresql`` leg of
    the ``database`` fixture. ``process``: a ``test_*_process.py`` or ``test_*_postgres.py`` file,
    which starts the real entry point against the fake Discord. Both are ``slow`` (but for
    ``FAST_PROCESS_FILES``), as are the fuzz files, the cases marked so in their files, those
    listed in ``SLOW_CASES`` and the larger tables of ``SMALLEST_TABLES_ONLY``; the SQLite leg of
    a storage test stays in the fast lane."""
    for item in items:
        callspec = getattr(item, "callspec", None)
        postgres = "pg_cluster" in item.fixturenames or (
            callspec is not None and callspec.params.get("database") == "postgresql"
        )
        process = PROCESS_FILE.fullmatch(item.path.name) is not None
        if postgres:
            item.add_marker(pytest.mark.postgres)
        if process:
            item.add_marker(pytest.mark.process)
        fast_process = item.path.name in FAST_PROCESS_FILES
        fuzz = FUZZ_FILE.fullmatch(item.path.name) is not None
        by_hand = item.nodeid in SLOW_CASES or larger_table(item)
        if postgres or (process and not fast_process) or fuzz or by_hand:
            item.add_marker(pytest.mark.slow)


@pytest.fixture
def bot_config(tmp_path) -> Config:
    # The simulator's clock does not run by itself; the rate budgets are measured by the process
    # tests against the loopback fake Discord instead.
    return Config(
        token="unused",
        database=str(tmp_path / "tabletop.sqlite3"),
        channel_budget=10_000,
        rest_budget=0,
        computer_search=False,  # computers play at random here; tests/ai covers their search
        web_port=0,  # tests/web serve the pages themselves, on a port of their own
    )


@pytest_asyncio.fixture
async def bots(bot_config):
    """Every bot a test creates; their databases are closed when the test ends (SimCord does not)."""
    made = []
    yield made
    for bot in made:
        services = bot.__dict__.pop("services", None)
        if services is not None:
            await services.session.close()
            await services.store.close()


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
            services = old.__dict__.pop("services", None)
            if services is not None:
                services.scheduler.stop()
                await services.sweep.stop()
                await services.computers.worker.close()
                await services.delivery.worker.close()
                await services.session.close()
                await services.store.close()
        fresh = create_bot(bot_config)
        bots.append(fresh)
        await simcord_env.restart_bot(fresh)
        return fresh

    return do_restart


@pytest.fixture(scope="session")
def pg_cluster():
    """One throwaway PostgreSQL cluster for the session; skipped when PostgreSQL is not installed
    (``.ci/run`` installs it and sets TABLETOP_REQUIRE_POSTGRES=1, so CI never skips)."""
    from tests.support import postgres

    if postgres.find_bin() is None:
        if os.environ.get("TABLETOP_REQUIRE_POSTGRES"):
            pytest.fail("PostgreSQL is required (TABLETOP_REQUIRE_POSTGRES) but initdb was not found")
        pytest.skip("PostgreSQL is not installed (no initdb on PATH or in /usr/lib/postgresql/*/bin)")
    with postgres.cluster() as cluster:
        yield cluster


@pytest_asyncio.fixture(params=["sqlite", "postgresql"])
async def database(request, tmp_path):
    """A fresh, empty database: an SQLite file, or a new database in the session's PostgreSQL."""
    if request.param == "sqlite":
        return str(tmp_path / "t.sqlite3")
    from tests.support.postgres import fresh_database

    return await fresh_database(request.getfixturevalue("pg_cluster").url)


@pytest_asyncio.fixture
async def world(database):
    """The tournament service, the tables and ratings on a real database, without Discord."""
    from bot.core.games import REGISTRY, register
    from bot.storage.store import Store
    from cogs.donguri.render import DonguriUI
    from cogs.final_quest.render import FinalQuestUI
    from cogs.othello_torite.render import OthelloToriteUI
    from cogs.saizen.render import SaizenUI
    from tests.support.platform import platform

    for ui in (DonguriUI(), FinalQuestUI(), OthelloToriteUI(), SaizenUI()):
        if ui.game_id not in REGISTRY:
            register(ui)
    store = await Store.open(database)
    yield platform(store)
    await store.close()


@pytest.fixture
def client_locales(simcord_env, monkeypatch):
    """Member id → client locale that SimCord's interactions carry (see tests/support/locales.py)."""
    return patch_client_locales(monkeypatch.setattr)
