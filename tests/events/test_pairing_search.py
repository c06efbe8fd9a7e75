"""Tests for the seating search (bot/events/pairing.py): against brute force on small events, and
what it weighs (repeats, standings, short tables, two-seat colours)."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from bot.events.pairing import (
    Round,
    choose_byes,
    colour_order,
    met_counts,
    pair_key,
    swiss,
    table_sizes,
)
from tests.support.pairing import SwissEvent

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


class TwoSeatSwiss:
    """Eleven players of a two-seat game (Othello) through Swiss rounds, with the seats each took."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.units = list(range(11))
        self.rng = random.Random(seed)
        self.points: Counter = Counter()
        self.met: Counter = Counter()
        self.byes: Counter = Counter()
        self.seats: dict[int, list[int]] = {u: [] for u in self.units}

    def pair(self, number: int, order: list[int]) -> Round:
        return swiss(order, 2, 2, self.met, self.byes, number, dict(self.points), "repeats", 2.0, self.seats)

    def seat(self, rnd: Round, number: int) -> list[tuple[int, int]]:
        """Each table's (first, second) player; notes their seats, the meetings and the byes."""
        tables = []
        for table in rnd.tables:
            first, second = colour_order(table, self.seats, self.seed * 100 + number)
            self.seats[first].append(0)
            self.seats[second].append(1)
            tables.append((first, second))
        self.met.update(met_counts(rnd.tables))
        self.byes.update(rnd.byes)
        return tables


def test_two_seat_colours_alternate_and_balance():
    """Othello Swiss of eleven over five rounds: nobody gets the same colour three times running,
    and the colours stay balanced (issue 17 saw BBBBW; issue 49 two more of one colour)."""
    for seed in range(12):
        event = TwoSeatSwiss(seed)
        for number in range(5):
            rnd = event.pair(number, sorted(event.units, key=lambda u: (-event.points[u], u)))
            for first, second in event.seat(rnd, number):
                event.points[event.rng.choice((first, second))] += 2
        for unit, history in event.seats.items():
            runs = "".join(map(str, history))
            assert "000" not in runs and "111" not in runs, (seed, unit, runs)
            assert abs(history.count(0) - history.count(1)) <= 1, (seed, unit, runs)


def unmet_dues(tables: list[list[int]], seats: dict[int, list[int]]) -> tuple[int, int, int]:
    """How many players get the other seat than the one they are due, by how strongly they were
    due it: (must, should, would like to alternate)."""
    from bot.events.colours import colour_need

    unmet = [0, 0, 0]
    for table in tables:
        for seat, unit in enumerate(colour_order(table, seats, 0)):
            strength, due = colour_need(seats[unit])
            if strength and due != seat:
                unmet[3 - strength] += 1
    return unmet[0], unmet[1], unmet[2]


def plain(tables: list[list[int]], met: Counter, points: Counter) -> tuple[int, float]:
    """What a two-seat seating costs besides colours: its repeats and its spread of points."""
    repeats = sum(met[pair_key(a, b)] for a, b in tables)
    return repeats, sum(abs(points[a] - points[b]) for a, b in tables)


def test_of_two_seatings_otherwise_equal_the_one_giving_players_their_due_colours_is_chosen():
    """Issue 39: an 11-player Othello Swiss had a player go W B W W. Whenever another seating has
    as few repeats and as small a spread of points, it must not give players their due colour
    less often (checked against every seating of the round)."""
    for seed in range(25):
        event = TwoSeatSwiss(seed)
        points, met, seats = event.points, event.met, event.seats
        for number in range(4):
            order = sorted(event.units, key=lambda u: (-points[u], event.rng.random()))
            rnd = event.pair(number, order)
            seated = [u for u in order if u not in rnd.byes]

            chosen, dues = plain(rnd.tables, met, points), unmet_dues(rnd.tables, seats)
            for other in partitions(seated, [2] * (len(seated) // 2)):
                if plain(other, met, points) == chosen:
                    better = unmet_dues(other, seats)
                    assert not (
                        all(b <= d for b, d in zip(better, dues, strict=True)) and better != dues
                    ), (seed, number, rnd.tables, other)
            for first, second in event.seat(rnd, number):
                outcome = event.rng.random()
                if outcome < 0.45:
                    points[first] += 2
                elif outcome < 0.9:
                    points[second] += 2
                else:
                    points[first] += 1
                    points[second] += 1
            for unit in rnd.byes:
                points[unit] += 1


def test_a_29_player_round_does_not_depend_on_the_seed_of_the_search():
    """Issue 49: the seating search sometimes missed its own optimum with 29 players (one run of
    two 2-3% above the other). Rounds 3 and 4 of four 29-player events at tables of 4, avoiding
    repeats, each seated from three seeds: one to three points of spread between seeds in 4 of the 8
    rounds before (swaps and kicks only), none now; and no seating found leaves three neighbouring
    tables that an exact re-seating would make cheaper."""
    from bot.events import swiss_search
    from bot.events.swiss_exact import branch_and_bound

    apart = 0
    for event_seed in range(4):
        event = SwissEvent(29, 4, 3, event_seed)
        for number in range(4):
            order = event.order()
            sizes, byes = table_sizes(29, 4, 3)
            seated = [u for u in order if u not in set(choose_byes(order, byes, event.byes_had))]
            points = {u: float(event.points[u]) for u in event.units}
            if number >= 2:
                costs = swiss_search.seating_costs(seated, len(sizes), Counter(event.met), points, "repeats", 1.0)
                found = []
                for seed in range(3):
                    tables = swiss_search.seat(seated, sizes, costs, seed)
                    found.append(swiss_search.total(tables, costs))
                    ordered = sorted(tables, key=lambda t: min(costs.pos[u] for u in t))
                    for start in range(len(ordered) - 2):
                        run = ordered[start : start + 3]
                        units = sorted((u for t in run for u in t), key=costs.pos.__getitem__)
                        upper = sum(costs.table(t) for t in run)
                        better, _ = branch_and_bound(units, [len(t) for t in run], costs, upper, 3_000)
                        assert better is None, (event_seed, number, seed, run)
                apart += max(found) - min(found) >= costs.scale * swiss_search.POINT_STEPS
            rnd = swiss(order, 4, 3, event.met, event.byes_had, event_seed + number, points, "repeats", 1.0)
            event.play_round(rnd)
    assert apart == 0, apart
