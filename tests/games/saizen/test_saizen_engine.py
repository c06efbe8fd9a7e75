"""Scenario tests for the Saizen engine (RULINGS.md §3, seeds/saizen.ja.txt); playoffs and jokers are
in test_saizen_engine_playoffs.py, the random-game checks in test_saizen_engine_property.py.

Scenarios are built with ``table`` (tests/support/saizen_engine.py): a seeded engine whose hands,
leader and chip queue are then overwritten, so each test states exactly the cards in play. Layout
strings name the switches that start on their second side, e.g. "S:playoff+free" = ♠ card with 決勝
and 自由 (others first side).
"""

from __future__ import annotations

import pytest

from bot.core.engine import IllegalAction
from cogs.saizen.engine import SaizenEngine
from cogs.saizen.rules_core import parse_layout
from tests.support.engines import codes
from tests.support.saizen_engine import act, playable, refused, table, winner_of

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
    last = e.public_view()["last_trick"]
    assert won.data == {"seat": 1, "trick": 1, "cards": ["S5", "H5", "S13", "H2", "D9"], "record": last}
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
