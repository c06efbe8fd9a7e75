"""How a Saizen trick ends (outright, by playoff, or with no winner) and how a round ends, as
functions of a ``SaizenEngine``; apart so that engine.py keeps to the turn flow."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.core.engine import Event

from .rules_core import (
    PHASE_OVER,
    PHASE_PLAYOFF,
    ROUNDS,
    number,
    number_label,
    outright_winner,
    sort_cards,
    strongest_pair,
)

if TYPE_CHECKING:
    from .engine import SaizenEngine


def resolve_main(engine: SaizenEngine, events: list[Event]) -> None:
    assert engine.trick is not None
    rules = engine.rules_for(engine.trick["led"])
    cards = [c for _, c in engine.trick["plays"]]
    if rules.playoff:
        pair = strongest_pair(cards, rules.low)
        if pair is not None:
            seats = [s for s, c in engine.trick["plays"] if number(c) == pair]
            _start_playoff(engine, seats, pair, events)
            return
    best = outright_winner(cards, engine.trick["led"], rules)
    assert best is not None  # the led card always follows
    _finish_trick(engine, engine.trick["plays"][best][0], events)


def resolve_playoff_round(engine: SaizenEngine, events: list[Event]) -> None:
    assert engine.trick is not None
    rules = engine.rules_for(engine.trick["led"])
    plays = engine.trick["playoffs"][-1]["plays"]
    cards = [c for _, c in plays]
    pair = strongest_pair(cards, rules.low)
    if pair is not None:
        _start_playoff(engine, [s for s, c in plays if number(c) == pair], pair, events)
        return
    best = outright_winner(cards, None, rules)
    assert best is not None
    _finish_trick(engine, plays[best][0], events)


def _start_playoff(engine: SaizenEngine, seats: list[int], pair: int, events: list[Event]) -> None:
    assert engine.trick is not None
    able = [s for s in seats if engine.hands[s]]
    out = [s for s in seats if not engine.hands[s]]
    level = len(engine.trick["playoffs"]) + 1
    events.append(
        Event("playoff_started", {"seats": seats, "number": number_label(pair), "level": level})
    )
    for s in out:
        events.append(Event("playoff_out_of_cards", {"seat": s, "level": level}))
    engine.trick["playoffs"].append(
        {"seats": able, "called": seats, "out": out, "number": pair, "plays": []}
    )
    if len(able) >= 2:
        engine.phase = PHASE_PLAYOFF
    elif len(able) == 1:
        _finish_trick(engine, able[0], events)
    else:
        _finish_trick(engine, None, events)


def _finish_trick(engine: SaizenEngine, winner: int | None, events: list[Event]) -> None:
    assert engine.trick is not None
    engine.trick_no += 1
    engine.closed_trick = (engine.trick, winner, engine.trick_no)
    seats_cards = list(engine.trick["plays"]) + [p for po in engine.trick["playoffs"] for p in po["plays"]]
    for s, _card in seats_cards:
        if s != winner:
            engine.face_down[s] += 1
    if winner is None:
        events.append(Event("trick_no_winner", {"trick": engine.trick_no, "seat": engine.leader}))
    else:
        engine.scores[winner] += 1
        engine.round_tricks[-1][winner] += 1
        engine.face_up[winner].extend(c for s, c in seats_cards if s == winner)
        events.append(
            Event(
                "trick_won",
                {"seat": winner, "trick": engine.trick_no, "cards": [c for _, c in seats_cards]},
            )
        )
        engine.leader = winner
    engine.trick = None
    if any(not hand for hand in engine.hands):
        _end_round(engine, events)
    else:
        engine.new_trick()


def _end_round(engine: SaizenEngine, events: list[Event]) -> None:
    n = engine.num_players
    sets = [engine.hands[s] + engine.played[s] for s in range(n)]
    # the round's final trick rides along: last_trick is cleared below, and the record shows it
    ended = {"round": engine.round_no, "tricks": list(engine.round_tricks[-1]), "last_trick": engine.last_trick}
    events.append(Event("round_ended", ended))
    for s in range(n):
        events.append(Event("hand_passed", {"seat": s, "target": (s - 1) % n, "count": len(sets[s])}))
    if engine.round_no >= ROUNDS:  # the final pass changes nothing; keep the table as it lies
        engine.phase = PHASE_OVER
        engine.chip_queue = []
        events.append(Event("game_ended", {"scores": list(engine.scores), "ranks": ranks(engine)}))
        return
    engine.hands = [sort_cards(sets[(s + 1) % n]) for s in range(n)]
    engine.played = [[] for _ in range(n)]
    engine.face_up = [[] for _ in range(n)]
    engine.face_down = [0] * n
    engine.closed_trick = None
    engine.trick_no = 0
    engine.round_no += 1
    engine.round_tricks.append([0] * n)
    engine.start_round(events)


def ranks(engine: SaizenEngine) -> list[int]:
    return [1 + sum(1 for other in engine.scores if other > mine) for mine in engine.scores]
