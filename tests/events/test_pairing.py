"""Tests for tournament seating (bot/events/pairing.py), mostly on simulated events.

An event feeds each round's tables back in: random finishing places give points, standings are
sorted by points then a fixed random rating, and `met` / `byes_had` accumulate as the service would
keep them. Every random choice is seeded, so each event is the same on every run.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, combinations_with_replacement
from math import ceil

import pytest

from bot.events.pairing import (
    Round,
    advancing,
    choose_byes,
    draw_teams,
    elimination,
    met_counts,
    pair_key,
    round_robin,
    round_robin_groups,
    round_robin_rounds,
    swiss,
    table_sizes,
    team_seating,
)

# ---- helpers ---------------------------------------------------------------------------------


def repeated_pairs(met: Counter) -> int:
    """Meetings beyond the first, summed over pairs."""
    return sum(times - 1 for times in met.values() if times > 1)


def check_round(rnd: Round, units: list[int], size: int, min_size: int) -> None:
    seated = [u for table in rnd.tables for u in table]
    assert len(seated) == len(set(seated)), "a unit is seated twice"
    assert not set(seated) & set(rnd.byes), "a unit is seated and has a bye"
    assert sorted(seated + rnd.byes) == sorted(units), "a unit is missing or unknown"
    assert all(min_size <= len(table) <= size for table in rnd.tables)
    sizes, byes = table_sizes(len(units), size, min_size)
    assert sorted(map(len, rnd.tables), reverse=True) == sizes
    assert len(rnd.byes) == byes


class SwissEvent:
    def __init__(self, n: int, size: int, min_size: int, seed: int) -> None:
        self.rng = random.Random(seed)
        self.units = [100 + 7 * i for i in range(n)]  # ids unrelated to standing
        self.rating = {u: self.rng.random() for u in self.units}
        self.size, self.min_size, self.seed = size, min_size, seed
        self.points: Counter = Counter()
        self.met: Counter = Counter()
        self.byes_had: Counter = Counter()
        self.rounds: list[Round] = []

    def order(self) -> list[int]:
        return sorted(self.units, key=lambda u: (-self.points[u], -self.rating[u]))

    def play(self, order: list[int] | None = None) -> Round:
        order = self.order() if order is None else order
        rnd = swiss(order, self.size, self.min_size, self.met, self.byes_had, self.seed + len(self.rounds))
        check_round(rnd, self.units, self.size, self.min_size)
        for table in rnd.tables:
            finish = list(table)
            self.rng.shuffle(finish)
            for place, unit in enumerate(finish):
                self.points[unit] += len(table) - 1 - place
        for unit in rnd.byes:
            self.points[unit] += 1
            self.byes_had[unit] += 1
        self.met.update(met_counts(rnd.tables))
        self.rounds.append(rnd)
        return rnd


# ---- basics ----------------------------------------------------------------------------------


def test_pair_key_and_met_counts():
    assert pair_key(3, 5) == pair_key(5, 3)
    met = met_counts([[1, 2, 3], [2, 1], [4, 5]])
    assert met == Counter({pair_key(1, 2): 2, pair_key(1, 3): 1, pair_key(2, 3): 1, pair_key(4, 5): 1})


@pytest.mark.parametrize(
    ("n", "size", "min_size", "expected"),
    [
        (9, 3, 3, ([3, 3, 3], 0)),
        (10, 3, 3, ([3, 3, 3], 1)),
        (10, 4, 3, ([4, 3, 3], 0)),
        (7, 2, 2, ([2, 2, 2], 1)),
        (11, 4, 3, ([4, 4, 3], 0)),
        (2, 3, 3, ([], 2)),
        (5, 4, 3, ([4], 1)),
        (13, 6, 3, ([6, 4, 3], 0)),  # two short tables beat three ([5, 4, 4])
        (0, 4, 3, ([], 0)),
    ],
)
def test_table_sizes_examples(n, size, min_size, expected):
    assert table_sizes(n, size, min_size) == expected


def _short_tables_needed(n: int, size: int, min_size: int) -> tuple[int, int]:
    """Brute force over every multiset of table sizes: (fewest byes, then fewest short tables)."""
    best = (n, 0)
    for count in range(1, n // min_size + 1):
        for sizes in combinations_with_replacement(range(min_size, size + 1), count):
            if sum(sizes) <= n:
                best = min(best, (n - sum(sizes), sum(1 for s in sizes if s < size)))
    return best


def test_table_sizes_invariants_and_optimality():
    for size in range(2, 7):
        for min_size in range(2, size + 1):
            for n in range(0, 19):
                sizes, byes = table_sizes(n, size, min_size)
                assert sum(sizes) + byes == n
                assert all(min_size <= s <= size for s in sizes)
                assert sizes == sorted(sizes, reverse=True)
                short = [s for s in sizes if s < size]
                assert not short or max(short) - min(short) <= 1
                assert (byes, len(short)) == _short_tables_needed(n, size, min_size), (n, size, min_size)


def test_table_sizes_rejects_bad_bounds():
    with pytest.raises(ValueError):
        table_sizes(8, 3, 4)
    with pytest.raises(ValueError):
        table_sizes(8, 3, 1)


def test_choose_byes_prefers_fewest_byes_then_lowest_standing():
    order = [1, 2, 3, 4, 5]
    assert choose_byes(order, 2, {}) == [4, 5]
    assert choose_byes(order, 2, {5: 1}) == [3, 4]
    assert choose_byes(order, 1, {u: 1 for u in order} | {2: 0}) == [2]
    assert choose_byes(order, 0, {}) == []
    with pytest.raises(ValueError):
        choose_byes(order, 6, {})


# ---- Swiss -----------------------------------------------------------------------------------


def test_swiss_nine_at_three_seats_avoids_every_repeat():
    # Rounds 1-2 can always avoid repeats (each round-2 table takes one unit of each round-1 table);
    # over 4 rounds a 9-point affine plane makes zero repeats possible, and the search finds it here.
    for seed in range(15):
        event = SwissEvent(9, 3, 3, seed)
        for _ in range(4):
            event.play()
            if len(event.rounds) == 2:
                assert repeated_pairs(event.met) == 0
        assert repeated_pairs(event.met) == 0, seed


def test_swiss_round_two_avoids_repeats_whatever_the_standing():
    for seed in range(30):
        event = SwissEvent(9, 3, 3, seed)
        event.play()
        shuffled = list(event.units)
        random.Random(seed).shuffle(shuffled)
        event.play(shuffled)
        assert repeated_pairs(event.met) == 0, seed


def test_swiss_ten_at_four_seats_min_three():
    worst = [0] * 5
    for seed in range(15):
        event = SwissEvent(10, 4, 3, seed)
        for r in range(5):
            event.play()
            worst[r] = max(worst[r], repeated_pairs(event.met))
    # Round 2 must repeat once: the four from the round-1 table of 4 meet at three tables.
    assert worst[:2] == [0, 1]
    assert worst[2] <= 3 and worst[4] <= 16


def test_swiss_thirteen_at_three_seats_over_six_rounds():
    for seed in range(10):
        event = SwissEvent(13, 3, 3, seed)
        for r in range(6):
            event.play()
            if r < 3:
                assert repeated_pairs(event.met) == 0, (seed, r)
        assert repeated_pairs(event.met) <= 7, seed
        # 13 = 4 tables of 3 + 1 bye: six rounds give six different units a bye.
        assert sorted(event.byes_had.values()) == [1] * 6


def test_swiss_two_seats_is_ordinary_swiss():
    for seed in range(15):
        event = SwissEvent(7, 2, 2, seed)
        for _ in range(5):
            event.play()
        assert repeated_pairs(event.met) <= 1, seed
        assert max(event.byes_had.values()) == 1


def test_swiss_byes_rotate_before_anyone_gets_a_second():
    event = SwissEvent(10, 3, 3, seed=4)
    for r in range(10):
        rnd = event.play()
        assert len(rnd.byes) == 1
        assert max(event.byes_had.values()) == 1, f"second bye in round {r + 1}"
    assert set(event.byes_had) == set(event.units)


def test_swiss_bye_goes_to_the_lowest_standing():
    event = SwissEvent(10, 3, 3, seed=1)
    order = event.order()
    assert event.play(order).byes == [order[-1]]


def test_swiss_keeps_leaders_together_when_no_repeat_forces_otherwise():
    event = SwissEvent(12, 4, 4, seed=2)
    first = event.play()
    # Standing after round 1: winners, then runners-up, ... -- each block of four never met.
    order = [table[place] for place in range(4) for table in first.tables]
    rnd = event.play(order)
    assert rnd.tables == [order[0:4], order[4:8], order[8:12]]


def test_swiss_leader_table_when_two_leaders_already_met():
    event = SwissEvent(9, 3, 3, seed=3)
    first = event.play()
    a, b, c = first.tables[0]
    rest = [u for u in event.units if u not in (a, b, c)]
    order = [a, b] + rest + [c]  # the top two met in round 1
    rnd = event.play(order)
    assert rnd.tables[0][0] == a  # the leader stays at the top table ...
    assert not {b, c} & set(rnd.tables[0])  # ... without repeating a tablemate,
    assert rnd.tables[1][0] == b  # and the runner-up leads the next table.


def test_swiss_lists_tables_best_first_in_standing_order():
    event = SwissEvent(13, 4, 3, seed=5)
    for _ in range(3):
        order = event.order()
        rnd = event.play(order)
        rank = {u: i for i, u in enumerate(order)}
        assert [rank[t[0]] for t in rnd.tables] == sorted(rank[t[0]] for t in rnd.tables)
        assert all([rank[u] for u in t] == sorted(rank[u] for u in t) for t in rnd.tables)


def test_swiss_is_deterministic():
    def run() -> list[Round]:
        event = SwissEvent(11, 4, 3, seed=9)
        for _ in range(4):
            event.play()
        return event.rounds

    assert run() == run()


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
