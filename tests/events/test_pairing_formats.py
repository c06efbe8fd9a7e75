"""Tests for the round robin, elimination and team formats of tournament seating (bot/events/pairing.py)."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from math import ceil

import pytest

from bot.events.pairing import (
    Round,
    advancing,
    draw_teams,
    elimination,
    met_counts,
    pair_key,
    round_robin,
    round_robin_groups,
    round_robin_rounds,
    team_seating,
)
from tests.support.pairing import repeated_pairs

# ---- round robin -----------------------------------------------------------------------------


def test_round_robin_groups_snake():
    assert round_robin_groups(list(range(12)), 4) == [[0, 5, 6, 11], [1, 4, 7, 10], [2, 3, 8, 9]]
    groups = round_robin_groups(list(range(10)), 4)
    assert sorted(map(len, groups)) == [3, 3, 4]
    assert sorted(u for g in groups for u in g) == list(range(10))
    assert round_robin_groups(list(range(5)), 8) == [[0, 1, 2, 3, 4]]


def run_round_robin(groups, size, min_size, rounds, seed=0):
    """Plays `rounds` rounds; each round lists every group in a new order, as changing standings would."""
    units = [u for group in groups for u in group]
    group_of = {u: i for i, group in enumerate(groups) for u in group}
    shuffler = random.Random(seed)
    met: Counter = Counter()
    byes_had: Counter = Counter()
    for index in range(rounds):
        groups = [shuffler.sample(group, len(group)) for group in groups]
        rnd = round_robin(groups, size, min_size, met, byes_had, index, seed)
        rank = {u: i for group in groups for i, u in enumerate(group)}
        for table in rnd.tables:
            if size > 2:
                assert [rank[u] for u in table] == sorted(rank[u] for u in table), "seats not in given order"
        seated = [u for table in rnd.tables for u in table]
        assert sorted(seated + rnd.byes) == sorted(units)
        assert all(min_size <= len(table) <= size for table in rnd.tables)
        assert all(len({group_of[u] for u in table}) == 1 for table in rnd.tables), "groups mixed"
        met.update(met_counts(rnd.tables))
        byes_had.update(rnd.byes)
    return met, byes_had


@pytest.mark.parametrize(("n", "rounds"), [(6, 5), (5, 5)])
def test_round_robin_two_seats_every_pair_exactly_once(n, rounds):
    units = [40 + 3 * i for i in range(n)]
    assert round_robin_rounds(n, 2) == rounds
    met, byes_had = run_round_robin([units], 2, 2, rounds)
    assert met == Counter({pair_key(a, b): 1 for a, b in combinations(units, 2)})
    assert byes_had == (Counter() if n % 2 == 0 else Counter(units))


def test_round_robin_two_seats_schedule_repeats_after_a_cycle():
    units = [1, 2, 3, 4, 5, 6]
    first = round_robin([units], 2, 2, Counter(), {}, 0, seed=0)
    assert round_robin([units], 2, 2, Counter(), {}, 5, seed=0) == first
    assert round_robin([units], 2, 2, Counter(), {}, 1, seed=0) != first


def test_round_robin_two_seats_in_groups_stays_within_groups():
    groups = round_robin_groups(list(range(11)), 4)  # sizes 4, 4, 3
    rounds = max(round_robin_rounds(len(g), 2) for g in groups)
    met, _ = run_round_robin(groups, 2, 2, rounds)
    expected = {pair_key(a, b) for g in groups for a, b in combinations(g, 2)}
    assert set(met) == expected


def test_round_robin_nine_at_three_seats_meets_everyone():
    rounds = round_robin_rounds(9, 3, 3)
    assert rounds == 4  # what the search achieves; the 9-point affine plane says 4 is optimal
    units = [900 - 11 * i for i in range(9)]
    for seed in (0, 17):
        met, _ = run_round_robin([units], 3, 3, rounds, seed)
        assert set(met) == {pair_key(a, b) for a, b in combinations(units, 2)}
        assert repeated_pairs(met) == 0


@pytest.mark.parametrize(
    ("group_size", "size", "min_size"), [(7, 3, 3), (10, 4, 3), (8, 4, 4), (12, 4, 4), (11, 5, 3)]
)
def test_round_robin_multiplayer_round_count_suffices(group_size, size, min_size):
    rounds = round_robin_rounds(group_size, size, min_size)
    assert rounds >= ceil((group_size - 1) / (size - 1))
    assert round_robin_rounds(group_size, size) >= rounds  # no min_size: the safe maximum
    units = [1000 + 13 * i for i in range(group_size)]
    met, byes_had = run_round_robin([units], size, min_size, rounds, seed=5)
    assert set(met) == {pair_key(a, b) for a, b in combinations(units, 2)}
    if byes_had:
        assert max(byes_had.values()) - min(byes_had[u] for u in units) <= 1, "byes must rotate"


def test_round_robin_multiplayer_in_groups():
    groups = round_robin_groups(list(range(18)), 9)
    rounds = round_robin_rounds(9, 3, 3)
    met, _ = run_round_robin(groups, 3, 3, rounds)
    assert set(met) == {pair_key(a, b) for g in groups for a, b in combinations(g, 2)}


def test_round_robin_rounds_formula_for_two_seats():
    assert [round_robin_rounds(g, 2) for g in range(1, 9)] == [0, 1, 3, 3, 5, 5, 7, 7]
    assert round_robin_rounds(4, 4) == 1
    with pytest.raises(ValueError):
        round_robin_rounds(2, 4, 3)


# ---- elimination -----------------------------------------------------------------------------


def test_elimination_spreads_top_seeds():
    order = list(range(1, 17))
    rnd = elimination(order, 4, 4, {})
    assert rnd.tables == [[1, 8, 9, 16], [2, 7, 10, 15], [3, 6, 11, 14], [4, 5, 12, 13]]
    assert rnd.byes == []


def test_elimination_uneven_tables_snake():
    rnd = elimination(list(range(1, 11)), 4, 3, {})
    assert rnd.tables == [[1, 6, 7, 10], [2, 5, 8], [3, 4, 9]]


def test_elimination_byes_go_to_top_seeds():
    order = list(range(1, 11))
    rnd = elimination(order, 4, 4, {})
    assert rnd.byes == [1, 2]
    assert rnd.tables == [[3, 6, 7, 10], [4, 5, 8, 9]]
    # A top seed who already had a bye yields to the next seed.
    assert elimination(order, 4, 4, {1: 1}).byes == [2, 3]


def test_elimination_final_table():
    assert elimination([5, 3, 9, 1], 4, 4, {}) == Round(tables=[[5, 3, 9, 1]], byes=[])
    assert elimination([5, 3, 9], 4, 4, {}) == Round(tables=[[5, 3, 9]], byes=[])
    assert len(elimination([5, 3, 9, 1, 2], 4, 2, {}).tables) == 2
    with pytest.raises(ValueError):
        elimination([5], 4, 2, {})


def test_advancing():
    places = {10: 1, 11: 2, 12: 2, 13: 4}
    assert advancing(places, 1) == [10]
    assert advancing(places, 2) == [10, 11, 12]  # the tie at the cut lets both through
    assert advancing(places, 3) == [10, 11, 12]
    assert advancing(places, 0) == []
    assert advancing({7: 3, 8: 1, 9: 1, 6: 2}, 1) == [8, 9]
    assert advancing({7: 3, 8: 1, 9: 2}, 5) == [8, 9, 7]


# ---- teams -----------------------------------------------------------------------------------


def test_team_seating_rotates_partners():
    players = [4, 8, 15, 16]
    partnered: Counter = Counter()
    for _ in range(3):
        seats = team_seating(players, partnered)
        assert seats[0] == 4 and sorted(seats) == sorted(players)
        partnered[pair_key(seats[0], seats[2])] += 1
        partnered[pair_key(seats[1], seats[3])] += 1
    # Three rounds, three seatings: everyone partnered everyone else exactly once.
    assert partnered == Counter({pair_key(a, b): 1 for a, b in combinations(players, 2)})


def test_team_seating_avoids_a_known_partner():
    partnered = Counter({pair_key(1, 3): 2, pair_key(2, 4): 2, pair_key(1, 2): 1})
    assert team_seating([1, 2, 3, 4], partnered) == [1, 2, 4, 3]
    with pytest.raises(ValueError):
        team_seating([1, 2, 3], Counter())


def test_draw_teams():
    players = list(range(20, 30))
    teams = draw_teams(players, seed=3)
    assert sorted(u for team in teams for u in team) == players
    assert len(teams) == 5
    assert draw_teams(players, seed=3) == teams
    assert any(draw_teams(players, seed=s) != teams for s in range(4, 8))
    with pytest.raises(ValueError):
        draw_teams(players[:-1], seed=3)
