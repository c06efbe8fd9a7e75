"""``tabletop-bot migrate-db``: an SQLite database in use moves to PostgreSQL whole; the games
replay to the same positions there, events and ratings come along, and new rows get fresh ids."""

from __future__ import annotations

import io
import sqlite3

import pytest

from bot import main as entry
from bot.core.games import REGISTRY, register
from bot.ratings.store import RatingStore
from bot.storage.migrate import migrate
from bot.storage.ratings import RatingRows
from bot.storage.store import Store
from bot.tables.lobby_ops import LobbyOps
from bot.tables.service import TableService
from tests.support.platform import platform
from tests.support.postgres import fresh_database


@pytest.fixture(autouse=True)
def games():
    from cogs.donguri.render import DonguriUI
    from cogs.othello_torite.render import OthelloToriteUI

    for ui in (DonguriUI(), OthelloToriteUI()):
        if ui.game_id not in REGISTRY:
            register(ui)


async def filled_sqlite(path) -> dict[int, list]:
    """A database as the bot leaves it: a game in play, a finished rated one, and an event."""
    store = await Store.open(str(path))
    world = platform(store)
    tables, lobby, ratings = world.tables, world.lobby, world.ratings
    logs = {}
    for rated in (False, True):
        table = await lobby.open(
            "othello_torite", guild_id=1, channel_id=2, host=(10, "a"), size=2, options={}, language="ja",
            rated=rated,
        )
        await lobby.join(table.id, (11, "b"))
        await lobby.start(table.id, None, seed=3)
        for _ in range(6):
            row = await tables.table(table.id)
            engine = await tables.engine(row)
            seat = engine.to_act()[0]
            await tables.act(table.id, row.seats[seat].user_id, len(engine.history), engine.legal_actions(seat)[0])
        if rated:
            for user in (10, 11):
                await world.seat_ops.hand_to_computer(table.id, user)
            await tables.play_computers(table.id)
            assert await ratings.settle(await tables.table(table.id))
        logs[table.id] = await store.actions(table.id)
    events = world.events
    event = await events.create(
        guild_id=1, channel_id=2, organizer_id=3, game="donguri", name="Cup", format="swiss", rounds=2,
        table_size=None, points=None, clock=3600, on_timeout="computer_seat", signup_deadline=None,
        auto_next=True, advance=1, group_size=None, teams=None, language="en", seed=7,
    )
    for i in range(6):
        await events.entrants.sign_up(event.id, (100 + i, f"p{i}"))
    await events.start(event.id)
    for table_id in await events.seating.open_tables(await events.get(event.id)):
        logs[table_id] = await store.actions(table_id)
    await store.close()
    return logs


async def test_an_sqlite_database_moves_to_postgresql_whole(tmp_path, pg_cluster):
    source = tmp_path / "tabletop.sqlite3"
    logs = await filled_sqlite(source)
    url = await fresh_database(pg_cluster.url)
    out = io.StringIO()
    copied = await migrate(str(source), url, out=out)
    counts = {t: n for (t, n) in sqlite3.connect(source).execute(
        "SELECT name, 0 FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    )}
    assert set(copied) == set(counts)
    assert copied["game_tables"] >= 4 and copied["actions"] > 12 and copied["ratings"] == 2
    assert copied["tournaments"] == 1 and copied["rating_history"] == 2
    assert "migrate-db: copied" in out.getvalue()

    store = await Store.open(url)
    try:
        tables = TableService(store)
        for table_id, log in logs.items():
            assert await store.actions(table_id) == log
            row = await tables.table(table_id)
            engine = await tables.engine(row)
            replayed = REGISTRY[row.game].engine.replay(len(row.seats), row.seed, row.options, log)
            assert engine.public_view() == replayed.public_view()
        # The game in play goes on where it was, and the next table gets an id of its own.
        first = min(logs)
        row = await tables.table(first)
        engine = await tables.engine(row)
        seat = engine.to_act()[0]
        await tables.act(first, row.seats[seat].user_id, len(engine.history), engine.legal_actions(seat)[0])
        new = await LobbyOps(tables).open(
            "othello_torite", guild_id=1, channel_id=2, host=(10, "a"), size=2, options={}, language="en"
        )
        assert new.id > max(logs)
        player = await RatingStore(RatingRows(store.db), store).player(1, "othello_torite", 10)
        assert player is not None and player.games == 1
    finally:
        await store.close()


async def test_a_target_holding_rows_is_refused(tmp_path, pg_cluster):
    source = tmp_path / "tabletop.sqlite3"
    await filled_sqlite(source)
    url = await fresh_database(pg_cluster.url)
    await migrate(str(source), url, out=io.StringIO())
    with pytest.raises(SystemExit, match="already holds rows"):
        await migrate(str(source), url, out=io.StringIO())
    with pytest.raises(SystemExit, match="no SQLite database"):
        await migrate(str(tmp_path / "missing.sqlite3"), url, out=io.StringIO())


def test_the_command_line_wants_a_postgresql_target(tmp_path):
    with pytest.raises(SystemExit, match="postgresql://"):
        entry.main(["migrate-db", "--from", str(tmp_path / "t.sqlite3"), "--to", str(tmp_path / "other.sqlite3")])
