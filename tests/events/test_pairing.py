"""Tests for tournament seating (bot/events/pairing.py), mostly on simulated events
(the basics and Swiss here; other formats and the seating search in their own files).

An event feeds each round's tables back in: random finishing places give points, standings are
sorted by points then a fixed random rating, and `met` / `byes_had` accumulate as the service would
keep them. Every random choice is seeded, so each event is the same on every run.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations_with_replacement

import pytest

from bot.events.pairing import (
    Round,
    choose_byes,
    met_counts,
    pair_key,
    table_sizes,
)
from tests.support.pairing import SwissEvent, repeated_pairs

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
        (14, 6, 3, ([6, 4, 4], 0)),  # then the fewest short tables
        # Issue 49: "tables of 4" seated 15 to 30 players at tables of 3 only.
        (15, 4, 3, ([4, 4, 4, 3], 0)),
        (18, 4, 3, ([4, 4, 4, 3, 3], 0)),
        (21, 4, 3, ([4, 4, 4, 3, 3, 3], 0)),
        (27, 4, 3, ([4] * 6 + [3], 0)),
        (30, 4, 3, ([4] * 6 + [3, 3], 0)),
        (9, 6, 2, ([5, 4], 0)),  # Saizen: no byes when the game allows smaller tables
        (7, 4, 4, ([4], 3)),
        (0, 4, 3, ([], 0)),
    ],
)
def test_table_sizes_examples(n, size, min_size, expected):
    assert table_sizes(n, size, min_size) == expected


def _best_sizes(n: int, size: int, min_size: int) -> tuple[int, int, int, int]:
    """Brute force over every multiset of table sizes: fewest byes, then the smallest shortfall of
    the smallest table, then fewest short tables, then the most even short tables."""
    best = (n, 0, 0, 0)
    for count in range(1, n // min_size + 1):
        for sizes in combinations_with_replacement(range(min_size, size + 1), count):
            if sum(sizes) <= n:
                short = [s for s in sizes if s < size]
                spread = max(short) - min(short) if short else 0
                best = min(best, (n - sum(sizes), size - min(sizes), len(short), spread))
    return best


def test_table_sizes_invariants_and_optimality():
    for size in range(2, 7):
        for min_size in range(2, size + 1):
            for n in range(0, 31):
                sizes, byes = table_sizes(n, size, min_size)
                assert sum(sizes) + byes == n
                assert all(min_size <= s <= size for s in sizes)
                assert sizes == sorted(sizes, reverse=True)
                short = [s for s in sizes if s < size]
                assert not short or short[0] - short[-1] <= 1, "short tables as even as possible"
                if sizes:
                    spread = short[0] - short[-1] if short else 0
                    key = (byes, size - min(sizes), len(short), spread)
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
