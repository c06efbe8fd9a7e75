"""What Final Quest shows: the public view, each seat's observation, the records of facts and the
results, read from a ``FinalQuestEngine``; apart so that engine.py keeps to the rules."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .rules_core import NUM_SEATS, NUMBERS, PHASE_OVER, PHASE_REBUTTAL, TEAM_SEATS, TEAMS, card

if TYPE_CHECKING:
    from .engine import FinalQuestEngine

# Views carry the public facts of the last FACTS_WINDOW_TURNS turns (the current one included:
# everything since the viewer's own previous turn). The whole record grows without bound and every
# fact is also an event in the table's log; ``public_facts()`` returns all of them.
FACTS_WINDOW_TURNS = 4


def public_view(engine: FinalQuestEngine) -> dict[str, Any]:
    view: dict[str, Any] = {
        "game": engine.game_id,
        "phase": engine.phase,
        "turn_seat": engine.current,
        "to_act": engine.to_act(),
        "first_player": engine.first_player,
        "turn": engine.turns_taken + 1,
        "round": engine.round,
        "round_cap": engine.round_cap,
        "rebuttal_mode": engine.rebuttal_mode,
        "teams": list(TEAMS),
        "team_seats": [list(t) for t in TEAM_SEATS],
        "hand_counts": [len(h) for h in engine.hands],
        "centre_count": 1,
        "main_action": _copy(engine.main_action),
        "main_done": engine.main_action is not None,
        "pending": _copy(engine.pending),
        "public_cards": [[card(n) for n in sorted(s)] for s in engine.public_cards],
        "swaps": list(engine.swaps),
        "swap_total": sum(engine.swaps),
        "facts": recent_facts(engine),
        "facts_from_turn": max(1, engine.turns_taken + 2 - FACTS_WINDOW_TURNS),
        "facts_total": len(engine.facts),
        "shown_ever": [card(n) for n in sorted(engine.public_seen)],
        "outcome": engine.outcome,
        "winner_team": engine.winner_team,
        "winners": list(TEAM_SEATS[engine.winner_team]) if engine.winner_team is not None else [],
    }
    if engine.phase == PHASE_OVER:
        view["final_hands"] = [[card(n) for n in h] for h in engine.hands]
        view["final_centre"] = card(engine.centre)
    return view


def observation(engine: FinalQuestEngine, seat: int) -> dict[str, Any]:
    obs = engine.public_view()
    obs["seat"] = seat
    obs["team"] = TEAMS[seat]
    obs["partner"] = (seat + 2) % NUM_SEATS
    obs["hand"] = [card(n) for n in engine.hands[seat]]
    obs["centre_card"] = card(engine.centre) if engine.centre_placer == seat else None
    obs["private"] = recent_facts(engine, engine.private[seat])
    obs["private_total"] = len(engine.private[seat])
    obs["rebuttals_seen"] = {card(n): s for n, s in sorted(engine.rebuttals_seen[seat].items())}
    is_target = engine.phase == PHASE_REBUTTAL and engine.pending is not None and engine.pending["seat"] == seat
    obs["rebuttal_options"] = [card(n) for n in engine.rebuttal_numbers()] if is_target else []
    return obs


def hidden_from(engine: FinalQuestEngine, seat: int | None) -> set[str]:
    if engine.phase == PHASE_OVER:
        return set()  # every card is turned face up at the end
    known = engine.public_seen | (engine.seen[seat] if seat is not None else set())
    return {card(n) for n in NUMBERS if n not in known}


def recent_facts(engine: FinalQuestEngine, records: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The public facts (or ``records``) of the last ``FACTS_WINDOW_TURNS`` turns, as copies."""
    records = engine.facts if records is None else records
    first = engine.turns_taken + 2 - FACTS_WINDOW_TURNS
    start = len(records)
    while start > 0 and records[start - 1]["turn"] >= first:
        start -= 1
    return [_copy(f) for f in records[start:]]


def public_facts(engine: FinalQuestEngine) -> list[dict[str, Any]]:
    """The whole public record, oldest first (the views carry only the recent part)."""
    return [_copy(f) for f in engine.facts]


def private_facts(engine: FinalQuestEngine, seat: int) -> list[dict[str, Any]]:
    """The whole private record of ``seat`` (its swaps, asker-only rebuttals it gave or got)."""
    return [_copy(f) for f in engine.private[seat]]


def results(engine: FinalQuestEngine) -> dict[str, Any]:
    if engine.outcome == "win":
        assert engine.winner_team is not None
        ranks = [1 if TEAMS[s] == engine.winner_team else 2 for s in range(NUM_SEATS)]
        scores = [1 if TEAMS[s] == engine.winner_team else 0 for s in range(NUM_SEATS)]
    else:
        ranks = [1] * NUM_SEATS
        scores = [0] * NUM_SEATS
    return {
        "ranks": ranks,
        "scores": scores,
        "outcome": engine.outcome,
        "winner_team": engine.winner_team,
        "winners": list(TEAM_SEATS[engine.winner_team]) if engine.winner_team is not None else [],
        "final_quest": _copy(engine.final_quest_hit),
        "turns": engine.turns_taken + (1 if engine.outcome == "win" else 0),
        "rounds": engine.round if engine.outcome == "win" else engine.turns_taken // NUM_SEATS,
        "hands": [[card(n) for n in h] for h in engine.hands],
        "centre": card(engine.centre),
    }


def _copy(value: Any) -> Any:
    """A deep copy of plain JSON data, so views never alias engine state."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value
