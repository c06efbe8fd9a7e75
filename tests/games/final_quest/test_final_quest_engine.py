"""Scenario tests for the Final Quest engine (RULINGS.md §4, seeds/final_quest.ja.txt).

Scenarios are built with ``table``: a seeded engine whose hands, centre card and first player are
then overwritten, so each test states exactly the cards in play (cards are numbers 1..13 inside
the engine and codes ``D1``..``D13`` in views and events).
"""

from __future__ import annotations

import json
import random
import re
import tomllib
from pathlib import Path

import pytest

from bot.core.engine import IllegalAction
from cogs.final_quest import engine as fq_module
from cogs.final_quest.engine import (
    OPT_REBUTTAL,
    OPT_ROUND_CAP,
    QUESTIONS,
    REBUTTAL_ASKER,
    FinalQuestEngine,
    askq_action,
    fq_action,
    question_answer,
)

# ---- helpers ---------------------------------------------------------------------------------

HANDS = [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]]  # centre 13


def table(hands=HANDS, centre=13, first=0, **options):
    """An engine with ``hands`` (numbers, seat order), ``centre`` face down and ``first`` to play."""
    assert sorted([c for h in hands for c in h] + [centre]) == list(range(1, 14))
    e = FinalQuestEngine(4, 11, options)
    e.hands = [sorted(h) for h in hands]
    e.centre = centre
    e.first_player = e.current = first
    e.seen = [set(h) for h in e.hands]
    return e


def refused(e, seat, action):
    """Assert ``action`` is refused for ``seat`` and changes nothing; return the IllegalAction code."""
    before = json.dumps(e.public_view(), sort_keys=True)
    observations = [json.dumps(e.observation(s), sort_keys=True) for s in range(4)]
    with pytest.raises(IllegalAction) as info:
        e.apply(seat, action)
    assert json.dumps(e.public_view(), sort_keys=True) == before
    assert [json.dumps(e.observation(s), sort_keys=True) for s in range(4)] == observations
    return info.value.code


def leaves(value):
    """Every string leaf and dict key of JSON data."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set(value) | set().union(*(leaves(v) for v in value.values()))
    if isinstance(value, (list, tuple)):
        return set().union(*(leaves(v) for v in value))
    return set()


def codes(events):
    return [ev.code for ev in events]


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
    e = table(first=0)
    assert refused(e, 0, "fq:1:6.5.4") == "cards_not_sorted"
    assert refused(e, 0, "fq:1:4.4.5") == "cards_not_distinct"
    assert refused(e, 0, "fq:1:4.5") == "name_three"
    assert refused(e, 0, "fq:1:4.5.14") == "bad_card"
    assert refused(e, 0, "fq:0:1.2.3") == "target_self"
    assert refused(e, 0, "fq:4:1.2.3") == "bad_target"
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


# ---- turn structure --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "main,after",
    [
        ("ask:1", ["end", "show:1"]),
        ("askq:2:has:5", ["end", "show:1"]),
        ("fq:3:1.2.3", ["end", "show:1"]),
        # after a swap the table no longer knows that 3 stayed: it may be shown again
        ("swap:1", ["end", "show:13", "show:3"]),
    ],
)
def test_exactly_one_main_action_per_turn(main, after):
    e = table(first=0)
    assert refused(e, 0, "end") == "act_first"
    e.apply(0, "show:3")  # showing a card before the action is allowed
    e.apply(0, main)
    while e.to_act() != [0]:  # the asked / named seat responds (a decline would undo the action)
        seat = e.to_act()[0]
        e.apply(seat, [a for a in e.legal_actions(seat) if a != "decline"][-1])
    assert e.public_view()["main_done"] is True
    for again in ("ask:2", "askq:1:sum_even", "fq:1:4.5.7", "swap:2"):
        assert refused(e, 0, again) == "already_acted"
    e.apply(0, "show:2")  # and after it
    assert sorted(e.legal_actions(0)) == after
    events = e.apply(0, "end")
    assert events[0].code == "turn_started"
    assert events[0].data == {"seat": 1, "turn": 2, "round": 1}
    assert e.to_act() == [1] and e.public_view()["main_action"] is None


def test_free_question_only_the_asked_seat_answers():
    e = table(first=3)
    assert codes(e.apply(3, "ask:1")) == ["asked"]
    assert e.to_act() == [1]
    assert e.legal_actions(1) == ["answer:yes", "answer:no", "decline"]
    assert e.public_view()["pending"] == {"kind": "answer", "seat": 1, "asker": 3, "question": "free"}
    for seat in (0, 2, 3):
        assert refused(e, seat, "answer:yes") == "not_your_turn"
    assert refused(e, 1, "rebut:4") == "must_answer"
    events = e.apply(1, "answer:no")
    assert codes(events) == ["answered"]
    assert events[0].data == {"seat": 3, "target": 1, "answer": "no"}
    view = e.public_view()
    assert view["facts"][-1] == {
        "kind": "question",
        "turn": 1,
        "seat": 3,
        "target": 1,
        "question": "free",
        "answer": "no",
    }
    assert view["main_action"] == {"kind": "ask", "target": 1, "answer": "no"}
    assert e.to_act() == [3] and "end" in e.legal_actions(3)
    assert refused(e, 3, "answer:yes") == "not_asked"


@pytest.mark.parametrize(
    "question,params,target_hand,expected",
    [
        ("has", (5,), [4, 5, 6], True),
        ("has", (7,), [4, 5, 6], False),
        ("sum_even", (), [4, 5, 6], False),  # 15
        ("sum_even", (), [10, 11, 12], False),  # 33
        ("sum_even", (), [7, 8, 9], True),  # 24
        ("atleast", (2, 5), [4, 5, 6], True),
        ("atleast", (3, 5), [4, 5, 6], False),
        ("atleast", (1, 13), [10, 11, 12], False),
        ("sum_atleast", (15,), [4, 5, 6], True),
        ("sum_atleast", (16,), [4, 5, 6], False),
        ("evens", (2,), [4, 5, 6], True),
        ("evens", (1,), [7, 8, 9], True),
        ("evens", (2,), [7, 8, 9], False),
    ],
)
def test_structured_questions_are_answered_truthfully(question, params, target_hand, expected):
    target = next(s for s, h in enumerate(HANDS) if h == target_hand)
    asker = (target + 1) % 4
    e = table(first=asker)
    action = askq_action(target, question, *params)
    events = e.apply(asker, action)
    answer = "yes" if expected else "no"
    assert len(events) == 1 and events[0].code == f"q_{question}"
    names = [name for name, _ in QUESTIONS[question]]
    assert events[0].data == {
        "seat": asker,
        "target": target,
        "question": question,
        **dict(zip(names, params, strict=True)),
        "answer": answer,
    }
    assert e.public_view()["facts"][-1]["answer"] == answer
    assert e.to_act() == [asker] and e.public_view()["pending"] is None


def test_structured_answers_match_the_hand_over_every_question():
    rng = random.Random(3)
    for _ in range(30):
        e = FinalQuestEngine(4, rng.randrange(10**6))
        seat = e.first_player
        target = rng.choice([s for s in range(4) if s != seat])
        askqs = [a for a in e.legal_actions(seat) if a.startswith(f"askq:{target}:")]
        action = rng.choice(askqs)
        event = e.apply(seat, action)[0]
        truth = brute_force_answer(e.hands[target], event.data)
        assert event.data["answer"] == ("yes" if truth else "no"), action


def brute_force_answer(hand, data):
    """The answer of a structured question, written out independently of the engine."""
    n, k = data.get("n"), data.get("k")
    if data["question"] == "has":
        return n in hand
    if data["question"] == "sum_even":
        return sum(hand) % 2 == 0
    if data["question"] == "atleast":
        return len([c for c in hand if c >= n]) >= k
    if data["question"] == "sum_atleast":
        return sum(hand) >= n
    assert data["question"] == "evens"
    return len([c for c in hand if c % 2 == 0]) >= k


def test_bad_questions_and_targets_are_refused():
    e = table(first=0)
    assert refused(e, 0, "askq:1:colour") == "bad_question"
    assert refused(e, 0, "askq:1:atleast:4:5") == "bad_question"
    assert refused(e, 0, "askq:0:sum_even") == "target_self"
    assert refused(e, 0, "ask:0") == "target_self"
    assert refused(e, 0, "ask:x") == "bad_target"
    assert refused(e, 0, "swap:4") == "not_in_hand"
    assert refused(e, 0, "show:0") == "bad_card"
    assert refused(e, 0, "reveal") == "no_final_quest"
    assert refused(e, 0, "dance") == "unknown_action"
    assert refused(e, 1, "ask:2") == "not_your_turn"
    with pytest.raises(ValueError):
        question_answer([1, 2, 3], "colour", {})


# ---- rounds ----------------------------------------------------------------------------------


def test_round_cap_ends_in_a_draw_counting_rounds_from_the_first_player():
    e = table(first=2, **{OPT_ROUND_CAP: 2})
    seat = 2
    for turn in range(1, 9):
        view = e.public_view()
        assert view["turn"] == turn and view["round"] == (turn - 1) // 4 + 1
        assert e.to_act() == [seat]
        e.apply(seat, f"askq:{(seat + 1) % 4}:sum_even")
        events = e.apply(seat, "end")
        seat = (seat + 1) % 4
    assert codes(events) == ["round_cap_draw"] and events[0].data == {"rounds": 2}
    assert e.is_terminal()
    res = e.results()
    assert res["ranks"] == [1, 1, 1, 1] and res["scores"] == [0, 0, 0, 0]
    assert res["outcome"] == "draw" and res["winner_team"] is None and res["rounds"] == 2


def test_without_a_cap_the_game_goes_on():
    e = table(first=0)
    for turn in range(40):
        seat = turn % 4
        e.apply(seat, f"askq:{(seat + 1) % 4}:has:1")
        e.apply(seat, "end")
    assert not e.is_terminal() and e.public_view()["round"] == 11


def test_views_show_only_recent_facts_but_the_record_keeps_all():
    e = table(first=0)
    for turn in range(12):
        seat = turn % 4
        e.apply(seat, f"askq:{(seat + 1) % 4}:has:1")
        e.apply(seat, "end")
    view = e.public_view()
    assert view["facts_total"] == 12 and len(e.public_facts()) == 12
    assert [f["turn"] for f in view["facts"]] == [10, 11, 12]
    assert view["facts_from_turn"] == 10


# ---- replay, catalog ---------------------------------------------------------------------------


def test_replay_rebuilds_the_same_game():
    e = FinalQuestEngine(4, 99, {OPT_REBUTTAL: REBUTTAL_ASKER})
    chooser = random.Random(1)
    for _ in range(200):
        if e.is_terminal():
            break
        seat = e.to_act()[0]
        e.apply(seat, chooser.choice(e.legal_actions(seat)))
    again = FinalQuestEngine.replay(4, 99, {OPT_REBUTTAL: REBUTTAL_ASKER}, e.history)
    assert [again.observation(s) for s in range(4)] == [e.observation(s) for s in range(4)]
    assert again.public_facts() == e.public_facts()


def test_catalog_covers_every_event_and_error_code():
    root = Path(fq_module.__file__).parent
    catalog = tomllib.loads((root / "locales" / "en.toml").read_text(encoding="utf-8"))["final_quest"]
    source = Path(fq_module.__file__).read_text(encoding="utf-8")
    errors = set(re.findall(r'IllegalAction\("(\w+)"', source)) | {"not_your_turn", "game_over"}
    events = set(re.findall(r'Event\(\s*"(\w+)"', source)) | {f"q_{q}" for q in QUESTIONS}
    assert errors - set(catalog["error"]) == set()
    assert events - set(catalog["event"]) == set()
    assert set(QUESTIONS) <= set(catalog["question"])
    for phase in ("turn", "answer", "rebuttal", "over"):
        assert phase in catalog["phase"]
