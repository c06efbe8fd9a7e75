"""Tournaments through the real bot in SimCord: sign-up, rounds opened by the bot, timeouts resolved
by computers on virtual time, standings after each round, ratings, export, restarts."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from itertools import combinations

import discord
import pytest

from tests.support.table import components, embed_text

NAMES = ("olga", "ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal", "ivy")

# Whole events of computer games run inside one simulated minute: each computer move is its own
# transaction, so a round takes longer than SimCord's default 5 s to settle on a busy machine.
# On a busy machine running two test workers, one step can take more than a minute of real time.
pytestmark = pytest.mark.simcord(settle_timeout=40)  # a settle waits in real time for every timer due within it: none is due between 15 s and 60 s


def event_world(env, players: int = 9):
    guild = env.create_guild()
    channel = guild.create_text_channel("events")
    staff = guild.create_role("staff", permissions=discord.Permissions(manage_guild=True))
    organizer = guild.add_member(env.create_user(NAMES[0]), roles=[staff])
    members = [guild.add_member(env.create_user(n)) for n in NAMES[1 : players + 1]]
    return guild, channel, organizer, members


def event_message(channel):
    for message in reversed(channel.history()):
        if message.author.bot and message.embeds and "🏆" in (message.embeds[0].title or ""):
            return message
    raise AssertionError("no event message")


def first_event_message(channel):
    return next(
        m for m in channel.history() if m.author.bot and m.embeds and "🏆" in (m.embeds[0].title or "")
    )


def button_id(message, verb: str) -> str:
    return next(
        c["custom_id"] for c in components(message) if c.get("custom_id", "").startswith(f"tt:ev:{verb}:")
    )


def tournament_tables(bot, tournament_id: int):
    return bot.tournaments.service.store.round_tables(tournament_id)


async def create_swiss(organizer, channel, **extra):
    options = dict(game="donguri", name="Autumn Cup", format="swiss", rounds=3, table_size=3, clock=60)
    options.update(extra)
    result = await organizer.slash(channel, "tournament create", **options)
    assert result.ephemeral
    return first_event_message(channel)


async def sign_up_all(message, members):
    for member in members:
        await member.click(message, custom_id=button_id(message, "join"))


async def run_until_finished(env, bot, tournament_id: int, limit: int = 200) -> None:
    """Let every clock run out: computers move for the absent players until the event ends."""
    for _ in range(limit):
        tournament = await bot.tournaments.service.get(tournament_id)
        if tournament.status == "finished":
            return
        await env.advance_time(61)
    raise AssertionError("the tournament did not finish")


@pytest.mark.slow  # a whole game or event; its subject has shorter cases in the fast lane
async def test_a_swiss_event_of_nine_players_at_three_seat_tables(simcord_env, simcord_bot):
    _guild, channel, organizer, members = event_world(simcord_env)
    signup = await create_swiss(organizer, channel, pairing="repeats")
    assert "Sign-up is open" in embed_text(signup)
    assert "repeat tablemates avoided first" in embed_text(signup)
    await sign_up_all(signup, members)
    signup = first_event_message(channel)
    assert "Players (9)" in embed_text(signup)
    # A player who is not the organizer cannot start it; the organizer can.
    refused = await members[0].click(signup, custom_id=button_id(signup, "start"))
    assert refused.ephemeral and "Only the organizer" in refused.response.content
    await organizer.click(signup, custom_id=button_id(signup, "start"))

    tournament_id = int(button_id(signup, "drop").split(":")[-1])
    rows = await tournament_tables(simcord_bot, tournament_id)
    assert [len(r.players) for r in rows] == [3, 3, 3]
    # Every table is open, in a thread of its own, with each player's hand by DM and a ping.
    announcement = next(m for m in channel.history() if "Round 1" in (m.content or ""))
    for member in members:
        assert announcement.content.count(member.mention) == 1
        hands = [m for m in member.user.dm_channel.history() if m.author.bot and m.components]
        assert hands, f"{member.name} got no hand"
    assert len(channel.threads) == 3

    await run_until_finished(simcord_env, simcord_bot, tournament_id)

    rounds = await tournament_tables(simcord_bot, tournament_id)
    assert sorted({r.round for r in rounds}) == [1, 2, 3]
    met = Counter()
    for number in (1, 2, 3):
        seated = [p for r in rounds if r.round == number for p in r.players]
        assert sorted(seated) == sorted(m.id for m in members), "everyone plays once each round, no byes"
        for r in rounds:
            if r.round == number:
                met.update(frozenset(pair) for pair in combinations(r.players, 2))
    assert max(met.values()) == 1, "nobody shares a table twice in three rounds"

    posts = [
        m for m in channel.history() if m.author.bot and m.embeds and "Standings after" in m.embeds[0].title
    ]
    finals = [
        m for m in channel.history() if m.author.bot and m.embeds and "Final standings" in m.embeds[0].title
    ]
    assert len(posts) == 2 and len(finals) == 1, "standings after each round, once"
    assert all(m.attachments for m in posts + finals), "standings come as an image too"
    final_text = embed_text(finals[0])
    for member in members:
        assert member.user.name in final_text or member.name in final_text
    assert "🥇" in final_text
    # One live standings message, pinned, edited as each table ended; the event message names the winner.
    live = [m for m in channel.history() if m.author.bot and m.embeds and "Live standings" in m.embeds[0].title]
    assert len(live) == 1 and "round 3: 3 of 3 tables done" in live[0].embeds[0].title
    assert live[0].pinned and live[0].attachments
    assert "🏆 Winner:" in embed_text(first_event_message(channel))
    assert any(m.embeds and "🏆 Autumn Cup champion" in (m.embeds[0].title or "") for m in channel.history())

    # Everyone was rated three times; the leaderboard shows them.
    board = await members[0].slash(channel, "leaderboard", game="donguri")
    assert embed_text(board.response).count(" of 3") == 9

    # The export has one row per player per round.
    exported = await organizer.slash(channel, "tournament export", kind="csv")
    assert exported.ephemeral
    data = await exported.response.attachments[0].read()
    lines = list(csv.reader(io.StringIO(data.decode())))
    results = lines[1 : lines.index([])]
    assert len(results) == 27
    exported = await organizer.slash(channel, "tournament export", kind="json")
    event = json.loads(await exported.response.attachments[0].read())
    assert event["status"] == "finished" and len(event["tables"]) == 9 and len(event["standings"]) == 9
    assert [s["rank"] for s in event["standings"]] == list(range(1, 10))


@pytest.mark.slow  # a whole game or event; its subject has shorter cases in the fast lane
async def test_restart_mid_round_then_the_event_runs_to_its_end(simcord_env, simcord_bot, restart):
    _guild, channel, organizer, members = event_world(simcord_env)
    signup = await create_swiss(organizer, channel, rounds=2)
    await sign_up_all(signup, members)
    await organizer.click(signup, custom_id=button_id(signup, "start"))
    tournament_id = int(button_id(signup, "drop").split(":")[-1])
    await simcord_env.advance_time(61)  # a first timeout at every table

    bot = await restart()
    # The event message's buttons still answer after the restart.
    leaver = members[0]
    answer = await leaver.click(first_event_message(channel), custom_id=button_id(signup, "drop"))
    assert answer.ephemeral and "left the tournament" in answer.response.content
    await run_until_finished(simcord_env, bot, tournament_id)

    rounds = await tournament_tables(bot, tournament_id)
    assert len([r for r in rounds if r.round == 1]) == 3, "round 1 was not opened twice"
    assert leaver.id not in {p for r in rounds if r.round == 2 for p in r.players}
    titles = [m.embeds[0].title for m in channel.history() if m.author.bot and m.embeds]
    assert len([t for t in titles if "Standings after round 1" in t]) == 1
    assert len([t for t in titles if "Final standings" in t]) == 1
    final = next(m for m in channel.history() if m.embeds and "Final standings" in m.embeds[0].title)
    assert "dropped" in embed_text(final)


async def test_sign_up_deadline_starts_the_event_and_manual_rounds_wait_for_the_organizer(
    simcord_env, simcord_bot
):
    _guild, channel, organizer, members = event_world(simcord_env, players=6)
    signup = await create_swiss(organizer, channel, rounds=2, signup_hours=2, auto_next=False)
    assert "Sign-up closes" in embed_text(signup)
    await sign_up_all(signup, members)
    twice = await members[0].click(signup, custom_id=button_id(signup, "join"))
    assert twice.ephemeral and "already signed up" in twice.response.content
    await simcord_env.advance_time(2 * 3600 + 1)
    tournament_id = int(button_id(signup, "drop").split(":")[-1])
    tournament = await simcord_bot.tournaments.service.get(tournament_id)
    assert tournament.status == "running" and tournament.round == 1, "the deadline started it"

    for _ in range(100):
        if (await simcord_bot.tournaments.service.get(tournament_id)).round_done == 1:
            break
        await simcord_env.advance_time(61)
    tournament = await simcord_bot.tournaments.service.get(tournament_id)
    assert tournament.round == 1, "round 2 waits for the organizer"
    event = first_event_message(channel)
    next_id = button_id(event, "next")
    refused = await members[1].click(event, custom_id=next_id)
    assert "Only the organizer" in refused.response.content
    await organizer.click(event, custom_id=next_id)
    assert (await simcord_bot.tournaments.service.get(tournament_id)).round == 2


async def test_only_organizers_create_and_bad_settings_are_explained(simcord_env, simcord_bot):
    _guild, channel, organizer, members = event_world(simcord_env, players=2)
    refused = await members[0].slash(channel, "tournament create", game="donguri", name="Mine")
    assert refused.ephemeral and "Only the organizer" in refused.response.content
    bad = await organizer.slash(channel, "tournament create", game="donguri", name="Cup", points="3,x")
    assert bad.ephemeral and "could not read the points" in bad.response.content
    assert not [m for m in channel.history() if m.author.bot and m.embeds], "nothing was created"


# Two whole games through the DMs (about 30 s); the ratings themselves are in the fast lane in
# tests/ratings and test_tournaments.py, the leaderboard in the Swiss event above.
@pytest.mark.slow
async def test_a_rated_casual_table_updates_ratings_and_an_unrated_one_does_not(simcord_env, simcord_bot):
    from tests.support.table import make_world, open_table, play_from_dm, table_message, to_act

    world = make_world(simcord_env)
    alice, bob, carol = world.members[:3]
    for rated in (True, False):
        lobby = await open_table(world, alice, "donguri", players=3, length="short", rated=rated)
        await bob.click(lobby, label="Join")
        await carol.click(lobby, label="Join")
        while to_act(world):
            await play_from_dm(to_act(world)[0])
        assert "Game over" in embed_text(table_message(world))
        notes = [m.content for m in world.channel.threads[-1].history() if "Ratings:" in (m.content or "")]
        if rated:
            assert len(notes) == 1 and notes[0].count("1000 →") == 3, "each player's change, once"
        else:
            assert notes == []
    profile = await bob.slash(world.channel, "profile")
    text = embed_text(profile.response)
    assert "Games\n1" in text, "only the rated table counts"
    assert profile.response.attachments, "with the rating chart"
    board = await carol.slash(world.channel, "leaderboard", game="donguri")
    assert embed_text(board.response).count(" of 1") == 3


async def test_a_final_quest_event_seats_fixed_pairs_in_channels_of_their_own(simcord_env, simcord_bot):
    guild, channel, organizer, members = event_world(simcord_env, players=8)
    signup = await create_swiss(
        organizer, channel, game="final_quest", table_size=4, rounds=1, option1="round_cap=2"
    )
    assert "Teams: fixed pairs" in embed_text(signup)
    await sign_up_all(signup, members)
    await organizer.click(signup, custom_id=button_id(signup, "start"))
    tournament_id = int(button_id(signup, "drop").split(":")[-1])
    tournament = await simcord_bot.tournaments.service.get(tournament_id)
    team = {e.user_id: e.team for e in tournament.entrants}
    rows = await tournament_tables(simcord_bot, tournament_id)
    assert len(rows) == 2
    for row in rows:
        table = await simcord_bot.service.table(row.table_id)
        assert table.thread_id is None and table.channel_id != channel.id, "a channel of its own"
        seats = [s.user_id for s in table.seats]
        assert team[seats[0]] == team[seats[2]] != team[seats[1]] == team[seats[3]]
    await run_until_finished(simcord_env, simcord_bot, tournament_id)
    results = await simcord_bot.tournaments.service.store.results(tournament_id)
    points = {r["user_id"]: r["points"] for r in results}
    for a, b in combinations(team, 2):
        if team[a] == team[b]:
            assert points[a] == points[b], "partners share their result"


async def test_a_round_deadline_reminds_then_computers_finish_the_open_tables(simcord_env, simcord_bot):
    _guild, channel, organizer, members = event_world(simcord_env)
    signup = await create_swiss(organizer, channel, rounds=2, clock=86400, round_hours=1)
    assert "at most 1 h" in embed_text(signup)
    await sign_up_all(signup, members)
    await organizer.click(signup, custom_id=button_id(signup, "start"))
    tournament_id = int(button_id(signup, "drop").split(":")[-1])
    tournament = await simcord_bot.tournaments.service.get(tournament_id)
    assert f"<t:{int(tournament.round_deadline)}:R>" in embed_text(first_event_message(channel))
    announcement = next(m for m in channel.history() if "Round 1" in (m.content or ""))
    assert f"<t:{int(tournament.round_deadline)}:F>" in announcement.content
    await simcord_env.advance_time(47 * 60)
    assert not [m for m in channel.history() if "please finish your games by then" in (m.content or "")]
    await simcord_env.advance_time(2 * 60)  # a fifth of the round is left
    reminders = [m for m in channel.history() if "please finish your games by then" in (m.content or "")]
    assert len(reminders) == 1 and all(m.mention in reminders[0].content for m in members)
    await simcord_env.advance_time(12 * 60)
    assert any("is past its time limit" in (m.content or "") for m in channel.history())
    tournament = await simcord_bot.tournaments.service.get(tournament_id)
    assert tournament.round == 2, "every table of round 1 ended and round 2 began"
    assert len(await simcord_bot.tournaments.service.store.recorded_tables(tournament_id)) == 3


async def test_the_organizer_sees_the_seating_swaps_two_players_and_confirms(simcord_env, simcord_bot):
    _guild, channel, organizer, members = event_world(simcord_env)
    signup = await create_swiss(organizer, channel, rounds=2, confirm_pairings=True)
    await sign_up_all(signup, members)
    await organizer.click(signup, custom_id=button_id(signup, "start"))
    tournament_id = int(button_id(signup, "drop").split(":")[-1])
    store = simcord_bot.tournaments.service.store
    event = first_event_message(channel)
    assert "checking the pairings" in embed_text(event) and not channel.threads, "no table opens before the confirmation"
    before = [r.players for r in await store.round_tables(tournament_id, 1)]
    by_id = {m.id: m for m in members}
    a, b = by_id[before[0][0]], by_id[before[1][0]]
    swapped = await organizer.slash(channel, "tournament swap", member=a, other=b)
    assert swapped.ephemeral and "trade places" in swapped.response.content
    after = [r.players for r in await store.round_tables(tournament_id, 1)]
    assert after[0][0] == b.id and after[1][0] == a.id
    same = await organizer.slash(channel, "tournament swap", member=a, other=by_id[after[1][1]])
    assert "already share a table" in same.response.content
    refused = await members[0].click(event, custom_id=button_id(event, "pairings"))
    assert "Only the organizer" in refused.response.content
    look = (await organizer.click(event, custom_id=button_id(event, "pairings"))).response
    assert look.ephemeral, "the seating is the organizer's to see"
    await organizer.click(look.message, custom_id=button_id(look, "confirm"))
    assert len(channel.threads) == 3
    rows = await store.round_tables(tournament_id, 1)
    table = await simcord_bot.service.table(rows[0].table_id)
    assert [s.user_id for s in table.seats] == after[0], "the tables open as confirmed"
    late = await organizer.slash(channel, "tournament swap", member=a, other=b)
    assert "already confirmed" in late.response.content


async def test_check_in_opens_before_the_start_and_no_shows_are_removed(simcord_env, simcord_bot):
    _guild, channel, organizer, members = event_world(simcord_env)
    signup = await create_swiss(organizer, channel, signup_hours=1, checkin_minutes=30)
    await sign_up_all(signup, members)
    assert "Check-in opens" in embed_text(first_event_message(channel))
    assert not any(c.get("custom_id", "").startswith("tt:ev:checkin:") for c in components(signup))
    await simcord_env.advance_time(31 * 60)
    call = next(m for m in channel.history() if "Check-in for Autumn Cup is open" in (m.content or ""))
    assert all(m.mention in call.content for m in members)
    event = first_event_message(channel)
    for member in members[:7]:
        done = await member.click(event, custom_id=button_id(event, "checkin"))
        assert "checked in" in done.response.content
    assert embed_text(first_event_message(channel)).count("✅ ") >= 7
    await simcord_env.advance_time(30 * 60)
    tournament_id = int(button_id(signup, "join").split(":")[-1])
    tournament = await simcord_bot.tournaments.service.get(tournament_id)
    assert tournament.status == "running"
    assert sorted(e.user_id for e in tournament.entrants) == sorted(m.id for m in members[:7])
    seated = {p for r in await tournament_tables(simcord_bot, tournament_id) for p in r.players}
    assert not seated & {m.id for m in members[7:]}


async def test_help_explains_seating_short_tables_each_tie_break_and_drops(simcord_env):
    _guild, channel, _organizer, members = event_world(simcord_env, players=1)
    shown = await members[0].slash(channel, "tournament help")
    assert shown.ephemeral
    text = embed_text(shown.response)
    for words in (
        "Group by standings",
        "Avoid repeats first",
        "at a table of 3, first scores 3.5",
        # Said once, why a score is not a whole number (issue 39).
        "This is why points can be fractional: halves come from shared places, other fractions from "
        "short tables; they are shown to one decimal.",
        "met players on 6, 2 and 4: 4.0",
        "as it stood when the event started",
        "ranks below everyone who played on",
    ):
        assert words in text, words
