"""The move service with no Discord at all, as a web front end calls it: a member's session, a
table, the version they saw and an action. Each change is committed before it returns, and the
delivery worker is asked to bring the table's surfaces up to it whoever made it."""

from __future__ import annotations

import pytest

from bot.core.engine import IllegalAction
from bot.core.errors import UserError
from bot.tables.moves import Moves


@pytest.fixture
def asked():
    return {"moved": [], "changed": []}


@pytest.fixture
def moves(world, asked):
    return Moves(world.tables, world.lobby, asked["moved"].append, asked["changed"].append)


async def test_a_table_joined_until_full_starts_and_a_move_is_committed(world, moves, asked):
    table = await world.lobby.open(
        "donguri", guild_id=1, channel_id=2, host=(10, "a"), size=3, options={"length": "short"}, language="en"
    )
    assert (await moves.join(table.id, 11, "b")).engine is None
    assert asked == {"moved": [], "changed": [table.id]}
    started = await moves.join(table.id, 12, "c")  # the last seat: the table starts
    assert started.engine is not None and started.table.status == "running"
    assert asked["moved"] == [table.id]

    engine = started.engine
    (seat,) = engine.to_act()
    member = started.table.seats[seat].user_id
    action = engine.legal_actions(seat)[0]
    kept = []

    async def also(row, game, mover):
        kept.append((row.version, len(game.history), mover))

    played = await moves.play(table.id, member, len(engine.history), action, also=also)
    assert (played.seat, played.engine.history[-1]) == (seat, (seat, action))
    assert kept == [(played.table.version, 1, seat)], "what the front end keeps is written with the move"
    assert await world.store.actions(table.id) == [(seat, action)]
    assert asked["moved"] == [table.id, table.id]


async def test_a_refused_move_changes_nothing_and_asks_for_no_delivery(world, moves, asked):
    table = await world.lobby.open(
        "donguri", guild_id=1, channel_id=2, host=(10, "a"), size=3, options={"length": "short"}, language="en"
    )
    await moves.join(table.id, 11, "b")
    started = await moves.join(table.id, 12, "c")
    (seat,) = started.engine.to_act()
    waiting = next(s for s in started.table.seats if s.position != seat)
    before = dict(asked, moved=list(asked["moved"]))
    with pytest.raises(IllegalAction, match="not_your_turn"):
        await moves.play(table.id, waiting.user_id, 0, started.engine.legal_actions(seat)[0])
    with pytest.raises(IllegalAction):
        await moves.play(table.id, started.table.seats[seat].user_id, 0, "play:nothing")
    with pytest.raises(UserError):
        await moves.play(table.id, 99, 0, started.engine.legal_actions(seat)[0])  # not seated
    assert await world.store.actions(table.id) == []
    assert asked == before
