"""Final Quest engine scenarios for the turn structure, questions, the round cap, replays and the
message catalog."""

from __future__ import annotations

import random
import re
import tomllib
from pathlib import Path

import pytest

from cogs.final_quest import engine as fq_module
from cogs.final_quest.engine import (
    OPT_REBUTTAL,
    OPT_ROUND_CAP,
    QUESTIONS,
    REBUTTAL_ASKER,
    FinalQuestEngine,
    askq_action,
    question_answer,
)
from tests.support.engines import codes
from tests.support.final_quest_engine import HANDS, refused, table

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
    assert e.public_view()["pending"] == {"kind": "answer", "seat": 1, "asker": 3, "question": "free", "at": 0}
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
        "at": 0,  # the move that asked it: the platform keeps its words under that number
    }
    assert view["main_action"] == {"kind": "ask", "target": 1, "at": 0, "answer": "no"}
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
