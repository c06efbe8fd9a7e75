"""Result correction (issue 49): the organizer corrects a finished table's places with a reason;
the event's log, its exports and its channel say it, the standings (a finished event's stored
final standings too) are ranked again, and the players' ratings follow."""

from __future__ import annotations

import csv
import io
import json

import pytest

from tests.events.test_tournament_cog import (
    button_id,
    create_swiss,
    event_world,
    run_until_finished,
    sign_up_all,
)
from tests.support.table import embed_text

pytestmark = pytest.mark.simcord(settle_timeout=40)


@pytest.mark.slow  # a whole event of one round
async def test_the_organizer_corrects_a_finished_table_and_standings_and_ratings_follow(
    simcord_env, simcord_bot, client_locales
):
    _guild, channel, organizer, members = event_world(simcord_env, players=3)
    signup = await create_swiss(organizer, channel, table_size=3, rounds=1)
    await sign_up_all(signup, members)
    await organizer.click(signup, custom_id=button_id(signup, "start"))
    tournament_id = int(button_id(signup, "drop").split(":")[-1])
    await run_until_finished(simcord_env, simcord_bot, tournament_id)
    service = simcord_bot.tournaments.service
    ratings = simcord_bot.tournaments.service.ranking.ratings
    (row,) = [r for r in await service.store.round_tables(tournament_id, 1) if r.number]
    recorded = {r["user_id"]: r["place"] for r in await service.store.results(tournament_id)}
    first_before = (await service.ranking.standings(await service.get(tournament_id)))[0].player
    shown_before = {p: (await ratings.player(channel.guild.id, "donguri", p)).shown for p in row.players}
    # Reverse the table: the last becomes first.
    reversed_places = [len(row.players) + 1 - recorded[p] for p in row.players]

    refused = await organizer.slash(channel, "tournament correct", round=1, table=1, places="1,2", reason="typo")
    assert "one place per seat" in refused.response.content
    refused = await members[0].slash(channel, "tournament correct", round=1, table=1, places="1,2,3", reason="x")
    assert "Only the organizer" in refused.response.content
    done = await organizer.slash(
        channel, "tournament correct", round=1, table=1,
        places=",".join(map(str, reversed_places)), reason="scorekeeper swapped the sheets",
    )
    answer = done.response.content
    assert "Round 1, table 1 is corrected" in answer and "The players' ratings follow" in answer
    now = {r["user_id"]: r["place"] for r in await service.store.results(tournament_id)}
    assert now == {p: len(row.players) + 1 - recorded[p] for p in row.players}
    tournament = await service.get(tournament_id)
    standings = await service.ranking.standings(tournament)
    assert standings[0].player != first_before and now[standings[0].player] == 1, "final standings ranked again"
    shown_after = {p: (await ratings.player(channel.guild.id, "donguri", p)).shown for p in row.players}
    winner = standings[0].player
    assert shown_after[winner] > shown_before[winner], "the new winner's rating rises"
    assert shown_after[first_before] < shown_before[first_before], "the old winner's falls"
    notice = next(m for m in channel.history() if "corrected round 1, table 1" in (m.content or ""))
    assert "scorekeeper swapped the sheets" in notice.content

    shown = await members[0].slash(channel, "tournament standings")
    assert "Round 1, table 1 corrected (" in shown.response.content
    assert "): scorekeeper swapped the sheets" in shown.response.content
    (entry,) = [e for e in await service.store.log(tournament_id) if e.kind == "correct"]
    assert entry.actor_id == organizer.id and entry.data["reason"] == "scorekeeper swapped the sheets"
    exported = await organizer.slash(channel, "tournament export", kind="csv")
    text = (await exported.response.attachments[0].read()).decode()
    table = list(csv.reader(io.StringIO(text)))
    start = table.index(next(r for r in table if r and r[0] == "corrected_round"))
    body = table[start + 1 :]
    assert len(body) == 3 and all(r[6] == "scorekeeper swapped the sheets" for r in body)
    assert {int(r[2]): (int(r[4]), int(r[5])) for r in body} == {p: (recorded[p], now[p]) for p in row.players}
    exported = await organizer.slash(channel, "tournament export", kind="json")
    event = json.loads(await exported.response.attachments[0].read())
    assert [e["kind"] for e in event["log"]] == ["correct"]
    assert {r["user_id"]: r["place"] for r in event["results"]} == now

    # Corrected back, in Japanese: the recorded result and the ratings it gave return.
    client_locales[organizer.id] = "ja"
    done = await organizer.slash(
        channel, "tournament correct", round=1, table=1,
        places=",".join(str(recorded[p]) for p in row.players), reason="やはり元の結果",
    )
    assert "第1回戦の1卓の結果を訂正しました" in done.response.content
    assert "レーティングも訂正に合わせました" in done.response.content
    client_locales[members[1].id] = "ja"
    shown = await members[1].slash(channel, "tournament standings")
    assert "第1回戦 1卓の訂正(" in shown.response.content and "やはり元の結果" in shown.response.content
    assert {p: (await ratings.player(channel.guild.id, "donguri", p)).shown for p in row.players} == shown_before
    same = await organizer.slash(
        channel, "tournament correct", round=1, table=1,
        places=",".join(str(recorded[p]) for p in row.players), reason="again",
    )
    assert "すでに記録されている結果と同じです" in same.response.content


async def test_help_states_corrections_in_both_languages(simcord_env, client_locales):
    _guild, channel, _organizer, members = event_world(simcord_env, players=2)
    client_locales[members[1].id] = "ja"
    english = embed_text((await members[0].slash(channel, "tournament help")).response)
    assert "correct a finished table's result with /tournament correct" in english
    assert "later tables keeping their own changes" in english
    japanese = embed_text((await members[1].slash(channel, "tournament help")).response)
    assert "/大会 結果訂正(/tournament correct)で終了した卓の結果を訂正できます" in japanese


async def test_an_open_table_and_an_elimination_event_are_not_corrected(simcord_env, simcord_bot, client_locales):
    guild, channel, organizer, members = event_world(simcord_env, players=3)
    signup = await create_swiss(organizer, channel, table_size=3, rounds=2)
    await sign_up_all(signup, members)
    await organizer.click(signup, custom_id=button_id(signup, "start"))
    refused = await organizer.slash(channel, "tournament correct", round=1, table=1, places="1,2,3", reason="early")
    assert "Round 1 has no finished table 1." in refused.response.content
    knockout = guild.create_text_channel("knockout")
    signup = await create_swiss(organizer, knockout, table_size=3, format="elimination", name="Knockout")
    await sign_up_all(signup, members)
    await organizer.click(signup, custom_id=button_id(signup, "start"))
    client_locales[organizer.id] = "ja"
    refused = await organizer.slash(knockout, "tournament correct", round=1, table=1, places="1,2,3", reason="x")
    assert "勝ち抜き戦の結果は訂正できません" in refused.response.content
