"""The tournament service and ratings on a real database, without Discord: formats, teams,
drops, replacements, byes and rating updates. Tables are finished by handing every seat to a
computer, as the timeout policy does when nobody moves."""

from __future__ import annotations

import json
from collections import Counter
from itertools import combinations

import pytest

from bot.core.errors import UserError
from bot.storage.store import Seat


async def create(world, game="donguri", players=9, **settings):
    defaults = dict(
        guild_id=1,
        channel_id=2,
        organizer_id=3,
        game=game,
        name="Cup",
        format="swiss",
        rounds=None,
        table_size=None,
        points=None,
        clock=3600,
        on_timeout="computer_seat",
        signup_deadline=None,
        auto_next=True,
        advance=1,
        group_size=None,
        teams=None,
        language="en",
        seed=7,
    )
    defaults.update(settings)
    tournament = await world.events.create(**defaults)
    for i in range(players):
        await world.events.entrants.sign_up(tournament.id, (100 + i, f"p{i}"))
    return tournament


async def play_round(world, tournament_id):
    """Open the round's tables and let computers finish them; returns the finished tables."""
    tournament = await world.events.get(tournament_id)
    finished = []
    for table_id in await world.events.seating.open_tables(tournament):
        table = await world.tables.table(table_id)
        for seat in table.seats:
            await world.seat_ops.hand_to_computer(table_id, seat.user_id)
        await world.tables.play_computers(table_id)
        table = await world.tables.table(table_id)
        assert table.status == "finished"
        await world.ratings.settle(table)
        await world.events.record(table)
        finished.append(table)
    tournament = await world.events.get(tournament_id)
    assert await world.events.round_complete(tournament)
    return await world.events.close_round(tournament_id), finished


async def run_event(world, tournament_id):
    tournament = await world.events.start(tournament_id)
    while True:
        tournament, _ = await play_round(world, tournament.id)
        if tournament.status == "finished":
            return tournament
        tournament = await world.events.next_round(tournament.id)


async def test_final_quest_fixed_teams_sit_as_partners_and_share_results(world):
    tournament = await create(world, game="final_quest", players=8, rounds=2)
    assert tournament.teams == "fixed" and tournament.table_size == 4
    tournament = await world.events.start(tournament.id)
    teams = {e.user_id: e.team for e in tournament.entrants}
    assert sorted(Counter(teams.values()).values()) == [2, 2, 2, 2]
    tournament, tables = await play_round(world, tournament.id)
    results = await world.events.store.results(tournament.id)
    by_player = {r["user_id"]: r for r in results}
    for table in tables:
        players = [s.user_id for s in table.seats]
        assert teams[players[0]] == teams[players[2]] and teams[players[1]] == teams[players[3]]
        assert teams[players[0]] != teams[players[1]]
        # Partners share place and points; the other team is their opponents, not each other.
        for a, b in ((0, 2), (1, 3)):
            first, second = by_player[players[a]], by_player[players[b]]
            assert (first["place"], first["points"]) == (second["place"], second["points"])
            assert sorted(first["opponents"]) == sorted(players[s] for s in range(4) if s % 2 != a % 2)
        # Both partners' ratings moved the same way.
        outcome = json.loads(table.result)
        for side in ((0, 2), (1, 3)):
            movement = []
            for seat in side:
                player = await world.ratings.player(1, "final_quest", players[seat])
                movement.append(player.rating.mu > 25)
            assert movement[0] == movement[1]
            if outcome["outcome"] == "win":
                assert movement[0] == (outcome["winner_team"] == side[0] % 2)


async def test_final_quest_needs_an_even_number_for_fixed_teams(world):
    tournament = await create(world, game="final_quest", players=7)
    with pytest.raises(UserError) as error:
        await world.events.start(tournament.id)
    assert error.value.key == "tournament.error.odd_teams"


async def test_redrawn_teams_change_partners_each_round(world):
    tournament = await create(world, game="final_quest", players=4, rounds=3, teams="redraw")
    tournament = await run_event(world, tournament.id)
    partners = Counter()
    for row in await world.events.store.round_tables(tournament.id):
        partners.update(
            [frozenset((row.players[0], row.players[2])), frozenset((row.players[1], row.players[3]))]
        )
    assert len(partners) == 6 and set(partners.values()) == {1}, (
        "over three rounds everyone partners everyone"
    )


async def test_elimination_sends_table_winners_to_a_final_table(world):
    tournament = await create(world, players=9, format="elimination", table_size=3)
    tournament = await run_event(world, tournament.id)
    rows = await world.events.store.round_tables(tournament.id)
    last = tournament.round
    assert len([r for r in rows if r.round == 1]) == 3
    assert len([r for r in rows if r.round == last]) == 1, "it ends with one final table"
    finalists = next(r.players for r in rows if r.round == last)
    before = {r["user_id"] for r in await world.events.store.results(tournament.id) if r["round"] == last - 1}
    winners = {
        r["user_id"]
        for r in await world.events.store.results(tournament.id)
        if r["round"] == last - 1 and r["place"] == 1
    }
    assert set(finalists) <= before
    assert set(finalists) == winners or len(winners) < 3, (
        "table winners go through (a short final is topped up)"
    )
    standings = await world.events.ranking.standings(tournament)
    assert {s.player for s in standings[:3]} == set(finalists), "the final table ranks above everyone else"
    out = {e.user_id for e in tournament.entrants if e.status == "out"}
    assert len(out) >= 6


async def test_elimination_fills_a_short_final_with_the_best_knocked_out(world):
    tournament = await create(world, players=6, format="elimination", table_size=3)
    tournament = await run_event(world, tournament.id)
    final = [r for r in await world.events.store.round_tables(tournament.id) if r.round == 2]
    assert len(final) == 1 and len(final[0].players) == 3, "two winners plus one lucky loser"


async def test_round_robin_two_player_groups_meet_everyone_once(world):
    tournament = await create(world, game="othello_torite", players=4, format="round_robin", group_size=4)
    tournament = await run_event(world, tournament.id)
    assert tournament.rounds == 3
    met = Counter(frozenset(r.players) for r in await world.events.store.round_tables(tournament.id) if r.number)
    assert len(met) == 6 and set(met.values()) == {1}


async def first_round_table(world, k: int):
    """A nine-player, two-round event started with its round-1 tables open: the event and its
    ``k``-th table of the round."""
    tournament = await world.events.start((await create(world, players=9, rounds=2)).id)
    await world.events.seating.open_tables(tournament)
    return tournament, (await world.events.store.round_tables(tournament.id, 1))[k]


async def test_a_dropped_player_keeps_results_and_is_not_seated_again(world):
    tournament, row = await first_round_table(world, 0)
    leaver = row.players[0]
    _tournament, changed = await world.events.entrants.drop(tournament.id, leaver)
    table = await world.tables.table(row.table_id)
    assert changed == [row.table_id] and table.seats[table.seat_of(leaver)].away, "a computer plays on"
    tournament, _ = await play_round(world, tournament.id)
    tournament = await world.events.next_round(tournament.id)
    seated = {p for r in await world.events.store.round_tables(tournament.id, 2) for p in r.players}
    assert leaver not in seated
    assert len(seated) == 8
    standing = next(s for s in await world.events.ranking.standings(tournament) if s.player == leaver)
    assert standing.dropped and standing.played == 1


async def test_a_replacement_takes_over_the_seat_and_the_results(world):
    tournament, row = await first_round_table(world, 1)
    old = row.players[1]
    _tournament, changed = await world.events.entrants.replace(tournament.id, old, (999, "sub"))
    table = await world.tables.table(row.table_id)
    assert changed == [row.table_id] and table.seat_of(999) is not None and table.seat_of(old) is None
    tournament, _ = await play_round(world, tournament.id)
    results = {r["user_id"] for r in await world.events.store.results(tournament.id)}
    assert 999 in results and old not in results
    assert tournament.entrant(999).name == "sub"


async def test_late_entry_and_byes_rotate_in_swiss(world):
    tournament = await create(world, players=10, rounds=3, table_size=3)
    tournament = await world.events.start(tournament.id)
    byes = []
    for _ in range(3):
        tournament, _ = await play_round(world, tournament.id)
        rows = await world.events.store.round_tables(tournament.id, tournament.round)
        byes += [p for r in rows if r.number == 0 for p in r.players]
        if tournament.status == "finished":
            break
        tournament = await world.events.next_round(tournament.id)
    # Tables of three only: one of ten sits out each round, never the same player twice.
    assert len(byes) == 3 and len(set(byes)) == 3
    results = await world.events.store.results(tournament.id)
    assert len(results) == 30


async def test_byes_rotate_and_score_the_average_place(world):
    tournament = await create(world, game="othello_torite", players=5, rounds=5)
    tournament = await run_event(world, tournament.id)
    byes = [r["user_id"] for r in await world.events.store.results(tournament.id) if r["bye"]]
    assert sorted(byes) == [100, 101, 102, 103, 104], "five rounds, five different players sit out"
    points = {r["points"] for r in await world.events.store.results(tournament.id) if r["bye"]}
    assert points == {1.0}, "a bye is worth the average of 2 and 0 points"


async def test_swiss_avoids_repeat_tablemates(world):
    tournament = await create(world, players=9, rounds=3, table_size=3)
    tournament = await run_event(world, tournament.id)
    met = Counter()
    for row in await world.events.store.round_tables(tournament.id):
        met.update(frozenset(p) for p in combinations(row.players, 2))
    assert max(met.values()) == 1


async def test_organizer_settings_are_checked(world):
    with pytest.raises(UserError) as error:
        await create(world, table_size=7)
    assert error.value.key == "error.bad_size"
    with pytest.raises(UserError) as error:
        await create(world, points=[3, -1])
    assert error.value.key == "tournament.error.bad_points"
    with pytest.raises(UserError) as error:
        await create(world, options={"length": "endless"})
    assert error.value.key == "tournament.error.bad_options"
    with pytest.raises(UserError) as error:
        await create(world, format="elimination", table_size=3, advance=3)
    assert error.value.key == "tournament.error.bad_advance"


async def test_signing_up_twice_or_after_the_start_is_refused(world):
    tournament = await create(world, players=3, table_size=3)
    with pytest.raises(UserError) as error:
        await world.events.entrants.sign_up(tournament.id, (100, "p0"))
    assert error.value.key == "tournament.error.already_in"
    await world.events.start(tournament.id)
    with pytest.raises(UserError) as error:
        await world.events.entrants.sign_up(tournament.id, (500, "late"))
    assert error.value.key == "tournament.error.signup_closed"
    # The organizer may still add someone to a Swiss event: they play from the next round.
    tournament = await world.events.entrants.sign_up(tournament.id, (500, "late"), late=True)
    assert tournament.entrant(500).active


async def rated_table(world, game, users, ranks):
    """A finished rated table with the given seat ranks, as the platform stores it."""
    store = world.store
    table_id = await store.create_table(
        game=game,
        guild_id=1,
        channel_id=2,
        host_id=users[0] or 0,
        status="finished",
        size=len(users),
        options={},
        language="en",
        rated=1,
        result=json.dumps({"ranks": ranks, "scores": [0] * len(ranks)}),
    )
    await store.set_seats(table_id, [Seat(i, u, f"u{u}") for i, u in enumerate(users)])
    return await world.tables.table(table_id)


async def test_rating_a_tie_and_settling_only_once(world):
    table = await rated_table(world, "donguri", [1, 2, 3], [1, 1, 3])
    await world.ratings.settle(table)
    await world.ratings.settle(table)  # reported twice: applied once
    first, second, third = [await world.ratings.player(1, "donguri", u) for u in (1, 2, 3)]
    assert first.games == second.games == third.games == 1
    assert first.rating.mu == pytest.approx(second.rating.mu)
    assert first.rating.mu > 25 > third.rating.mu
    assert first.wins == second.wins == 1 and third.wins == 0


async def test_computer_seats_are_not_rated_and_do_not_count_as_places(world):
    table = await rated_table(world, "donguri", [None, 1, 2], [1, 2, 3])
    await world.ratings.settle(table)
    assert await world.ratings.player(1, "donguri", 1) is not None
    history = await world.ratings.history(1, "donguri", 2)
    assert (history[0]["place"], history[0]["places"]) == (3, 3), "the profile shows the table's place"
    # Among the humans, user 1 beat user 2: the computer that won does not drag them both down.
    assert (await world.ratings.player(1, "donguri", 1)).rating.mu > 25
    assert (await world.ratings.player(1, "donguri", 2)).rating.mu < 25


async def test_team_ratings_move_partners_together(world):
    table = await rated_table(world, "final_quest", [1, 2, 3, 4], [2, 1, 2, 1])
    await world.ratings.settle(table)
    mus = {u: (await world.ratings.player(1, "final_quest", u)).rating.mu for u in (1, 2, 3, 4)}
    assert mus[2] == pytest.approx(mus[4]) and mus[1] == pytest.approx(mus[3])
    assert mus[2] > 25 > mus[1]
