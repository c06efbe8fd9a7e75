"""Scenario tests for the Final Quest engine (RULINGS.md §4, seeds/final_quest.ja.txt): set-up, the
Final Quest itself and swaps; turns, questions and rounds are in test_final_quest_engine_turns.py.

Scenarios are built with ``table`` (tests/support/final_quest_engine.py): a seeded engine whose
hands, centre card and first player are then overwritten, so each test states exactly the cards in
play (cards are numbers 1..13 inside the engine and codes ``D1``..``D13`` in views and events).
"""

from __future__ import annotations

import json
import random

import pytest

from bot.core.engine import IllegalAction
from cogs.final_quest.engine import (
    OPT_REBUTTAL,
    OPT_ROUND_CAP,
    REBUTTAL_ASKER,
    FinalQuestEngine,
    fq_action,
)
from tests.support.engines import codes
from tests.support.final_quest_engine import leaves, refused, table

# ---- setup -----------------------------------------------------------------------------------


def test_deal_uses_thirteen_cards_three_each_and_one_centre():
    e = FinalQuestEngine(4, 5)
    cards = sorted([c for h in e.hands for c in h] + [e.centre])
    assert cards == list(range(1, 14))
    assert [len(h) for h in e.hands] == [3, 3, 3, 3]
    view = e.public_view()
    assert view["hand_counts"] == [3, 3, 3, 3] and view["centre_count"] == 1
    assert view["teams"] == [0, 1, 0, 1] and view["team_seats"] == [[0, 2], [1, 3]]
    assert view["turn_seat"] == e.first_player and view["to_act"] == [e.first_player]
    assert view["round"] == 1 and view["turn"] == 1 and view["phase"] == "turn"
    assert e.observation(2)["partner"] == 0 and e.observation(1)["partner"] == 3
    assert e.observation(0)["hand"] == [f"D{n}" for n in e.hands[0]]


def test_first_player_is_random_and_seeded():
    firsts = {FinalQuestEngine(4, seed).first_player for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert FinalQuestEngine(4, 123).first_player == FinalQuestEngine(4, 123).first_player


def test_only_four_players_and_options_are_checked():
    with pytest.raises(IllegalAction):
        FinalQuestEngine(3, 1)
    with pytest.raises(IllegalAction) as info:
        FinalQuestEngine(4, 1, {OPT_REBUTTAL: "nobody"})
    assert info.value.code == "bad_option"
    for cap in (0, -1, "3", 2.5, True):
        with pytest.raises(IllegalAction):
            FinalQuestEngine(4, 1, {OPT_ROUND_CAP: cap})


def test_centre_and_other_hands_are_hidden_at_the_start():
    e = table()
    assert e.hidden_from(0) == {f"D{n}" for n in range(4, 14)}
    assert e.hidden_from(None) == {f"D{n}" for n in range(1, 14)}
    assert not {"D13"} & leaves(e.observation(1))
    assert e.observation(0)["centre_card"] is None


# ---- Final Quest -----------------------------------------------------------------------------


def test_exact_final_quest_on_an_opponent_wins_for_the_askers_team():
    e = table(first=0)
    events = e.apply(0, "fq:1:4.5.6")
    assert codes(events) == ["final_quest", "final_quest_correct"]
    assert events[0].data == {"seat": 0, "target": 1, "named": [4, 5, 6], "a": 4, "b": 5, "c": 6}
    assert events[1].data["team"] == 0 and events[1].data["winners"] == [0, 2]
    assert e.is_terminal() and e.to_act() == []
    res = e.results()
    assert res["ranks"] == [1, 2, 1, 2] and res["scores"] == [1, 0, 1, 0]
    assert res["outcome"] == "win" and res["winner_team"] == 0
    assert res["final_quest"] == {"seat": 0, "target": 1, "named": [4, 5, 6]}
    with pytest.raises(IllegalAction) as info:
        e.apply(0, "end")
    assert info.value.code == "game_over"


def test_exact_final_quest_on_the_partner_also_wins_for_the_askers_team():
    e = table(first=1)
    events = e.apply(1, "fq:3:10.11.12")
    assert codes(events)[-1] == "final_quest_correct"
    assert e.results()["ranks"] == [2, 1, 2, 1]
    assert e.public_view()["winners"] == [1, 3]
    # at the end every card is turned face up
    assert e.public_view()["final_hands"][3] == ["D10", "D11", "D12"]
    assert e.hidden_from(None) == set()


def test_a_wrong_guess_offers_exactly_the_refuting_cards():
    e = table(hands=[[1, 2, 13], [4, 5, 6], [7, 8, 9], [10, 11, 12]], centre=3, first=1)
    events = e.apply(1, "fq:0:1.2.3")
    assert codes(events) == ["final_quest", "final_quest_wrong"]
    assert e.to_act() == [0] and e.public_view()["phase"] == "rebuttal"
    assert e.public_view()["pending"] == {"kind": "rebuttal", "seat": 0, "asker": 1, "named": [1, 2, 3]}
    assert e.legal_actions(0) == ["rebut:13", "reveal"]
    assert e.observation(0)["rebuttal_options"] == ["D13"]
    assert e.observation(1)["rebuttal_options"] == []
    assert refused(e, 0, "rebut:1") == "not_a_rebuttal"
    assert refused(e, 0, "rebut:7") == "not_in_hand"
    assert refused(e, 0, "end") == "must_rebut"
    assert refused(e, 1, "end") == "not_your_turn"
    events = e.apply(0, "rebut:13")
    assert codes(events) == ["rebuttal"]
    assert events[0].data == {"seat": 1, "target": 0, "card": "D13"}
    view = e.public_view()
    assert view["public_cards"][0] == ["D13"] and "D13" in view["shown_ever"]
    assert view["facts"][-1] == {
        "kind": "final_quest",
        "turn": 1,
        "seat": 1,
        "target": 0,
        "named": [1, 2, 3],
        "response": "rebuttal",
        "card": "D13",
    }
    assert "D13" not in e.hidden_from(None) and "D13" not in e.hidden_from(2)
    # the turn returns to the asker, who may only show cards or end it
    assert e.to_act() == [1] and view["phase"] == "turn"
    assert sorted(e.legal_actions(1)) == ["end", "show:4", "show:5", "show:6"]
    assert codes(e.apply(1, "end")) == ["turn_started"]
    assert e.to_act() == [2]


def test_a_guess_missing_every_card_offers_all_three():
    e = table(first=0)
    e.apply(0, "fq:2:1.2.3")  # the asker may name its own cards
    assert e.legal_actions(2) == ["rebut:7", "rebut:8", "rebut:9", "reveal"]


def test_the_target_may_reveal_the_whole_hand_instead():
    e = table(first=2)
    e.apply(2, "fq:1:4.5.13")
    events = e.apply(1, "reveal")
    assert codes(events) == ["hand_revealed"]
    assert events[0].data == {"seat": 2, "target": 1, "cards": ["D4", "D5", "D6"]}
    view = e.public_view()
    assert view["public_cards"][1] == ["D4", "D5", "D6"]
    assert view["facts"][-1]["response"] == "reveal"
    assert not {"D4", "D5", "D6"} & e.hidden_from(None)
    for seat in range(4):
        assert {"D4", "D5", "D6"} <= leaves(e.observation(seat))
    assert not e.is_terminal() and e.to_act() == [2]


def test_final_quest_names_three_distinct_cards_in_order():
    """(Refused Final Quests: ``REFUSED`` in test_final_quest_engine_turns.py.)"""
    e = table(first=0)
    assert fq_action(1, [6, 5, 4]) == "fq:1:4.5.6"
    assert fq_action(1, (13, 1, 12)) in e.legal_actions(0)


def test_asker_only_rebuttal_stays_out_of_public_view_and_other_observations():
    e = table(first=0, **{OPT_REBUTTAL: REBUTTAL_ASKER})
    events = e.apply(0, "fq:1:4.5.13")
    events += e.apply(1, "rebut:6")
    assert codes(events) == ["final_quest", "final_quest_wrong", "rebuttal_private"]
    for ev in events:
        assert "D6" not in leaves(ev.data)
    assert "D6" not in leaves(e.public_view())
    assert "D6" in e.hidden_from(None)
    for seat in (2, 3):
        assert "D6" not in leaves(e.observation(seat))
        assert "D6" in e.hidden_from(seat)
    asker = e.observation(0)
    assert asker["private"] == [{"kind": "rebuttal", "turn": 1, "seat": 0, "target": 1, "card": "D6"}]
    assert asker["rebuttals_seen"] == {"D6": 1}
    assert "D6" not in e.hidden_from(0)
    assert e.observation(1)["private"] == asker["private"]
    assert e.public_view()["facts"][-1]["card"] is None
    assert e.public_view()["public_cards"][1] == []
    # the rebuttal card stays private: the target may still show it on its own turn
    e.apply(0, "end")
    assert "show:6" in e.legal_actions(1)


def test_events_never_carry_hidden_cards():
    """Random games in both rebuttal modes: no event mentions a card the table must not know."""
    for options in ({}, {OPT_REBUTTAL: REBUTTAL_ASKER}):
        for seed in range(6):
            e = FinalQuestEngine(4, seed, options)
            chooser = random.Random(seed)
            for _ in range(300):
                if e.is_terminal():
                    break
                seat = e.to_act()[0]
                events = e.apply(seat, chooser.choice(e.legal_actions(seat)))
                if not e.is_terminal():
                    for ev in events:
                        assert not leaves(ev.data) & e.hidden_from(None), (ev, options)
                        json.dumps(ev.data)


# ---- swap ------------------------------------------------------------------------------------


def test_swap_changes_the_hand_and_the_centre():
    e = table(first=0)
    events = e.apply(0, "swap:2")
    assert codes(events) == ["swapped"]
    assert events[0].data == {"seat": 0, "count": 1}
    assert e.hands[0] == [1, 3, 13] and e.centre == 2
    mine = e.observation(0)
    assert mine["hand"] == ["D1", "D3", "D13"]
    assert mine["centre_card"] == "D2"
    assert mine["private"] == [{"kind": "swap", "turn": 1, "gave": "D2", "took": "D13"}]
    view = e.public_view()
    assert view["swaps"] == [1, 0, 0, 0] and view["swap_total"] == 1
    assert view["facts"] == [{"kind": "swap", "turn": 1, "seat": 0}]
    assert view["main_action"] == {"kind": "swap"}
    for seat in (1, 2, 3):
        obs = e.observation(seat)
        assert obs["centre_card"] is None and obs["private"] == []
        assert {"D2", "D13"} <= e.hidden_from(seat)
        assert not {"D2", "D13"} & leaves(obs)
    assert not {"D2", "D13"} & leaves(view)


def test_the_centre_card_is_known_only_while_it_is_the_one_you_left():
    e = table(first=0)
    e.apply(0, "swap:2")
    e.apply(0, "end")
    e.apply(1, "swap:4")  # seat 1 takes D2 and leaves D4
    assert e.hands[1] == [2, 5, 6] and e.centre == 4
    assert e.observation(0)["centre_card"] is None
    assert e.observation(1)["centre_card"] == "D4"
    assert "D2" not in e.hidden_from(1)  # seat 1 now holds it
    assert "D4" in e.hidden_from(0) and "D2" not in e.hidden_from(0)


def test_a_swap_makes_the_table_forget_which_shown_cards_remain():
    e = table(first=0)
    e.apply(0, "show:1")
    assert e.public_view()["public_cards"][0] == ["D1"]
    assert refused(e, 0, "show:1") == "already_shown"
    e.apply(0, "swap:3")
    assert e.public_view()["public_cards"][0] == []
    assert "show:1" in e.legal_actions(0)
    assert "D1" in e.public_view()["shown_ever"]
