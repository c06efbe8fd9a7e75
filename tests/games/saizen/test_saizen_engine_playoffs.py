"""Saizen engine scenarios for playoffs (決勝), must-win with MAY, and jokers (seed §2.3.4-5)."""

from __future__ import annotations

import pytest

from tests.support.engines import codes
from tests.support.saizen_engine import act, playable, refused, table, winner_of

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
