"""Donguri through the real bot in SimCord: lobby, DMs, buttons, refusals, restarts, computers."""

from __future__ import annotations

from tests.support.table import make_world, table_message


async def test_open_join_start_deals_private_hands(simcord_env):
    world = make_world(simcord_env)
    alice, bob, carol = world.members[:3]
    result = await alice.slash(world.channel, "donguri new", players=3)
    assert result.ephemeral
    lobby = table_message(world)
    print(lobby.embeds[0].to_dict(), [c.to_dict() for c in lobby.components])
    await bob.click(lobby, label="Join")
    await carol.click(lobby, label="Join")
    msg = table_message(world)
    print(msg.content, msg.embeds[0].to_dict())
