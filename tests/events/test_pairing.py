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
    colour_order,
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
        return self.play_round(rnd)

    def play_round(self, rnd: Round) -> Round:
        """Random finishing places for a seated round, fed back into points, meetings and byes."""
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
        (13, 6, 3, ([5, 4, 4], 0)),  # tables one or two seats short beat a table three short
        (9, 6, 2, ([5, 4], 0)),  # Saizen: no byes when the game allows smaller tables
        (7, 4, 4, ([4], 3)),
        (0, 4, 3, ([], 0)),
    ],
)
def test_table_sizes_examples(n, size, min_size, expected):
    assert table_sizes(n, size, min_size) == expected


def _best_sizes(n: int, size: int, min_size: int) -> tuple[int, int, int]:
    """Brute force over every multiset of table sizes: fewest byes, then the smallest shortfall of
    the smallest table, then the most even, then fewest short tables."""
    best = (n, 0, 0, 0)
    for count in range(1, n // min_size + 1):
        for sizes in combinations_with_replacement(range(min_size, size + 1), count):
            if sum(sizes) <= n:
                short = sum(1 for s in sizes if s < size)
                best = min(best, (n - sum(sizes), size - min(sizes), max(sizes) - min(sizes), short))
    return best


def test_table_sizes_invariants_and_optimality():
    for size in range(2, 7):
        for min_size in range(2, size + 1):
            for n in range(0, 19):
                sizes, byes = table_sizes(n, size, min_size)
                assert sum(sizes) + byes == n
                assert all(min_size <= s <= size for s in sizes)
                assert sizes == sorted(sizes, reverse=True)
                assert not sizes or sizes[0] - sizes[-1] <= 1, "tables as even as possible"
                if sizes:
                    short = sum(1 for s in sizes if s < size)
                    key = (byes, size - min(sizes), sizes[0] - sizes[-1], short)
                    assert key == _best_sizes(n, size, min_size), (n, size, min_size)


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


# ---- the seating search ------------------------------------------------------------------------


def partitions(units: list[int], sizes: list[int]):
    """Every way to seat ``units`` at tables of ``sizes`` (tables of one size interchangeable)."""
    if not units:
        yield []
        return
    first, rest = units[0], units[1:]
    for size in sorted(set(sizes)):
        left = list(sizes)
        left.remove(size)
        for mates in combinations(rest, size - 1):
            remaining = [u for u in rest if u not in mates]
            for others in partitions(remaining, left):
                yield [[first, *mates], *others]


def repeats_in(tables: list[list[int]], met: Counter) -> int:
    return sum(met[pair_key(a, b)] for table in tables for a, b in combinations(table, 2))


@pytest.mark.parametrize(("n", "size", "min_size", "rounds"), [(13, 4, 3, 4), (10, 4, 3, 4), (11, 3, 3, 5)])
def test_avoid_repeats_mode_seats_the_fewest_repeats_possible(n, size, min_size, rounds):
    """Donguri round 4 had 5 repeated tablemate pairs where brute force finds 3 (issue 17)."""
    for seed in range(2 if n < 13 else 1):
        event = SwissEvent(n, size, min_size, seed)
        for _ in range(rounds):
            order = event.order()
            met_before = Counter(event.met)
            sizes, byes = table_sizes(n, size, min_size)
            bye_set = set(choose_byes(order, byes, event.byes_had))
            seated = [u for u in order if u not in bye_set]
            rnd = event.play(order)
            found = repeats_in(rnd.tables, met_before)
            if found:  # none is the least there can be; otherwise try every seating
                assert found == min(repeats_in(p, met_before) for p in partitions(seated, sizes))


def spread(tables: list[list[int]], points: Counter) -> float:
    return sum(max(points[u] for u in t) - min(points[u] for u in t) for t in tables) / len(tables)


def test_group_by_standings_keeps_late_rounds_grouped_where_avoiding_repeats_cannot():
    """13 players at tables of four: avoiding repeats first turns rounds 3-4 into random draws
    (issue 17: spread 3.5 against 3.57 for random seating); grouping by standings keeps the leaders
    together at a repeat's cost of about one place."""
    spreads = {"standings": [], "repeats": [], "random": []}
    leaders_together = 0
    for seed in range(8):
        for mode in ("standings", "repeats"):
            event = SwissEvent(13, 4, 3, seed)
            for number in range(4):
                order = event.order()
                points = {u: float(event.points[u]) for u in event.units}
                met_before = Counter(event.met)
                rnd = swiss(order, 4, 3, met_before, event.byes_had, seed, points, mode, place_value=1.0)
                if number == 3:
                    spreads[mode].append(spread(rnd.tables, event.points))
                    if mode == "standings":
                        top = rnd.tables[0]
                        leaders_together += set(order[:2]) <= set(top)
                        rng = random.Random(seed)
                        for _ in range(20):
                            shuffled = rng.sample(order, len(order))
                            cut = [shuffled[0:4], shuffled[4:7], shuffled[7:10], shuffled[10:13]]
                            spreads["random"].append(spread(cut, event.points))
                event.play(order) if mode == "repeats" else event.play_round(rnd)
    mean = {k: sum(v) / len(v) for k, v in spreads.items()}
    assert mean["standings"] < 0.7 * mean["random"], mean
    assert mean["standings"] < 0.75 * mean["repeats"], mean
    assert leaders_together >= 6, "the two leaders share the top table in the last round"


def test_which_tables_are_short_is_part_of_the_search():
    """A late entrant on 0 points must not sit with the leaders just because the only full table is
    the top one (issue 17)."""
    units = list(range(1, 14))
    points = {u: float(20 - u) for u in units[:12]} | {13: 0.0}
    rnd = swiss(units, 4, 3, Counter(), {}, 0, points, "standings", 4 / 3)
    top = rnd.tables[0]
    assert 13 not in top and set(top) >= {1, 2, 3}
    assert sorted(map(len, rnd.tables)) == [3, 3, 3, 4]


def test_two_seat_colours_alternate_and_balance():
    """Othello Swiss of eleven over five rounds: nobody gets the same colour three times running,
    and the colours stay balanced (issue 17 saw BBBBW)."""
    off = 0
    for seed in range(12):
        units = list(range(11))
        rng = random.Random(seed)
        points: Counter = Counter()
        met: Counter = Counter()
        byes: Counter = Counter()
        seats: dict[int, list[int]] = {u: [] for u in units}
        for number in range(5):
            order = sorted(units, key=lambda u: (-points[u], u))
            rnd = swiss(order, 2, 2, met, byes, number, dict(points), "repeats", 2.0, seats)
            for table in rnd.tables:
                first, second = colour_order(table, seats, seed * 100 + number)
                seats[first].append(0)
                seats[second].append(1)
                points[rng.choice((first, second))] += 2
            met.update(met_counts(rnd.tables))
            byes.update(rnd.byes)
        for unit, history in seats.items():
            runs = "".join(map(str, history))
            assert "000" not in runs and "111" not in runs, (seed, unit, runs)
            assert abs(history.count(0) - history.count(1)) <= 2, (seed, unit, runs)
            off += abs(history.count(0) - history.count(1)) == 2
    # Two more of one colour happens only to a player who had a bye (four games), when both players
    # of a pairing need the same colour and rematches are worse.
    assert off <= len(units) * 12 // 10, off
