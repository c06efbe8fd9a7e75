"""Late sign-up (issue 49): while a Swiss event runs with a round still to seat, its message keeps a
Sign up button beside Drop out; a member who presses it plays from the next round, is marked as a
late entry, and the button goes once the last round is seated."""

from __future__ import annotations

import pytest

from bot.core.i18n import Lang
from bot.events.entrants import takes_late_entries
from bot.events.render import event_message
from tests.events.test_standings import cup
from tests.events.test_tournament_cog import (
    button_id,
    create_swiss,
    event_world,
    first_event_message,
    sign_up_all,
)
from tests.events.test_tournament_organizer_cog import titled, until
from tests.support.table import components, embed_text

pytestmark = pytest.mark.simcord(settle_timeout=40)


def verbs(message) -> list[str]:
    return [c["custom_id"].split(":")[2] for c in components(message) if c.get("custom_id", "").startswith("tt:ev:")]


def labels(message) -> list[str]:
    return [c.get("label", "") for c in components(message) if c.get("custom_id", "").startswith("tt:ev:")]


@pytest.mark.slow  # a whole event of two rounds
async def test_a_latecomer_signs_up_from_the_running_events_message(simcord_env, simcord_bot, client_locales):
    _guild, channel, organizer, members = event_world(simcord_env, players=8)
    english, japanese = members[6], members[7]
    client_locales[japanese.id] = "ja"
    signup = await create_swiss(organizer, channel, table_size=3, rounds=2, auto_next=False)
    await sign_up_all(signup, members[:6])
    await organizer.click(signup, custom_id=button_id(signup, "start"))
    tournament_id = int(button_id(signup, "drop").split(":")[-1])
    service = simcord_bot.tournaments.service
    event = first_event_message(channel)
    assert verbs(event)[:2] == ["join", "drop"] and labels(event)[:2] == ["Sign up", "Drop out"]

    joined = await english.click(event, custom_id=button_id(event, "join"))
    assert "you play from the next round" in joined.response.content
    joined = await japanese.click(event, custom_id=button_id(event, "join"))
    assert "次の回戦から参加し" in joined.response.content
    again = await english.click(event, custom_id=button_id(event, "join"))
    assert "already" in again.response.content.lower()
    tournament = await service.get(tournament_id)
    assert {english.id, japanese.id} <= {e.user_id for e in tournament.entrants}
    seated_one = {p for row in await service.store.round_tables(tournament_id, 1) for p in row.players}
    assert not seated_one & {english.id, japanese.id}, "round 1 was seated before they came"

    async def round_done() -> bool:
        return (await service.get(tournament_id)).round_done == 1

    await until(simcord_env, round_done)
    event = first_event_message(channel)
    await organizer.click(event, custom_id=button_id(event, "next"))
    event = first_event_message(channel)
    assert "join" not in verbs(event) and "drop" in verbs(event), "no round is left to join"
    seated_two = {p for row in await service.store.round_tables(tournament_id, 2) for p in row.players}
    assert {english.id, japanese.id} <= seated_two

    async def finished() -> bool:
        return (await service.get(tournament_id)).status == "finished"

    await until(simcord_env, finished)
    lines = titled(channel, "Final standings")[0].embeds[0].description.splitlines()
    for late in (english, japanese):
        (line,) = [line for line in lines if f"**{late.name}**" in line]
        assert "joined in round 2" in line


def test_the_running_message_offers_sign_up_in_japanese_until_the_last_round():
    t = cup(rounds=3, round=1, round_done=0)
    shown = event_message(t, [], {}, set(), Lang("ja"), can_advance=False)
    names = [item.item.label for item in shown.view.children]
    assert names[:2] == ["参加登録", "辞退"]
    t.round = 3
    shown = event_message(t, [], {}, set(), Lang("ja"), can_advance=False)
    assert [item.item.label for item in shown.view.children] == ["辞退"]
    assert not takes_late_entries(t), "a button pressed late in the last round is refused as closed"
    assert not takes_late_entries(cup(rounds=3, round=1, format="round_robin"))


async def test_help_states_late_sign_up_in_both_languages(simcord_env, client_locales):
    _guild, channel, _organizer, members = event_world(simcord_env, players=2)
    client_locales[members[1].id] = "ja"
    english = embed_text((await members[0].slash(channel, "tournament help")).response)
    assert "its message keeps a **Sign up** button beside Drop out" in english
    japanese = embed_text((await members[1].slash(channel, "tournament help")).response)
    assert "「辞退」と並んで「参加登録」ボタンが残ります" in japanese
