"""A turn's hand-off: the next player's DM shows their turn as soon as the move is committed. It
does not wait for the table's other surfaces: here Discord is slow to take the table message's
edit, and the pass showing it holds the table meanwhile (issue 35, item 8: the pass that drew the
last move's hands went on to the table message, record and notices, and the next move's hands
queued behind it)."""

from __future__ import annotations

import asyncio

from bot.tables.pace import PACE
from tests.support.table import (
    embed_text,
    enabled_ids,
    hand_dm,
    make_world,
    open_table,
    table_message,
    whose_turn,
)


async def test_the_next_players_dm_shows_their_turn_while_the_table_message_is_held_up(
    simcord_env, simcord_bot, monkeypatch
):
    delivery = simcord_bot.delivery
    edit = delivery.update_table_message
    release = asyncio.Event()
    held: list[int] = []

    async def slow_table_message(table, engine, tr):
        if table.status == "running" and not release.is_set():
            held.append(table.version)
            await simcord_env.external_wait(release.wait(), reason="Discord is slow to edit the table message")
        await edit(table, engine, tr)

    monkeypatch.setattr(delivery, "update_table_message", slow_table_message)
    world = make_world(simcord_env)
    members = world.members[:3]
    lobby = await open_table(world, members[0], "donguri", players=3, length="short")
    for member in members[1:]:
        await member.click(lobby, label="Join")
    await simcord_env.settle()
    for _ in range(6):  # moves passing the turn from member to member
        (mover,) = whose_turn(members)
        await mover.user.click(hand_dm(mover), custom_id=enabled_ids(hand_dm(mover))[0])
        await simcord_env.settle()
        assert len(whose_turn(members)) == 1, "the next player's DM shows their turn"
    assert held, "the table message was held up all along"
    shown = embed_text(table_message(world))
    release.set()
    await simcord_env.advance_time(PACE + 1)  # its pace: one edit per 2 s while the table is played
    assert embed_text(table_message(world)) != shown, "and it follows once Discord takes the edit"
    assert len(set(held)) == 1, "one pass held the table all along, and no move waited for it"
