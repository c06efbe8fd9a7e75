"""Check-in without a sign-up deadline (issue 49): the organizer's start opens check-in for
``checkin_minutes``, then round 1 begins with those who checked in."""

from __future__ import annotations

import pytest

from tests.events.test_tournament_cog import (
    button_id,
    create_swiss,
    event_world,
    first_event_message,
    sign_up_all,
    tournament_tables,
)
from tests.support.table import components, embed_text

pytestmark = pytest.mark.simcord(settle_timeout=40)


async def test_the_organizers_start_opens_check_in_then_round_one_begins(simcord_env, simcord_bot, client_locales):
    _guild, channel, organizer, members = event_world(simcord_env, players=5)
    client_locales[organizer.id] = "ja"
    signup = await create_swiss(organizer, channel, checkin_minutes=10)
    assert "When the organizer starts it, check-in opens for 10 minutes first" in embed_text(signup)
    await sign_up_all(signup, members)
    assert not any(c.get("custom_id", "").startswith("tt:ev:checkin:") for c in components(signup))
    tournament_id = int(button_id(signup, "join").split(":")[-1])
    service = simcord_bot.tournaments.service

    started = await organizer.click(signup, custom_id=button_id(signup, "start"))
    answer = (started.followups or [started.response])[-1]
    assert "チェックインを開始しました" in answer.content
    tournament = await service.get(tournament_id)
    assert tournament.status == "signup" and tournament.checkin_open
    call = next(m for m in channel.history() if "Check-in for Autumn Cup is open" in (m.content or ""))
    assert all(m.mention in call.content for m in members)
    event = first_event_message(channel)
    assert "Check-in is open until" in embed_text(event)
    for member in members[:3]:
        done = await member.click(event, custom_id=button_id(event, "checkin"))
        assert "checked in" in done.response.content
    await simcord_env.advance_time(5 * 60)
    assert (await service.get(tournament_id)).status == "signup", "check-in still runs"
    await simcord_env.advance_time(6 * 60)
    tournament = await service.get(tournament_id)
    assert tournament.status == "running" and tournament.round == 1
    assert sorted(e.user_id for e in tournament.entrants) == sorted(m.id for m in members[:3])
    seated = {p for r in await tournament_tables(simcord_bot, tournament_id) for p in r.players}
    assert seated == {m.id for m in members[:3]}


async def test_the_organizer_may_start_sooner_while_check_in_runs(simcord_env, simcord_bot):
    _guild, channel, organizer, members = event_world(simcord_env, players=4)
    signup = await create_swiss(organizer, channel, checkin_minutes=30)
    await sign_up_all(signup, members)
    started = await organizer.slash(channel, "tournament start")
    answer = (started.followups or [started.response])[-1]
    assert "Check-in is open: round 1 begins" in answer.content
    event = first_event_message(channel)
    for member in members[:3]:
        await member.click(event, custom_id=button_id(event, "checkin"))
    await organizer.click(event, custom_id=button_id(event, "start"))
    tournament_id = int(button_id(signup, "join").split(":")[-1])
    tournament = await simcord_bot.tournaments.service.get(tournament_id)
    assert tournament.status == "running"
    assert sorted(e.user_id for e in tournament.entrants) == sorted(m.id for m in members[:3])


async def test_help_states_check_in_in_both_languages(simcord_env, client_locales):
    _guild, channel, _organizer, members = event_world(simcord_env, players=2)
    client_locales[members[1].id] = "ja"
    english = embed_text((await members[0].slash(channel, "tournament help")).response)
    assert "with no deadline, for that many minutes after the organizer presses Start" in english
    japanese = embed_text((await members[1].slash(channel, "tournament help")).response)
    assert "締め切りがなければ主催者が「開始」を押してからその分数の間です" in japanese
