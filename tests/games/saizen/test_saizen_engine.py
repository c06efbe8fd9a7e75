"""Scenario and property tests for the Saizen engine (RULINGS.md §3, seeds/saizen.ja.txt).

Scenarios are built with ``table``: a seeded engine whose hands, leader and chip queue are then
overwritten, so each test states exactly the cards in play. Layout strings name the switches that
start on their second side, e.g. "S:playoff+free" = ♠ card with 決勝 and 自由 (others first side).
"""

from __future__ import annotations

import json
import random
import tomllib
from collections import Counter
from pathlib import Path

import pytest

from bot.core.engine import IllegalAction
from cogs.saizen.engine import SaizenEngine
from cogs.saizen.rules_core import parse_layout

# ---- helpers ---------------------------------------------------------------------------------


def table(hands, *, leader=0, layout="", jokers=0, pass_chips=True):
    """An engine whose hands are ``hands`` (seat order), ``leader`` leading round 1.

    Everyone passes the round-1 chip step unless ``pass_chips`` is False.
    """
    n = len(hands)
    e = SaizenEngine(n, 7, {"jokers": jokers, "layout": layout})
    e.hands = [list(h) for h in hands]
    e.start_player = e.leader = leader
    e.chip_queue = [(leader + k) % n for k in range(n)]
    if pass_chips:
        for seat in list(e.chip_queue):
            e.apply(seat, "pass")
    return e


def act(e, *actions):
    """Apply actions for whoever is to act; bare card codes mean ``play:<card>``. Returns events."""
    events = []
    for action in actions:
        if not action.startswith(("play:", "chip:")) and action != "pass":
            action = f"play:{action}"
        events += e.apply(e.to_act()[0], action)
    return events


def playable(e):
    """Card codes the seat to act may play now."""
    seat = e.to_act()[0]
    return sorted({a.split(":")[1] for a in e.legal_actions(seat)})


def refused(e, action):
    if not action.startswith(("play:", "chip:")) and action != "pass":
        action = f"play:{action}"
    before = json.dumps(e.public_view(), sort_keys=True)
    with pytest.raises(IllegalAction) as info:
        e.apply(e.to_act()[0], action)
    assert json.dumps(e.public_view(), sort_keys=True) == before
    return info.value


def codes(events):
    return [ev.code for ev in events]


def winner_of(events):
    won = [ev for ev in events if ev.code == "trick_won"]
    return won[-1].data["seat"] if won else None


# ---- setup, options, layout -----------------------------------------------------------------


@pytest.mark.parametrize(
    "n,jokers,sizes",
    [
        (2, 0, [26, 26]),
        (2, 1, [27, 26]),
        (3, 0, [18, 17, 17]),
        (4, 2, [14, 14, 13, 13]),
        (5, 0, [11, 11, 10, 10, 10]),
        (6, 1, [9, 9, 9, 9, 9, 8]),
    ],
)
def test_deal_all_cards_from_the_start_player(n, jokers, sizes):
    e = SaizenEngine(n, 42, {"jokers": jokers})
    start = e.start_player
    counts = [len(e.hands[(start + k) % n]) for k in range(n)]
    assert counts == sizes
    every = [c for h in e.hands for c in h]
    assert len(set(every)) == 52 + jokers
    assert sum(c.startswith("J") for c in every) == jokers
    view = e.public_view()
    assert view["phase"] == "chips" and view["chip_turn"] == start and view["leader"] == start
    assert view["round"] == 1 and e.deal_number == 1


def test_default_layout_is_first_sides_everywhere():
    view = SaizenEngine(3, 1).public_view()
    for suit in "SHDC":
        card = view["rule_cards"][suit]
        assert {sw: card[sw]["side"] for sw in card} == {
            "strength": "high",
            "tie": "later",
            "same": "ignore",
            "follow": "must",
            "win": "must_win",
        }
        assert not any(card[sw]["moved"] or card[sw]["second_side"] for sw in card)
    assert view["chips_left"] == 20


def test_custom_layout_string_and_list():
    e = SaizenEngine(3, 1, {"layout": "S:low+may, H:playoff *:free"})
    cards = e.public_view()["rule_cards"]
    assert cards["S"]["strength"]["side"] == "low" and cards["S"]["follow"]["side"] == "may"
    assert cards["H"]["same"]["side"] == "playoff" and cards["H"]["strength"]["side"] == "high"
    assert all(cards[s]["win"]["side"] == "free" for s in "SHDC")
    assert cards["D"]["same"]["side"] == "ignore"
    assert e.public_view()["layout"] == "S:low+may+free,H:playoff+free,D:free,C:free"
    assert parse_layout(["S:low", "D:earlier"]) == {("S", "strength"), ("D", "tie")}
    assert parse_layout("standard") == frozenset()


@pytest.mark.parametrize(
    "options", [{"jokers": 3}, {"jokers": "1"}, {"layout": "S:high"}, {"layout": "X:low"}, {"layout": "low"}]
)
def test_bad_options_are_refused(options):
    with pytest.raises(IllegalAction) as info:
        SaizenEngine(3, 1, options)
    assert info.value.code == "bad_option"


# ---- chip step --------------------------------------------------------------------------------


def test_chip_step_order_move_and_once_per_game():
    e = table([["S5", "S6"], ["S9", "S7"], ["S2", "S3"]], leader=1, pass_chips=False)
    assert e.to_act() == [1]
    assert e.public_view()["chip_order"] == [1, 2, 0]
    assert "pass" in e.legal_actions(1) and "chip:S:strength" in e.legal_actions(1)
    assert refused(e, "S9").code == "wrong_phase"
    events = act(e, "chip:S:strength")
    assert events[0].code == "chip_moved"
    assert events[0].data == {"seat": 1, "suit": "S", "switch": "strength", "side": "low"}
    view = e.public_view()
    assert view["rule_cards"]["S"]["strength"] == {"side": "low", "second_side": True, "moved": True}
    assert view["chip_turn"] == 2 and view["chips_left"] == 19
    # the moved chip is gone for everyone
    assert "chip:S:strength" not in e.legal_actions(2)
    err = refused(e, "chip:S:strength")
    assert err.code == "chip_already_moved" and err.params == {"suit": "S", "switch": "strength"}
    assert codes(act(e, "pass")) == ["chip_passed"]
    act(e, "chip:H:follow")
    assert e.public_view()["phase"] == "play" and e.to_act() == [1]
    # ♠ now low: the lowest spade wins
    events = act(e, "S9", "S2", "S5")
    assert winner_of(events) == 2


def test_chip_moves_a_custom_layout_back_to_the_first_side():
    e = table([["S5"], ["S9"]], layout="S:low", pass_chips=False)
    act(e, "chip:S:strength", "pass")
    assert e.public_view()["rule_cards"]["S"]["strength"]["side"] == "high"
    assert winner_of(act(e, "S5", "S9")) == 1


def test_chip_step_every_round_from_the_rounds_first_leader():
    # one card each: every round is one trick; the winner leads (and starts the chip step) next
    e = table([["S5"], ["S3"], ["S4"]], leader=2, pass_chips=False)
    assert e.to_act() == [2]
    act(e, "chip:D:tie", "pass", "pass")
    events = act(e, "S4", "S5", "S3")  # seat 0 wins with ♠5
    assert winner_of(events) == 0
    assert "round_started" in codes(events)
    view = e.public_view()
    assert view["round"] == 2 and view["phase"] == "chips" and view["chip_order"] == [0, 1, 2]
    assert "chip:D:tie" not in e.legal_actions(0)
    assert e.deal_number == 2


def test_chip_step_skipped_when_every_chip_has_moved():
    e = table([["S5", "S6"], ["S9", "S7"]], pass_chips=False)
    for suit in "SHDC":
        for sw in e.moved[suit]:
            e.moved[suit][sw] = (suit, sw) != ("C", "win")
    assert e.legal_actions(0) == ["pass", "chip:C:win"]
    events = act(e, "chip:C:win")
    assert codes(events) == ["chip_moved", "chips_exhausted"]
    assert e.public_view()["phase"] == "play" and e.to_act() == [0]


# ---- each switch on its own -----------------------------------------------------------------


def test_strength_high_led_suit_only():
    e = table([["S5", "S6"], ["S9", "S7"], ["H13", "D3"]], layout="S:free")
    assert winner_of(act(e, "S5", "S9", "H13")) == 1


def test_strength_low_ace_strongest():
    e = table([["S5", "S6"], ["S9", "S7"], ["S2", "S1"]], layout="S:low+free")
    assert winner_of(act(e, "S5", "S9", "S2")) == 2
    assert e.to_act() == [2]
    assert winner_of(act(e, "S1", "S6", "S7")) == 2


@pytest.mark.parametrize("tie,winner", [("", 2), ("+earlier", 1)])
def test_tie_later_or_earlier_decides_two_jokers(tie, winner):
    e = table([["S5", "S6"], ["J0", "S7"], ["J1", "S8"]], layout=f"S:free{tie}", jokers=2)
    assert winner_of(act(e, "S5", "J0", "J1")) == winner


def test_same_number_ignored():
    e = table([["S5", "S6"], ["H5", "H7"], ["S3", "S8"]], layout="S:free")
    events = act(e, "S5", "H5", "S3")
    assert "playoff_started" not in codes(events) and winner_of(events) == 0


def test_same_number_playoff_off_suit_pair_beats_a_single_card():
    e = table([["S5", "H2", "S1"], ["H5", "D9", "D1"], ["S13", "S8"]], layout="S:playoff+free")
    events = act(e, "S5", "H5", "S13")
    assert codes(events)[-1] == "playoff_started"
    assert events[-1].data == {"seats": [0, 1], "number": 5, "level": 1}
    view = e.public_view()
    assert view["phase"] == "playoff" and view["trick"]["playoff_seats"] == [0, 1]
    assert e.to_act() == [0] and e.legal_actions(2) == []
    # no following in a playoff: any card, numbers only
    assert playable(e) == ["H2", "S1"]
    events = act(e, "H2")
    assert e.to_act() == [1]
    events = act(e, "D9")
    assert winner_of(events) == 1
    won = next(ev for ev in events if ev.code == "trick_won")
    assert won.data == {"seat": 1, "trick": 1, "cards": ["S5", "H5", "S13", "H2", "D9"]}
    last = e.public_view()["last_trick"]
    assert last["winner"] == 1 and last["playoffs"][0]["plays"] == [
        {"seat": 0, "card": "H2"},
        {"seat": 1, "card": "D9"},
    ]
    assert e.public_view()["scores"] == [0, 1, 0]
    # the winner's cards lie face up, the losers' face down (every card of the trick, playoff included)
    assert e.public_view()["face_up"] == [[], ["H5", "D9"], []]
    assert e.public_view()["face_down_counts"] == [2, 0, 1]


def test_must_follow_and_void():
    e = table([["S5", "S6"], ["S9", "H13", "S2"], ["H1", "D3"]], layout="S:free")
    act(e, "S5")
    assert playable(e) == ["S2", "S9"]
    err = refused(e, "H13")
    assert err.code == "must_follow" and err.params == {"suit": "S"}
    act(e, "S2")
    assert playable(e) == ["D3", "H1"]  # void: anything


def test_may_follow():
    e = table([["S5", "S6"], ["S9", "H13", "S2"], ["H1", "D3"]], layout="S:may+free")
    act(e, "S5")
    assert playable(e) == ["H13", "S2", "S9"]
    assert winner_of(act(e, "H13", "H1")) == 0


def test_must_win_and_free():
    e = table([["S5", "S6"], ["S9", "S3", "H1"], ["S10", "S13", "S2"]])
    assert playable(e) == ["S5", "S6"]  # the leader is always free
    act(e, "S5")
    assert playable(e) == ["S9"]
    err = refused(e, "S3")
    assert err.code == "must_win" and err.params == {"cards": ["S9"], "card": "S9"}
    assert refused(e, "H1").code == "must_follow"
    act(e, "S9")
    # judged at the moment of play, no look-ahead: any winning card will do
    assert playable(e) == ["S10", "S13"]

    free = table([["S5", "S6"], ["S9", "S3", "H1"], ["S10", "S13", "S2"]], layout="S:free")
    act(free, "S5")
    assert playable(free) == ["S3", "S9"]


def test_must_win_without_a_winning_card_is_free():
    e = table([["S5", "S6"], ["S3", "S2", "H1"], ["S10", "S13"]])
    act(e, "S5")
    assert playable(e) == ["S2", "S3"]


def test_only_the_led_suits_rule_card_applies():
    # ♥ card is 自由+MAY, ♠ card is the standard one; a heart lead is judged by ♥
    e = table([["H5", "S6"], ["H9", "S3", "H2"], ["S10", "S13"]], layout="H:may+free")
    act(e, "H5")
    assert playable(e) == ["H2", "H9", "S3"]
    assert e.public_view()["trick"]["rules"]["follow"] == "may"


# ---- 決勝 + 必勝: the order of preference (seed §2.3.4) ------------------------------------------


def test_playoff_must_win_no_pair_wins_clean_first():
    # ♠5 led, ♥9 off-suit: ♠9 would pair (playoff); ♠7 wins without a playoff and is required
    e = table([["S5", "S1"], ["H9", "H4"], ["S9", "S7", "S2"], ["C1", "C2"]], layout="S:playoff")
    act(e, "S5")
    assert playable(e) == ["H4", "H9"]  # void, no 5: free
    act(e, "H9")
    assert playable(e) == ["S7"]
    err = refused(e, "S9")
    assert err.code == "must_win" and err.params["cards"] == ["S7"]
    act(e, "S7", "C1")
    assert e.public_view()["scores"] == [0, 0, 1, 0]


def test_playoff_must_win_no_pair_then_match_a_played_number():
    e = table([["S10", "S1"], ["H4", "H8"], ["S4", "S2", "S3"], ["C1", "C2"]], layout="S:playoff")
    act(e, "S10", "H4")
    assert playable(e) == ["S4"]
    err = refused(e, "S2")
    assert err.code == "must_pair" and err.params == {"cards": ["S4"], "card": "S4"}
    events = act(e, "S4", "C2")
    # the free ♥4 joins a playoff that beats the strongest single card ♠10
    assert events[-1].code == "playoff_started" and events[-1].data["seats"] == [1, 2]
    assert winner_of(act(e, "H8", "S3")) == 1


def test_playoff_must_win_matching_only_among_cards_the_follow_rule_allows():
    e = table([["S10", "S1"], ["H4", "H8"], ["S2", "S3", "D10", "D4"], ["C1", "C2"]], layout="S:playoff")
    act(e, "S10", "H4")
    assert playable(e) == ["S2", "S3"]  # no win, no legal match: free among spades
    assert refused(e, "D4").code == "must_follow"


def test_playoff_must_win_no_pair_nothing_matches_is_free():
    e = table([["S10", "S1"], ["H4", "H8"], ["S2", "S3"], ["C1", "C2"]], layout="S:playoff")
    act(e, "S10", "H4")
    assert playable(e) == ["S2", "S3"]


def pending_pair_table(last_hand):
    """♠6 led, ♥12 and ♦6 off-suit: a pair of 6s is pending and a 12 is on the table."""
    e = table([["S6", "S1"], ["H12", "H1"], ["D6", "D1"], last_hand], layout="S:playoff")
    act(e, "S6")
    assert playable(e) == ["H1", "H12"]  # void, no 6: free
    act(e, "H12")
    assert playable(e) == ["D6"]  # no clean win possible (void): must match
    act(e, "D6")
    return e


def test_playoff_must_win_pair_pending_make_a_stronger_pair():
    e = pending_pair_table(["S12", "S7", "S2", "S13"])
    assert playable(e) == ["S12"]
    err = refused(e, "S13")  # the strongest single card cannot beat a playoff
    assert err.code == "must_outpair" and err.params["cards"] == ["S12"]
    assert refused(e, "S7").code == "must_outpair"
    events = act(e, "S12")
    assert events[-1].data == {"seats": [1, 3], "number": 12, "level": 1}


def test_playoff_must_win_pair_pending_join_it():
    e = pending_pair_table(["C6", "C2", "C13"])
    assert playable(e) == ["C6"]
    err = refused(e, "C13")
    assert err.code == "must_join" and err.params == {"cards": ["C6"], "card": "C6"}
    events = act(e, "C6")
    assert events[-1].data == {"seats": [0, 2, 3], "number": 6, "level": 1}


def test_playoff_must_win_pair_pending_nothing_helps_is_free():
    e = pending_pair_table(["C2", "C13"])
    assert playable(e) == ["C13", "C2"]


def test_playoff_must_win_pair_pending_follow_rule_limits_the_join():
    e = pending_pair_table(["S2", "S13", "C6"])
    assert playable(e) == ["S13", "S2"]
    assert refused(e, "C6").code == "must_follow"


def test_must_win_binds_playoff_cards_numbers_only():
    # playoff between seats 0 and 1; in the playoff seat 1 must beat seat 0's 8 (any suit)
    e = table([["S5", "C8", "C1"], ["H5", "D9", "D3", "D8"], ["S1", "S2"]], layout="S:playoff")
    act(e, "S5")
    assert playable(e) == ["H5"]  # void, 5 matches: must_pair
    act(e, "H5", "S2")
    assert e.public_view()["phase"] == "playoff"
    assert playable(e) == ["C1", "C8"]  # first in the playoff round: free
    act(e, "C8")
    assert playable(e) == ["D9"]
    assert refused(e, "D8").code == "must_win"


def test_must_win_in_playoff_prefers_a_clean_win_over_a_new_pair():
    e = table([["S5", "C8", "C1"], ["H5", "D9", "D8"], ["S1", "S2"]], layout="S:playoff")
    act(e, "S5", "H5", "S2", "C1")
    assert playable(e) == ["D8", "D9"]  # both beat the ace, neither pairs
    e2 = table([["S5", "C8", "C1"], ["H5", "D1", "D2"], ["S1", "S2"]], layout="S:playoff")
    act(e2, "S5", "H5", "S2", "C8")
    assert playable(e2) == ["D1", "D2"]  # nothing beats or matches 8: free


def test_repeated_playoffs():
    e = table([["S5", "D9", "D2", "D4"], ["H5", "C9", "C3", "C4"]], layout="S:playoff+free")
    events = act(e, "S5", "H5")
    assert events[-1].data["level"] == 1
    events = act(e, "D9", "C9")
    assert events[-1].code == "playoff_started" and events[-1].data == {
        "seats": [0, 1],
        "number": 9,
        "level": 2,
    }
    assert e.to_act() == [0]
    events = act(e, "D2", "C3")
    assert winner_of(events) == 1
    last = e.public_view()["last_trick"]
    assert [p["number"] for p in last["playoffs"]] == [5, 9]
    assert e.public_view()["leader"] == 1


def test_three_way_playoff_repairs_among_two():
    e = table([["S5", "C9", "C1"], ["H5", "D13", "D1"], ["D5", "H9", "H1"]], layout="S:playoff+free")
    events = act(e, "S5", "H5", "D5")
    assert events[-1].data["seats"] == [0, 1, 2]
    events = act(e, "C9", "D13", "H9")  # a pair of 9s beats the lone king
    assert events[-1].data == {"seats": [0, 2], "number": 9, "level": 2}
    assert e.to_act() == [0] and e.legal_actions(1) == []
    events = act(e, "C1", "H1")  # aces pair again with both players' last cards
    at = codes(events).index("playoff_started")
    assert codes(events)[at : at + 5] == [
        "playoff_started",
        "playoff_out_of_cards",
        "playoff_out_of_cards",
        "trick_no_winner",
        "round_ended",
    ]
    assert events[at].data == {"seats": [0, 2], "number": 1, "level": 3}
    assert e.public_view()["scores"] == [0, 0, 0] and e.public_view()["leader"] == 0


def test_strongest_pair_number_holds_the_playoff_under_low():
    e = table([["S3", "S1"], ["H3", "H1"], ["D9", "D1"], ["C9", "C1"]], layout="S:low+playoff+free")
    events = act(e, "S3", "H3", "D9", "C9")
    assert events[-1].data["seats"] == [0, 1] and events[-1].data["number"] == 3
    e = table([["S3", "S1"], ["H3", "H1"], ["D9", "D1"], ["C9", "C1"]], layout="S:playoff+free")
    events = act(e, "S3", "H3", "D9", "C9")
    assert events[-1].data["seats"] == [2, 3]


def test_player_out_of_cards_in_a_playoff_loses():
    e = table([["S5", "H2"], ["H5", "C2", "C3"]], layout="S:playoff+free")
    act(e, "S5", "H5")
    events = act(e, "H2", "C2")  # pair again; seat 0 has no cards left
    at = codes(events).index("playoff_started")
    assert codes(events)[at : at + 4] == [
        "playoff_started",
        "playoff_out_of_cards",
        "trick_won",
        "round_ended",
    ]
    assert events[at + 1].data == {"seat": 0, "level": 2}
    assert winner_of(events) == 1
    assert "round_ended" in codes(events)  # seat 0's hand is empty after the trick
    assert e.public_view()["scores"] == [0, 1]
    assert e.public_view()["round"] == 2 and e.public_view()["chip_turn"] == 1


def test_out_of_cards_at_the_first_playoff_round_the_other_wins_without_playing():
    e = table([["S5"], ["H5", "C3"]], layout="S:playoff+free")
    events = act(e, "S5", "H5")
    assert winner_of(events) == 1
    assert [ev.data for ev in events if ev.code == "card_played"][-1]["card"] == "H5"


def test_everyone_out_of_cards_in_a_playoff_means_no_winner_every_round():
    # each round: ♠5 vs ♥5 with their last cards -> playoff nobody can play -> no winner
    e = table([["S5"], ["H5"]], leader=1, layout="S:playoff H:playoff")
    events = act(e, "H5", "S5")
    assert "trick_no_winner" in codes(events) and winner_of(events) is None
    assert e.public_view()["round"] == 2 and e.public_view()["chip_order"] == [1, 0]
    act(e, "pass", "pass")
    assert e.to_act() == [1]  # the same leader leads again
    assert e.hands == [["H5"], ["S5"]]
    events = act(e, "S5", "H5", "pass", "pass", "H5", "S5")
    assert e.is_terminal()
    assert e.results()["scores"] == [0, 0] and e.results()["ranks"] == [1, 1]


# ---- MAY + 必勝 (seed §2.3.5) --------------------------------------------------------------------


def test_may_with_must_win_cannot_keep_a_winning_card():
    e = table([["S5", "S6"], ["S9", "H13", "S2"], ["C1", "C2"]], layout="S:may")
    act(e, "S5")
    assert playable(e) == ["S9"]
    err = refused(e, "H13")
    assert err.code == "must_win" and err.params["cards"] == ["S9"]


def test_may_with_must_win_free_when_nothing_wins():
    e = table([["S5", "S6"], ["S2", "H13"], ["C1", "C2"]], layout="S:may")
    act(e, "S5")
    assert playable(e) == ["H13", "S2"]


def test_may_with_must_win_and_playoff_matches_with_any_card():
    e = table([["S5", "S6"], ["S2", "H5", "H13"], ["C1", "C2"]], layout="S:may+playoff")
    act(e, "S5")
    assert playable(e) == ["H5"]
    assert refused(e, "S2").code == "must_pair"


# ---- jokers ----------------------------------------------------------------------------------


def test_joker_follows_every_suit_and_must_be_played_when_void():
    e = table([["S5", "S6"], ["J0", "H3"], ["C1", "C2"]], layout="S:free", jokers=1)
    act(e, "S5")
    assert playable(e) == ["J0"]
    err = refused(e, "H3")
    assert err.code == "must_follow_joker" and err.params == {"suit": "S", "card": "J0"}
    assert winner_of(act(e, "J0", "C1")) == 1


def test_joker_with_led_suit_cards_either_follows():
    e = table([["S5", "S6"], ["J0", "S3", "H3"], ["C1", "C2"]], layout="S:free", jokers=1)
    act(e, "S5")
    assert playable(e) == ["J0", "S3"]


@pytest.mark.parametrize("layout", ["S:free", "S:low+free"])
def test_joker_strongest_under_high_and_low(layout):
    e = table([["S1", "S6"], ["J0", "H3"], ["S13", "C2"]], layout=layout, jokers=1)
    assert winner_of(act(e, "S1", "J0", "S13")) == 1


def test_lone_joker_does_not_beat_a_playoff():
    e = table([["S5", "S6"], ["J0", "H3"], ["H5", "C2"]], layout="S:playoff+free", jokers=1)
    events = act(e, "S5", "J0", "H5")
    assert events[-1].data["seats"] == [0, 2]


def test_two_jokers_form_the_strongest_playoff():
    e = table([["S13", "S6"], ["H13", "H3"], ["J0", "C2"], ["J1", "D2"]], layout="S:playoff+free", jokers=2)
    events = act(e, "S13", "H13", "J0", "J1")
    assert events[-1].data == {"seats": [2, 3], "number": "joker", "level": 1}


@pytest.mark.parametrize("tie,legal", [("", ["J1"]), ("S:earlier", ["J1", "S13"])])
def test_must_win_with_two_jokers_later_and_earlier(tie, legal):
    e = table([["S5", "S6"], ["J0", "S2"], ["J1", "S13"]], layout=tie, jokers=2)
    act(e, "S5")
    assert playable(e) == ["J0"]  # the joker wins: must
    act(e, "J0")
    assert playable(e) == legal
    if tie == "":
        assert refused(e, "S13").params["cards"] == ["J1"]


def test_must_win_playoff_second_joker_must_pair():
    e = table([["S5", "S6"], ["J0", "S2"], ["J1", "S9", "S13"]], layout="S:playoff", jokers=2)
    act(e, "S5", "J0")
    assert playable(e) == ["J1"]
    assert refused(e, "S13").code == "must_pair"


def test_joker_in_a_playoff_strongest_but_a_pair_beats_it():
    hands = [["S5", "J0", "S1"], ["H5", "C13", "C1"], ["D5", "C4", "D1"], ["C5", "D4", "H1"]]
    e = table(hands, layout="S:playoff+free", jokers=1)
    act(e, "S5", "H5", "D5", "C5")
    events = act(e, "J0", "C13", "C4", "D4")
    assert events[-1].data == {"seats": [2, 3], "number": 4, "level": 2}
    e = table(hands, layout="S:playoff+free", jokers=1)
    act(e, "S5", "H5", "D5", "C5")
    assert winner_of(act(e, "J0", "C13", "C4", "H1")) == 0


def test_joker_lead_names_the_suit():
    e = table([["J0", "H2"], ["H3", "S13"], ["H1", "C2"]], layout="H:low", jokers=1)
    actions = e.legal_actions(0)
    assert actions == ["play:H2", "play:J0:S", "play:J0:H", "play:J0:D", "play:J0:C"]
    assert refused(e, "play:J0").code == "joker_names_suit"
    assert refused(e, "play:H2:S").code == "bad_action"
    events = act(e, "play:J0:H")
    assert events[0].data == {"seat": 0, "card": "J0", "playoff": 0, "suit": "H"}
    trick = e.public_view()["trick"]
    assert trick["led_suit"] == "H" and trick["joker_lead"] and trick["rules"]["strength"] == "low"
    assert playable(e) == ["H3"]  # must follow the named suit
    assert refused(e, "S13").params == {"suit": "H"}
    assert refused(e, "play:H3:S").code == "bad_action"
    assert winner_of(act(e, "H3", "H1")) == 0  # the joker beats ♥A even under 小


def test_joker_lead_second_joker_later_wins():
    e = table([["J0", "H2"], ["J1", "H3"], ["H1", "C2"]], jokers=2)
    act(e, "play:J0:D")
    assert playable(e) == ["J1"]  # void in ♦, holds a joker; and it wins under 後
    assert winner_of(act(e, "J1", "H1")) == 1


# ---- rounds, passing, scoring -----------------------------------------------------------------


def test_round_ends_when_any_hand_is_empty_and_sets_pass_to_the_previous_seat():
    e = table([["S5", "S4"], ["S9", "S3", "H1"], ["S10"]], layout="S:free")
    events = act(e, "S5", "S3", "S10")
    assert codes(events)[3:] == ["trick_won", "round_ended"] + ["hand_passed"] * 3 + ["round_started"]
    passed = [ev.data for ev in events if ev.code == "hand_passed"]
    assert passed == [
        {"seat": 0, "target": 2, "count": 2},
        {"seat": 1, "target": 0, "count": 3},
        {"seat": 2, "target": 1, "count": 1},
    ]
    assert [sorted(h) for h in e.hands] == [["H1", "S3", "S9"], ["S10"], ["S4", "S5"]]
    view = e.public_view()
    assert view["round"] == 2 and view["leader"] == 2 and view["round_tricks"] == [[0, 0, 1], [0, 0, 0]]
    assert view["last_trick"] is None and view["face_up"] == [[], [], []]


def test_full_one_card_game_scores_and_ranks():
    e = table([["S5"], ["S3"]])
    act(e, "S5", "S3")  # p0 wins; sets swap
    act(e, "pass", "pass")
    assert e.hands == [["S3"], ["S5"]] and e.to_act() == [0]
    act(e, "S3", "S5")  # p1 wins
    act(e, "pass", "pass")
    assert e.to_act() == [1]
    events = act(e, "S3", "S5")
    assert codes(events)[-1] == "game_ended"
    assert e.is_terminal() and e.to_act() == []
    assert e.results() == {"ranks": [1, 2], "scores": [2, 1], "round_tricks": [[1, 0], [0, 1], [1, 0]]}
    assert e.public_view()["last_trick"]["winner"] == 0
    with pytest.raises(IllegalAction) as info:
        e.apply(0, "pass")
    assert info.value.code == "game_over"


def first_legal_game(n, seed, jokers):
    """Play a whole game (first legal action, chips passed) and record hands at each round start."""
    e = SaizenEngine(n, seed, {"jokers": jokers})
    starts = [[sorted(h) for h in e.hands]]
    passes = []
    while not e.is_terminal():
        seat = e.to_act()[0]
        events = e.apply(seat, e.legal_actions(seat)[0])
        if "round_ended" in codes(events):
            passes.append([ev.data for ev in events if ev.code == "hand_passed"])
        if "round_started" in codes(events):
            starts.append([sorted(h) for h in e.hands])
    return e, starts, passes


@pytest.mark.parametrize("n,jokers", [(2, 1), (3, 0), (5, 0)])
def test_hand_passing_over_three_rounds(n, jokers):
    e, starts, passes = first_legal_game(n, 11, jokers)
    assert len(starts) == 3 and len(passes) == 3
    sizes = [len(h) for h in starts[0]]
    assert len(set(sizes)) == 2  # unequal hands
    for r in range(2):
        for seat in range(n):
            # the whole set (hand + played cards) of seat+1 is seat's next hand
            assert starts[r + 1][seat] == starts[r][(seat + 1) % n]
    for r in range(3):
        expected = [{"seat": s, "target": (s - 1) % n, "count": len(starts[r][s])} for s in range(n)]
        assert passes[r] == expected
    results = e.results()
    assert sum(results["scores"]) == sum(sum(r) for r in results["round_tricks"])
    assert len(results["round_tricks"]) == 3 and e.deal_number == 3


def test_observation_shows_own_hand_only():
    e = SaizenEngine(4, 3, {"jokers": 2})
    for seat in range(4):
        obs = e.observation(seat)
        assert obs["hand"] == sorted(e.hands[seat], key=lambda c: ("SHDCJ".index(c[0]), int(c[1:])))
        others = e.hidden_from(seat)
        assert not set(obs["hand"]) & others
        assert len(others) == 54 - len(obs["hand"])
    assert e.hidden_from(None) == {c for h in e.hands for c in h}
    assert e.public_view()["hand_counts"] == [len(h) for h in e.hands]


def test_locale_has_every_code():
    catalog = tomllib.loads((Path(__file__).parents[3] / "cogs/saizen/locales/en.toml").read_text())["saizen"]
    seen_events, seen_errors = set(), set()
    rng = random.Random(5)
    for game in range(30):
        e = SaizenEngine(2 + game % 5, game, {"jokers": game % 3, "layout": LAYOUTS[game % len(LAYOUTS)]})
        while not e.is_terminal():
            seat = e.to_act()[0]
            legal = e.legal_actions(seat)
            obs = e.observation(seat)
            for card in obs.get("hand", []):
                if f"play:{card}" not in legal:
                    try:
                        e.apply(seat, f"play:{card}")
                    except IllegalAction as err:
                        seen_errors.add(err.code)
            seen_events |= {ev.code for ev in e.apply(seat, rng.choice(legal))}
    assert seen_events <= set(catalog["event"])
    assert seen_errors <= set(catalog["error"])
    assert {"must_win", "must_pair", "must_outpair", "must_join", "must_follow"} <= seen_errors


# ---- property test: legal moves respect the rule card in force --------------------------------

LAYOUTS = [
    "",
    "*:playoff",
    "*:may",
    "*:may+playoff",
    "*:low+playoff+earlier",
    "*:earlier",
    "*:free",
    "S:low+playoff H:may D:earlier+playoff C:free",
]


def reference_playable(obs):
    """Independent reading of the rules: the cards the seat to act must choose among.

    Returns (cards, branch) where branch names the rule that decided ("lead", "follow", "win",
    "pair", "outpair", "join", "free").
    """
    hand = obs["hand"]
    trick = obs["trick"]
    rules = trick["rules"]
    in_playoff = obs["phase"] == "playoff"
    if in_playoff:
        played = [p["card"] for p in trick["playoffs"][-1]["plays"]]
        led = None
    else:
        played = [p["card"] for p in trick["plays"]]
        led = trick["led_suit"]
    if not played:
        return set(hand), "lead"
    low = rules["strength"] == "low"

    def power(card):
        if card.startswith("J"):
            return 1000
        rank = int(card[1:])
        return 14 - rank if low else rank

    def num(card):
        return "joker" if card.startswith("J") else int(card[1:])

    def counts_as_following(card):
        return led is None or card.startswith("J") or card[0] == led

    if led is not None and rules["follow"] == "must" and any(counts_as_following(c) for c in hand):
        pool = {c for c in hand if counts_as_following(c)}
        branch = "follow"
    else:
        pool = set(hand)
        branch = "free"
    if rules["win"] == "free":
        return pool, branch

    if not in_playoff and rules["same"] == "ignore":

        def wins_now(card):
            seq = played + [card]
            contenders = [(power(x), i) for i, x in enumerate(seq) if counts_as_following(x)]
            top = max(p for p, _ in contenders)
            at_top = [i for p, i in contenders if p == top]
            chosen = at_top[-1] if rules["tie"] == "later" else at_top[0]
            return chosen == len(played)

        winners = {c for c in pool if wins_now(c)}
        return (winners, "win") if winners else (pool, branch)

    tally = Counter(num(c) for c in played)
    pair_numbers = [k for k, v in tally.items() if v > 1]

    def number_power(k):
        return 1000 if k == "joker" else (14 - k if low else k)

    if not pair_numbers:
        best = max((power(x) for x in played if counts_as_following(x)), default=-1)
        clean = {c for c in pool if counts_as_following(c) and num(c) not in tally and power(c) > best}
        if clean:
            return clean, "win"
        matches = {c for c in pool if num(c) in tally}
        return (matches, "pair") if matches else (pool, branch)
    pending = max(number_power(k) for k in pair_numbers)
    stronger = {c for c in pool if num(c) in tally and number_power(num(c)) > pending}
    if stronger:
        return stronger, "outpair"
    joins = {c for c in pool if tally[num(c)] > 1 and number_power(num(c)) == pending}
    return (joins, "join") if joins else (pool, branch)


BRANCH_CODES = {
    "win": "must_win",
    "pair": "must_pair",
    "outpair": "must_outpair",
    "join": "must_join",
}


@pytest.mark.parametrize("layout", LAYOUTS)
def test_property_legal_moves_respect_the_rule_card(layout):
    branches = Counter()
    for game in range(25):
        n = 2 + game % 5
        rng = random.Random(game)
        e = SaizenEngine(n, 100 + game, {"jokers": game % 3, "layout": layout})
        while not e.is_terminal():
            seat = e.to_act()[0]
            legal = e.legal_actions(seat)
            obs = e.observation(seat)
            if obs["phase"] in ("play", "playoff"):
                expected, branch = reference_playable(obs)
                branches[branch] += 1
                offered = {a.split(":")[1] for a in legal}
                assert offered == expected, (obs, legal)
                led = obs["trick"]["led_suit"]
                rules = obs["trick"]["rules"]
                # the property itself, stated directly
                if obs["phase"] == "play" and obs["trick"]["plays"] and rules["follow"] == "must":
                    if any(c[0] in (led, "J") for c in obs["hand"]):
                        assert all(c[0] in (led, "J") for c in offered)
                for card in set(obs["hand"]) - offered:
                    with pytest.raises(IllegalAction) as info:
                        e.apply(seat, f"play:{card}")
                    if branch in BRANCH_CODES:
                        assert info.value.code in (BRANCH_CODES[branch], "must_follow", "must_follow_joker")
                        if info.value.code == BRANCH_CODES[branch]:
                            assert set(info.value.params["cards"]) == expected
                    else:
                        assert info.value.code in ("must_follow", "must_follow_joker")
            e.apply(seat, rng.choice(legal))
    assert branches["lead"]
    if "may" not in layout:
        assert branches["follow"]
    if layout in ("", "*:may", "*:earlier"):
        assert branches["win"]
    if "playoff" in layout:
        assert branches["pair"] and branches["outpair"] + branches["join"]
