"""A tournament's buttons act only from its own server: a forged click from another server (where
the member may manage the server) or from a DM signs nobody up and starts nothing."""

from __future__ import annotations

import discord

from tests.events.test_tournament_cog import button_id, create_swiss, event_world
from tests.support.forged import answer_text, forge
from tests.tables.test_forged_clicks_cog import errors

ELSEWHERE = "There is no such tournament in this server."


async def test_forged_tournament_clicks_from_another_server_or_a_dm_change_nothing(
    simcord_env, simcord_bot, caplog
):
    _guild, channel, organizer, members = event_world(simcord_env, players=3)
    message = await create_swiss(organizer, channel)
    join = button_id(message, "join")
    event_id = int(join.rsplit(":", 1)[1])
    await members[0].click(message, custom_id=join)

    other = simcord_env.create_guild()
    other_channel = other.create_text_channel("lounge")
    admin = other.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    mallory = other.add_member(simcord_env.create_user("mallory"), roles=[admin])
    there = await mallory.send(other_channel, "hello")
    in_dm = await members[1].send_dm("hello")

    service = simcord_bot.tournaments.service
    before = await service.get(event_id)
    for actor, source in ((mallory, there), (members[1].user, in_dm)):
        for verb in ("join", "checkin", "drop", "start", "next", "confirm", "repair"):
            result = await forge(actor, source, f"tt:ev:{verb}:{event_id}", carried=True)
            assert result.acknowledged and answer_text(result) == ELSEWHERE, (actor, verb)
    after = await service.get(event_id)
    assert [e.user_id for e in after.entrants] == [e.user_id for e in before.entrants] == [members[0].id]
    assert after.status == before.status == "signup"
    assert errors(caplog) == []

    joined = await members[1].click(message, custom_id=join)
    assert joined.ephemeral and answer_text(joined) != ELSEWHERE, "a click on the event message still works"
    assert len((await service.get(event_id)).entrants) == 2
