"""What an organizer of thirty needs (issue 39), through the real bot in SimCord: a look at each
round's seating that only they see (points, seats, repeat tablemates), a log of their swaps, seats
named in the round post, ties explained, points that read well, late entries marked, and exports
that agree with the standings row for row."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from bot.events import render as view
from bot.ratings import charts
from tests.events.test_tournament_cog import (
    button_id,
    create_swiss,
    event_world,
    first_event_message,
    sign_up_all,
)
from tests.support.table import components, embed_text

pytestmark = pytest.mark.simcord(settle_timeout=40)


def round_field(message) -> str:
    fields = [f for f in message.embeds[0].fields if f.name.startswith("Round")]
    return fields[0].value if fields else ""


def titled(channel, words: str):
    return [m for m in channel.history() if m.author.bot and m.embeds and words in (m.embeds[0].title or "")]


def answer(result):
    """What the member saw last: a follow-up, or the (deferred) response itself."""
    return result.followups[-1] if result.followups else result.response


async def until(env, check, limit: int = 200) -> None:
    for _ in range(limit):
        if await check():
            return
        await env.advance_time(61)
    raise AssertionError("never happened")


async def test_the_organizer_alone_reviews_each_seating_and_a_swap_is_logged(simcord_env, simcord_bot):
    """Othello, four players: the seating is shown to the organizer with everyone's points, the
    seat each gets and who met before; the event message keeps it to itself until confirmed; a
    swap is in the event's log and said in the round post."""
    _guild, channel, organizer, members = event_world(simcord_env, players=4)
    signup = await create_swiss(
        organizer, channel, game="othello_torite", table_size=2, rounds=2, confirm_pairings=True
    )
    assert "Organizer: **olga**" in embed_text(signup), "the organizer is named"
    await sign_up_all(signup, members)
    started = await organizer.click(signup, custom_id=button_id(signup, "start"))
    tournament_id = int(button_id(signup, "drop").split(":")[-1])
    store = simcord_bot.tournaments.service.store
    look = answer(started)
    assert look.ephemeral and "Round 1 pairings" in look.embeds[0].title
    text = embed_text(look)
    assert "⚫ Black plays first, ⚪ White second." in text
    names = {m.id: m.name for m in members}
    for row in await store.round_tables(tournament_id, 1):
        first, second = (names[p] for p in row.players)
        assert f"⚫ {first} (0 pts) · ⚪ {second} (0 pts)" in text
    assert {c.get("custom_id", "").split(":")[2] for c in components(look)} == {"confirm", "repair"}

    # The public message says the round waits, and shows nobody's seat.
    event = first_event_message(channel)
    assert "checking the pairings" in round_field(event) and "⚫" not in round_field(event)
    refused = await members[0].click(event, custom_id=button_id(event, "pairings"))
    assert "Only the organizer" in refused.response.content
    await organizer.click(look.message, custom_id=button_id(look, "confirm"))
    post = next(m for m in channel.history() if "Round 1" in (m.content or "") and "begins" in m.content)
    assert "⚫ Black plays first" in post.content
    for row in await store.round_tables(tournament_id, 1):
        assert f"⚫ <@{row.players[0]}> · ⚪ <@{row.players[1]}>" in post.content

    async def round_two_seated() -> bool:
        return (await simcord_bot.tournaments.service.get(tournament_id)).round == 2

    await until(simcord_env, round_two_seated)
    # Round 2 was seated by itself: the organizer is told by DM, and looks from the event message.
    told = [m.content for m in organizer.user.dm_channel.history() if "Round 2 of Autumn Cup" in (m.content or "")]
    assert len(told) == 1 and "check pairings" in told[0]
    event = first_event_message(channel)
    look = (await organizer.click(event, custom_id=button_id(event, "pairings"))).response
    assert look.ephemeral
    results = await store.results(tournament_id)
    points = {p: sum(r["points"] for r in results if r["user_id"] == p) for p in names}
    round_one = await store.round_tables(tournament_id, 1)
    black_before = {row.players[0] for row in round_one}
    rows = await store.round_tables(tournament_id, 2)
    for row in rows:
        first, second = row.players
        shown = f"⚫ {names[first]} ({view.points_text(points[first])} pt"
        assert shown in embed_text(look), "the seat and the points before the round"
        # Each played once, so whoever had Black is due White: where the seating cannot give it
        # (both had the same colour and the points keep them together), the look says so.
        for seat, player in enumerate(row.players):
            had = 0 if player in black_before else 1
            warned = f"⚠ {names[player]} was due {('⚫ Black', '⚪ White')[1 - seat]}." in embed_text(look)
            assert warned == (had == seat), names[player]
        if (first in black_before) != (second in black_before):
            assert first not in black_before, "two players due different seats both get theirs"
    assert "met in round" not in embed_text(look) and "Nobody shares a table" in embed_text(look)

    # Seat two players of round 1 together again: the look names the repeats and the swap.
    met = {p: q for row in round_one for p, q in (row.players, row.players[::-1])}
    a = rows[0].players[0]
    x = next(p for p in rows[0].players if p != a)  # a's tablemate now
    y = met[a]  # a's opponent in round 1, at the other table now
    by_id = {m.id: m for m in members}
    swapped = await organizer.slash(channel, "tournament swap", member=by_id[x], other=by_id[y])
    reply = swapped.response
    assert reply.ephemeral and "trade places" in reply.content
    text = embed_text(reply)
    assert f"🔁 The organizer swapped {names[x]} and {names[y]}." in text
    for one, other in ((a, y), (x, met[x])):
        assert any(
            f"🔁 {names[p]} and {names[q]} met in round 1." in text for p, q in ((one, other), (other, one))
        ), (names[one], names[other])
    (entry,) = await store.log(tournament_id)
    assert (entry.round, entry.kind, entry.actor_id, entry.data) == (2, "swap", organizer.id, {"a": x, "b": y})
    exported = await organizer.slash(channel, "tournament export", kind="json")
    event_json = json.loads(await exported.response.attachments[0].read())
    assert event_json["log"] == [
        {"round": 2, "kind": "swap", "actor_id": organizer.id, "data": {"a": x, "b": y}, "at": entry.at}
    ]
    await organizer.click(reply.message, custom_id=button_id(reply, "confirm"))
    post = next(m for m in channel.history() if "Round 2" in (m.content or "") and "begins" in m.content)
    assert f"🔁 The organizer swapped {names[x]} and {names[y]}." in post.content

    # After round 1 two players at least share their points: the standings say what split them.
    standings = titled(channel, "Standings after round 1")[0]
    lines = standings.embeds[0].description.splitlines()
    shown = [re.search(r"— ([\d.]+) pts?", line).group(1) for line in lines]
    for i, line in enumerate(lines):
        tied = shown.count(shown[i]) > 1
        assert ("tie-break:" in line) == tied, line
    assert any("tie-break:" in line for line in lines), "four players on two tables always tie"
    assert "Where points are equal, the line says what split them." in standings.embeds[0].footer.text


@pytest.mark.slow  # a whole game or event; its subject has shorter cases in the fast lane
async def test_points_read_well_a_late_entry_is_marked_and_exports_follow_the_standings(
    simcord_env, simcord_bot
):
    """Donguri, seven players at tables of four (so one table of three scores fractions), an eighth
    added after the start; the organizer starts each round."""
    _guild, channel, organizer, members = event_world(simcord_env, players=8)
    signup = await create_swiss(organizer, channel, table_size=4, rounds=2, auto_next=False)
    assert "When the organizer starts it" in embed_text(signup)
    await sign_up_all(signup, members[:7])
    await organizer.click(signup, custom_id=button_id(signup, "start"))
    tournament_id = int(button_id(signup, "drop").split(":")[-1])
    late = members[7]
    added = await organizer.slash(channel, "tournament add", member=late)
    assert "signed up" in added.response.content
    assert "⏭ Round 2 starts when the organizer starts it." in round_field(first_event_message(channel))

    service = simcord_bot.tournaments.service

    async def round_done() -> bool:
        return (await service.get(tournament_id)).round_done == 1

    await until(simcord_env, round_done)
    after_one = titled(channel, "Standings after round 1")[0].embeds[0].description
    shown = re.findall(r"— (\S+) pts?", after_one)
    assert len(shown) == 8 and all(re.fullmatch(r"\d+(\.\d)?", p) for p in shown), shown
    assert any("." in p for p in shown), "the table of three scores fractions, shown to one decimal"
    event = first_event_message(channel)
    await organizer.click(event, custom_id=button_id(event, "next"))
    assert "🏁 This is the last round." in round_field(first_event_message(channel))
    seated = {p for row in await service.store.round_tables(tournament_id, 2) for p in row.players}
    assert late.id in seated, "the late entrant plays from round 2"

    async def finished() -> bool:
        return (await service.get(tournament_id)).status == "finished"

    await until(simcord_env, finished)
    final = titled(channel, "Final standings")[0]
    lines = final.embeds[0].description.splitlines()
    (late_line,) = [line for line in lines if f"**{late.name}**" in line]
    assert "joined in round 2" in late_line
    assert "– = a round before the player joined." in final.embeds[0].footer.text
    tournament = await service.get(tournament_id)
    rows = await service.ranking.standings(tournament)
    results = await service.store.results(tournament_id)
    cells = {r["name"]: r["rounds"] for r in view.round_places(tournament, rows, results, 2)}
    assert cells[late.name][0] == charts.LATE_MARK and isinstance(cells[late.name][1], charts.Cell)
    assert all(isinstance(c, charts.Cell) for name, r in cells.items() if name != late.name for c in r)

    # The exports list the standings row for row as the message does.
    names = [re.search(r"\*\*(.+?)\*\*", line).group(1) for line in lines]
    # The champion is named, never shown as a raw id (a mention in an embed is not resolved for a
    # member the reader's client has not loaded).
    champion = titled(channel, "Autumn Cup champion")[0].embeds[0].description
    assert champion.startswith(f"Congratulations, **{names[0]}**!") and "<@" not in champion
    exported = await organizer.slash(channel, "tournament export", kind="csv")
    data = (await exported.response.attachments[0].read()).decode()
    table = list(csv.reader(io.StringIO(data)))
    header, *body = table[table.index([]) + 1 :]
    standings = [dict(zip(header, row, strict=True)) for row in body]
    assert [r["player"] for r in standings] == names
    assert [int(r["rank"]) for r in standings] == list(range(1, 9))
    assert [float(r["points"]) for r in standings] == [row.points for row in rows]
    exported = await organizer.slash(channel, "tournament export", kind="json")
    event = json.loads(await exported.response.attachments[0].read())
    assert [tournament.name_of(s["player"]) for s in event["standings"]] == names
    assert [view.points_text(s["points"]) for s in event["standings"]] == [
        re.search(r"— (\S+) pts?", line).group(1) for line in lines
    ]
