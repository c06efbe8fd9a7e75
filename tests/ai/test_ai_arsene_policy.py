"""The heuristic playout policy of Arsène (``cogs/arsene/policy.py``) in constructed positions.

Each seat aims at a trick count (RULINGS §1: t tricks rob shop t, an empty shop means the police),
wins tricks while below it, ducks once there, and pushes a trick that would overshoot.
"""

from __future__ import annotations

import random

from cogs.arsene import ai as arsene_ai
from cogs.arsene import policy
from cogs.arsene.engine import PHASE_PLAY, PHASE_PUSH, ArseneEngine


def mid_deal(tricks: list[int], shops: dict[int, list[int]], chips: list[int] | None = None) -> ArseneEngine:
    """Four players in the play phase with ``tricks`` won so far, the shops as given, trumps on."""
    e = ArseneEngine(4, 1, {})
    e.holdings.shops = {s: list(g) for s, g in shops.items()}
    e.holdings.chips = chips or [3, 3, 3, 3]
    e.phase, e.trumps, e.tricks, e.trick = PHASE_PLAY, True, list(tricks), []
    left = 11 - sum(tricks)
    e.hands = [["S2"] * left for _ in range(4)]  # sizes only; tests that play set real hands
    return e


SHOPS = {1: [1], 2: [], 3: [5], 4: [3], 5: []}


def test_a_seat_aims_at_the_richest_shop_it_can_reach_and_avoids_the_police():
    """Shop 3's group of 5 beats shop 4's 3 and shop 1's 1; shop 2 is empty and the seat has chips."""
    e = mid_deal([1, 0, 0, 0], SHOPS)
    assert policy.target(e, 0, left=10) == 3
    assert policy.count_value(e, 0, 2) == policy.POLICE
    # two tricks to go from 1: shop 3 is the best reachable; with one to go, staying beats the police
    assert policy.target(e, 0, left=2) == 3
    assert policy.target(e, 0, left=1) == 1
    # two tokens buy the escape: the police cost only the tokens then
    e.holdings.tokens[0] = 2
    assert policy.count_value(e, 0, 2) > policy.POLICE


def test_the_dummys_count_is_worth_little_with_three_players():
    """Sharing a shop with the dummy gives a token, no chips: the seat looks elsewhere."""
    e = ArseneEngine(3, 1, {})
    e.holdings.shops = {1: [1], 2: [1, 2, 3], 3: [1, 3, 5], 4: [1, 2, 3], 5: [1]}
    e.dummy_tricks = 2
    assert policy.count_value(e, 0, 2) == policy.SHARED_WITH_DUMMY
    e.dummy_tricks = 4
    assert policy.count_value(e, 0, 2) == 1.0


def push_position(tricks: list[int], shops: dict[int, list[int]]) -> ArseneEngine:
    """Seat 0 won the trick and may push it to seat 1 (same count)."""
    e = mid_deal(tricks, shops)
    e.phase, e.winner, e.push_target = PHASE_PUSH, 0, 1
    e.hands = [["S2"] * 3 for _ in range(4)]  # three tricks after this one
    e.tricks = list(tricks)
    return e


def test_a_winner_at_its_target_pushes_and_one_below_takes():
    """Seat 0 has 3 tricks and shop 3 holds 5 chips: a 4th trick would overshoot, so it pushes to
    seat 1 (also 3). With shop 4 the richer one, it takes the trick on its way there."""
    at_target = push_position([3, 3, 1, 0], {1: [1], 2: [1], 3: [5], 4: [1], 5: [1]})
    assert policy.push_choice(at_target, 0) == "push:1"
    below = push_position([3, 3, 1, 0], {1: [1], 2: [1], 3: [1], 4: [3], 5: [1]})
    assert policy.push_choice(below, 0) == "take"


def play_position(tricks: list[int], trick: list[tuple[int, str]], hand: list[str]) -> ArseneEngine:
    e = mid_deal(tricks, SHOPS)
    e.leader = trick[0][0] if trick else 0
    e.trick = list(trick)
    seat = (e.leader + len(trick)) % 4
    e.hands[seat] = list(hand)
    return e


def test_a_seat_with_enough_tricks_ducks_under_the_winning_card():
    """Seat 3 already has its 3 tricks: it plays the highest heart that still loses to the queen."""
    e = play_position([0, 1, 1, 3], [(0, "H12"), (1, "H2"), (2, "H5")], ["H1", "H11", "H9", "S3"])
    assert e.legal_actions(3) == ["play:H1", "play:H11", "play:H9"]
    assert policy.card_to_play(e, 3, want=False) == "H11"


def test_a_seat_that_needs_tricks_wins_as_cheaply_as_it_can_when_last():
    e = play_position([0, 1, 1, 1], [(0, "H12"), (1, "H2"), (2, "H5")], ["H1", "H13", "H9", "S3"])
    assert policy.card_to_play(e, 3, want=True) == "H13"
    # void in the led suit: the lowest trump that wins, never a trump when ducking
    e = play_position([0, 1, 1, 1], [(0, "H12"), (1, "D9"), (2, "H5")], ["D12", "D10", "D8", "S3"])
    assert policy.card_to_play(e, 3, want=True) == "D10"
    assert policy.card_to_play(e, 3, want=False) == "S3"


def test_a_leader_leads_high_to_win_and_low_to_duck():
    e = play_position([0, 1, 1, 1], [], ["S1", "H3", "C13", "D6"])
    assert policy.card_to_play(e, 0, want=True) == "S1"
    assert policy.card_to_play(e, 0, want=False) == "H3"


def test_hard_plays_the_deal_out_with_the_policy_and_charges_its_moves():
    """``hard`` simulates with the heuristic and values over more futures, each at its own
    calibrated cost; ``normal`` is unchanged (random playouts, 48 futures)."""
    assert arsene_ai.PLAYOUTS["hard"] is policy.policy
    assert arsene_ai.PLAYOUTS["normal"] is arsene_ai.playout
    assert arsene_ai.FUTURES_AT["normal"] == arsene_ai.FUTURES < arsene_ai.FUTURES_AT["hard"]
    e = ArseneEngine(4, 11, {})
    seat = e.to_act()[0]
    spent = {}
    for level in ("normal", "hard"):
        clock = arsene_ai.Clock(50_000)
        arsene_ai.choose(e, seat, level, 100, random.Random(3), clock)
        assert clock.spent() >= 50_000
        spent[level] = (clock.move_us, clock.futures, clock.spent() / max(len(clock.seen), 1))
    assert spent["normal"][:2] == (arsene_ai.MOVE_US, arsene_ai.FUTURES)
    assert spent["hard"][:2] == (arsene_ai.POLICY_MOVE_US, arsene_ai.FUTURES_AT["hard"])
    assert spent["hard"][2] > spent["normal"][2]  # a valuation over more futures costs more


def test_more_futures_extend_the_same_futures():
    """The first 48 of hard's futures are normal's (common random numbers): the values agree
    roughly, and a finer value is the average of the same kind of futures."""
    e = ArseneEngine(4, 5, {})
    e.holdings.chips = [6, 2, 2, 2]
    key = arsene_ai.position_key(e)
    coarse, fine = arsene_ai.future_values(key), arsene_ai.future_values(key, 192)
    assert coarse[0] > 0.5 and fine[0] > 0.5
    assert abs(sum(fine) - 1) < 1e-9 and abs(sum(coarse) - 1) < 1e-9
