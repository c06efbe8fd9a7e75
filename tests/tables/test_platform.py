"""The shared platform without Discord: config, storage, the table service and the catalogs."""

from __future__ import annotations

import asyncio
import pathlib
import re

import pytest

from bot.core import config as config_mod
from bot.core.errors import UserError
from bot.core.games import register
from bot.core.i18n import catalog, t
from bot.storage.store import Store
from bot.tables.lobby_ops import LobbyOps
from bot.tables.service import TableService
from cogs.donguri.render import DonguriUI
from tests.support.patience import patient

ROOT = pathlib.Path(__file__).resolve().parents[2]



# ---- config -------------------------------------------------------------------------------------
def test_token_from_environment_overrides_the_file(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text('token = "from-file"\nlog_level = "debug"\n')
    cfg = config_mod.load(str(path), env={"DISCORD_TOKEN": "from-env"})
    assert cfg.token == "from-env" and cfg.log_level == "DEBUG"
    assert config_mod.load(str(path), env={}).token == "from-file"


def test_config_file_from_environment_variable_and_defaults(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text("test_guild_id = 42\n")
    cfg = config_mod.load(None, env={"TABLETOP_CONFIG": str(path)})
    assert cfg.test_guild_id == 42 and cfg.database == "data/tabletop.sqlite3"
    assert cfg.rest_budget == 45  # under Discord's 50 calls a second, with room for commands


@pytest.mark.parametrize(
    "text,message",
    [
        ("log_level = 5", "'log_level'"),
        ('test_guild_id = "abc"', "'test_guild_id'"),
        ("database = ''", "'database'"),
        ('default_language = "fr"', "'default_language'"),
        ("colour = 1", "'colour'"),
        ("test_guild_id = true", "'test_guild_id'"),
        ("rest_budget = -1", "'rest_budget'"),
        ('rest_budget = "45"', "'rest_budget'"),
        ("shard_ids = [0]", "needs 'shard_count'"),
        ("shard_count = 2\nshard_ids = [2]", "from 0 to 1"),
        ("shard_count = 2\nshard_ids = [1, 1]", "twice"),
        ('shard_count = 2\nshard_ids = [1]\ndatabase = "data/t.sqlite3"', "postgresql://"),
    ],
)
def test_bad_config_values_are_refused_with_the_key_named(tmp_path, text, message):
    path = tmp_path / "c.toml"
    path.write_text(text + "\n")
    with pytest.raises(config_mod.ConfigError, match=re.escape(message)):
        config_mod.load(str(path), env={})


def test_missing_config_file_is_named(tmp_path):
    with pytest.raises(config_mod.ConfigError, match="does not exist"):
        config_mod.load(str(tmp_path / "nope.toml"), env={})


# ---- storage ------------------------------------------------------------------------------------
async def test_database_uses_wal_and_migrates_once(tmp_path):
    path = str(tmp_path / "db.sqlite3")
    store = await Store.open(path)
    assert await store.db.fetchval("PRAGMA journal_mode") == "wal"
    await store.close()
    store = await Store.open(path)
    numbers = [int(p.name.split("_")[0]) for p in (ROOT / "bot" / "storage" / "migrations").glob("*.sql")]
    assert await store.migrate() == max(numbers), "every migration applied, and only once"
    await store.close()


# ---- the table service --------------------------------------------------------------------------
@pytest.fixture
async def service(database):
    register(DonguriUI())
    store = await Store.open(database)
    yield TableService(store)
    await store.close()


async def started_table(service: TableService) -> int:
    lobby = LobbyOps(service)
    table = await lobby.open(
        "donguri",
        guild_id=1,
        channel_id=2,
        host=(10, "a"),
        size=3,
        options={"length": "short"},
        language="en",
    )
    await lobby.join(table.id, (11, "b"))
    await lobby.join(table.id, (12, "c"))
    await lobby.start(table.id, 10, seed=99)
    return table.id


async def test_two_clicks_on_the_same_move_at_once_apply_once(service):
    table_id = await started_table(service)
    table = await service.table(table_id)
    engine = await service.engine(table)
    (seat,) = engine.to_act()
    user = table.seats[seat].user_id
    action = engine.legal_actions(seat)[0]
    results = await asyncio.gather(
        service.act(table_id, user, 0, action), service.act(table_id, user, 0, action), return_exceptions=True
    )
    assert sum(not isinstance(r, Exception) for r in results) == 1
    (refusal,) = [r for r in results if isinstance(r, Exception)]
    assert isinstance(refusal, UserError) and refusal.key == "error.stale"
    assert await service.store.actions(table_id) == [(seat, action)]


async def test_a_move_is_drawn_only_once_committed_and_a_failed_commit_leaves_the_stored_game(service, monkeypatch):
    """Discord shows what is committed: while a move's transaction is open, a delivery pass reading
    the table gets the game without the move; when the commit fails, the same move can be made."""
    table_id = await started_table(service)
    table = await service.table(table_id)
    (seat,) = (await service.engine(table)).to_act()
    user, action = table.seats[seat].user_id, (await service.engine(table)).legal_actions(seat)[0]
    inside, release = asyncio.Event(), asyncio.Event()

    async def failing_append_log(*args, **kwargs):
        inside.set()
        await release.wait()
        raise ConnectionError("the database went away")

    monkeypatch.setattr(service.store, "append_log", failing_append_log)
    move = asyncio.create_task(service.act(table_id, user, 0, action))
    await asyncio.wait_for(inside.wait(), patient(5))
    drawn = await service.engine(table)
    assert drawn.history == [] and action in drawn.legal_actions(seat)
    release.set()
    with pytest.raises(ConnectionError):
        await move
    monkeypatch.undo()
    assert (await service.table(table_id)).version == table.version
    assert (await service.engine(table)).history == []
    outcome = await service.act(table_id, user, 0, action)
    assert outcome.engine.history == [(seat, action)]
    assert (await service.engine(await service.table(table_id))).history == [(seat, action)]


async def test_engine_is_rebuilt_from_the_log_after_a_restart(service, tmp_path):
    table_id = await started_table(service)
    table = await service.table(table_id)
    engine = await service.engine(table)
    for _ in range(5):
        (seat,) = engine.to_act()
        outcome = await service.act(
            table_id, table.seats[seat].user_id, len(engine.history), engine.legal_actions(seat)[0]
        )
        engine = outcome.engine
    fresh = TableService(service.store)
    rebuilt = await fresh.engine(await fresh.table(table_id))
    assert rebuilt.history == engine.history and rebuilt.public_view() == engine.public_view()


async def test_lobby_rules(service):
    lobby = LobbyOps(service)
    table = await lobby.open(
        "donguri", guild_id=1, channel_id=2, host=(10, "a"), size=3, options={}, language="en"
    )
    with pytest.raises(UserError, match="error.host_cannot_leave"):
        await lobby.leave(table.id, 10)
    with pytest.raises(UserError, match="error.not_seated"):
        await lobby.leave(table.id, 11)
    with pytest.raises(UserError, match="error.host_only"):
        await lobby.add_computer(table.id, 11)
    with pytest.raises(UserError, match="error.bad_size"):
        await lobby.open(
            "donguri", guild_id=1, channel_id=2, host=(10, "a"), size=6, options={}, language="en"
        )
    await lobby.add_computer(table.id, 10)
    await lobby.add_computer(table.id, 10)
    with pytest.raises(UserError, match="error.table_full"):
        await lobby.join(table.id, (12, "c"))


# ---- message catalogs ---------------------------------------------------------------------------
KEY_CALL = re.compile(r"""\btr?\(\s*["']([a-z_]+(?:\.[a-z0-9_]+)+)["']""")


def literal_keys() -> set[str]:
    keys = set()
    for path in [*ROOT.glob("bot/**/*.py"), *ROOT.glob("cogs/*/*.py")]:
        keys |= set(KEY_CALL.findall(path.read_text()))
    keys |= set(
        re.findall(r'UserError\(\s*"([a-z_.]+)"', "".join(p.read_text() for p in ROOT.glob("bot/**/*.py")))
    )
    return keys


def test_every_literal_message_key_exists_in_english():
    missing = sorted(k for k in literal_keys() if k not in catalog("en"))
    assert not missing, f"keys used in code but missing from the English catalog: {missing}"


def test_placeholders_are_filled():
    assert t("error.bad_size", "en", min=3, max=5) == "This game takes 3 to 5 players."


# ---- rated tables -------------------------------------------------------------------------------
async def test_new_rated_opens_a_rated_table_and_the_default_is_casual(simcord_env):
    from tests.support.table import embed_text, make_world, open_table

    world = make_world(simcord_env)
    alice, bob = world.members[:2]
    store = simcord_env.bot.service.store

    rated = await open_table(world, alice, "donguri", players=3, rated=True)
    rated_id = int(re.search(r"#(\d+)", rated.embeds[0].title).group(1))
    assert (await store.get_table(rated_id)).rated is True
    assert "Rated: counts for the leaderboard" in embed_text(rated)

    casual = await open_table(world, bob, "donguri", players=3)
    casual_id = int(re.search(r"#(\d+)", casual.embeds[0].title).group(1))
    assert casual_id != rated_id
    assert (await store.get_table(casual_id)).rated is False
    assert "Casual: not rated" in embed_text(casual)


def test_shards_from_the_config_file_and_the_command_line(tmp_path, monkeypatch):
    path = tmp_path / "c.toml"
    path.write_text('database = "postgresql://bot@db/tabletop"\nshard_count = 4\nshard_ids = [2, 3]\n')
    cfg = config_mod.load(str(path), env={})
    assert (cfg.shard_count, cfg.shard_ids) == (4, [2, 3])
    path.write_text('database = "postgresql://bot@db/tabletop"\nshard_count = 2\n')
    assert config_mod.load(str(path), env={}).shard_ids == [0, 1], "no ids: every shard runs here"


def test_some_shards_on_sqlite_are_refused_by_the_entry_point_but_allowed_with_a_database_url(tmp_path, capsys):
    from bot import main as entry

    path = tmp_path / "c.toml"
    path.write_text('token = "t"\n')
    assert entry.main(["--config", str(path), "--shard-count", "2", "--shard-ids", "1"]) == 2
    assert "postgresql://" in capsys.readouterr().err
    cfg = config_mod.load(str(path), env={"TABLETOP_DATABASE": "postgresql://bot@db/t"})
    cfg.shard_count, cfg.shard_ids = 2, [1]
    config_mod.check_shards(cfg)  # the environment's URL counts
