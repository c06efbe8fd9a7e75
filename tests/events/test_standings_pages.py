"""Every player findable in the standings (issue 49: of 30 players, ranks 26–29 and the drops were
in no message): pages turned by buttons, the asker's own place, and the event's web page."""

from __future__ import annotations

import dataclasses

import pytest

from bot.events.standings import place_points
from tests.events.test_table_sizes import world_of
from tests.events.test_tournament_cog import button_id, create_swiss, first_event_message, sign_up_all
from tests.support.forged import answer_text, forge
from tests.support.table import components, embed_text
from tests.tables.test_forged_clicks_cog import errors

pytestmark = pytest.mark.simcord(settle_timeout=40)

PUBLIC_URL = "https://games.example/tabletop"


@pytest.fixture
def bot_config(bot_config):
    """The suite's config, with a public address for the event's page."""
    return dataclasses.replace(bot_config, public_url=PUBLIC_URL)


def page_buttons(message) -> dict[str, str]:
    return {c["label"]: c["custom_id"] for c in components(message) if c.get("custom_id", "").startswith("tt:sp:")}


async def thirty_ranked(env, bot, client_locales=None, language="en"):
    """A 30-player Donguri Swiss with round 1 recorded (seat order = finishing order) and three
    players dropped: the standings of 30 rows, the drops last."""
    channel, organizer, members = world_of(env, 30)
    signup = await create_swiss(organizer, channel, rounds=3, table_size=4, confirm_pairings=True)
    await sign_up_all(signup, members)
    await organizer.click(signup, custom_id=button_id(signup, "start"))
    tournament_id = int(button_id(first_event_message(channel), "drop").split(":")[-1])
    service = bot.tournaments.service
    rows = []
    for table in await service.store.round_tables(tournament_id, 1):
        if not table.number:
            continue
        points = place_points([4, 2, 1, 0], list(range(1, len(table.players) + 1)), places=4)
        for place, player in enumerate(table.players, 1):
            others = [p for p in table.players if p != player]
            rows.append(
                {"round": 1, "user_id": player, "place": place, "size": len(table.players), "points": points[place - 1], "opponents": others}
            )
    await service.store.add_results(tournament_id, rows)
    for member in members[:3]:
        await service.entrants.drop(tournament_id, member.id)
    tournament = await service.get(tournament_id)
    standings = await service.ranking.standings(tournament)
    return channel, members, tournament, standings


async def test_a_thirty_player_event_pages_its_standings_and_tells_the_asker_their_place(simcord_env, simcord_bot):
    channel, members, tournament, standings = await thirty_ranked(simcord_env, simcord_bot)
    assert [row.dropped for row in standings[-3:]] == [True] * 3
    by_id = {m.id: m for m in members}
    low = standings[26]  # rank 27, on the second page
    asked = await by_id[low.player].slash(channel, "tournament standings")
    first = asked.response
    text = embed_text(first)
    assert asked.ephemeral and "Ranks 1–25 of 30 (page 1 of 2)" in text
    assert f"`25.` **{tournament.name_of(standings[24].player)}**" in text
    assert "`26.`" not in text.split("📍")[0], "the first page stops at 25"
    assert f"📍 Your place: `27.` **{tournament.name_of(low.player)}**" in text
    path = simcord_bot.site.event_path(tournament.id)
    assert f"🌐 Every player, round by round: {PUBLIC_URL}{path}" in text
    assert first.embeds[0].url == f"{PUBLIC_URL}{path}"
    buttons = page_buttons(first)
    assert list(buttons) == ["Ranks 26–30 ▶"]

    # The button turns the private answer's page in place.
    await by_id[low.player].click(first.message, custom_id=buttons["Ranks 26–30 ▶"])
    await simcord_env.settle()
    second = asked.response  # read again: the same message, edited
    text = embed_text(second)
    assert "Ranks 26–30 of 30 (page 2 of 2)" in text
    for row in standings[25:]:
        assert f"`{row.rank}.` **{tournament.name_of(row.player)}**" in text
    assert text.count("(dropped)") >= 3, "the drops are listed too"
    assert list(page_buttons(second)) == ["◀ Ranks 1–25"]


async def test_the_channel_standings_offer_the_next_page_to_whoever_clicks(simcord_env, simcord_bot, client_locales):
    channel, members, tournament, standings = await thirty_ranked(simcord_env, simcord_bot)
    await simcord_bot.tournaments.post_standings(tournament, final=False)
    await simcord_env.settle()
    posted = next(m for m in reversed(channel.history()) if m.embeds and "Standings after round" in (m.embeds[0].title or ""))
    assert "Ranks 1–25 of 30" in embed_text(posted) and "📍" not in embed_text(posted)
    dropped = next(m for m in members if m.id == standings[-1].player)
    client_locales[dropped.id] = "ja"
    clicked = await dropped.click(posted, custom_id=page_buttons(posted)["Ranks 26–30 ▶"])
    answer = clicked.response
    assert clicked.ephemeral, "the page is the clicker's own; the channel's message stays as it was"
    text = embed_text(answer)
    assert "全30のうち 26〜30位(2/2ページ)" in text
    assert f"📍 あなたの順位: `30.` **{tournament.name_of(dropped.id)}**" in text
    assert list(page_buttons(answer)) == ["◀ 1〜25位"]
    assert "Ranks 1–25 of 30" in embed_text(posted)


async def test_a_forged_page_click_from_another_server_shows_nothing(simcord_env, simcord_bot, caplog):
    channel, members, tournament, _standings = await thirty_ranked(simcord_env, simcord_bot)
    other = simcord_env.create_guild()
    lounge = other.create_text_channel("lounge")
    mallory = other.add_member(simcord_env.create_user("mallory"))
    there = await mallory.send(lounge, "hello")
    for page in (0, 1, 99):
        result = await forge(mallory, there, f"tt:sp:{tournament.id}:{page}", carried=True)
        assert result.acknowledged and answer_text(result) == "There is no such tournament in this server."
    assert errors(caplog) == []
    # From its own server, a page past the end shows the last one.
    result = await forge(members[0], await members[0].send(channel, "hi"), f"tt:sp:{tournament.id}:99", carried=True)
    assert "Ranks 26–30 of 30 (page 2 of 2)" in embed_text(result.response)
