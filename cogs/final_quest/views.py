"""What Final Quest shows: the public view, each seat's observation, the records of facts and the
results; mixed into ``FinalQuestEngine`` to keep engine.py to the rules."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .rules_core import NUM_SEATS, NUMBERS, PHASE_OVER, PHASE_REBUTTAL, TEAM_SEATS, TEAMS, card

if TYPE_CHECKING:
    from .engine import FinalQuestEngine

# Views carry the public facts of the last FACTS_WINDOW_TURNS turns (the current one included:
# everything since the viewer's own previous turn). The whole record grows without bound and every
# fact is also an event in the table's log; ``public_facts()`` returns all of them.
FACTS_WINDOW_TURNS = 4


class FinalQuestViews:
    """Mixed into ``FinalQuestEngine``."""

    def public_view(self: FinalQuestEngine) -> dict[str, Any]:
        view: dict[str, Any] = {
            "game": self.game_id,
            "phase": self.phase,
            "turn_seat": self.current,
            "to_act": self.to_act(),
            "first_player": self.first_player,
            "turn": self.turns_taken + 1,
            "round": self.round,
            "round_cap": self.round_cap,
            "rebuttal_mode": self.rebuttal_mode,
            "teams": list(TEAMS),
            "team_seats": [list(t) for t in TEAM_SEATS],
            "hand_counts": [len(h) for h in self.hands],
            "centre_count": 1,
            "main_action": _copy(self.main_action),
            "main_done": self.main_action is not None,
            "pending": _copy(self.pending),
            "public_cards": [[card(n) for n in sorted(s)] for s in self.public_cards],
            "swaps": list(self.swaps),
            "swap_total": sum(self.swaps),
            "facts": self.recent_facts(),
            "facts_from_turn": max(1, self.turns_taken + 2 - FACTS_WINDOW_TURNS),
            "facts_total": len(self.facts),
            "shown_ever": [card(n) for n in sorted(self.public_seen)],
            "outcome": self.outcome,
            "winner_team": self.winner_team,
            "winners": list(TEAM_SEATS[self.winner_team]) if self.winner_team is not None else [],
        }
        if self.phase == PHASE_OVER:
            view["final_hands"] = [[card(n) for n in h] for h in self.hands]
            view["final_centre"] = card(self.centre)
        return view

    def observation(self: FinalQuestEngine, seat: int) -> dict[str, Any]:
        obs = self.public_view()
        obs["seat"] = seat
        obs["team"] = TEAMS[seat]
        obs["partner"] = (seat + 2) % NUM_SEATS
        obs["hand"] = [card(n) for n in self.hands[seat]]
        obs["centre_card"] = card(self.centre) if self.centre_placer == seat else None
        obs["private"] = self.recent_facts(self.private[seat])
        obs["private_total"] = len(self.private[seat])
        obs["rebuttals_seen"] = {card(n): s for n, s in sorted(self.rebuttals_seen[seat].items())}
        is_target = self.phase == PHASE_REBUTTAL and self.pending is not None and self.pending["seat"] == seat
        obs["rebuttal_options"] = [card(n) for n in self.rebuttal_numbers()] if is_target else []
        return obs

    def hidden_from(self: FinalQuestEngine, seat: int | None) -> set[str]:
        if self.phase == PHASE_OVER:
            return set()  # every card is turned face up at the end
        known = self.public_seen | (self.seen[seat] if seat is not None else set())
        return {card(n) for n in NUMBERS if n not in known}

    def recent_facts(self: FinalQuestEngine, records: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
        """The public facts (or ``records``) of the last ``FACTS_WINDOW_TURNS`` turns, as copies."""
        records = self.facts if records is None else records
        first = self.turns_taken + 2 - FACTS_WINDOW_TURNS
        start = len(records)
        while start > 0 and records[start - 1]["turn"] >= first:
            start -= 1
        return [_copy(f) for f in records[start:]]

    def public_facts(self: FinalQuestEngine) -> list[dict[str, Any]]:
        """The whole public record, oldest first (the views carry only the recent part)."""
        return [_copy(f) for f in self.facts]

    def private_facts(self: FinalQuestEngine, seat: int) -> list[dict[str, Any]]:
        """The whole private record of ``seat`` (its swaps, asker-only rebuttals it gave or got)."""
        return [_copy(f) for f in self.private[seat]]

    def results(self: FinalQuestEngine) -> dict[str, Any]:
        if self.outcome == "win":
            assert self.winner_team is not None
            ranks = [1 if TEAMS[s] == self.winner_team else 2 for s in range(NUM_SEATS)]
            scores = [1 if TEAMS[s] == self.winner_team else 0 for s in range(NUM_SEATS)]
        else:
            ranks = [1] * NUM_SEATS
            scores = [0] * NUM_SEATS
        return {
            "ranks": ranks,
            "scores": scores,
            "outcome": self.outcome,
            "winner_team": self.winner_team,
            "winners": list(TEAM_SEATS[self.winner_team]) if self.winner_team is not None else [],
            "final_quest": _copy(self.final_quest_hit),
            "turns": self.turns_taken + (1 if self.outcome == "win" else 0),
            "rounds": self.round if self.outcome == "win" else self.turns_taken // NUM_SEATS,
            "hands": [[card(n) for n in h] for h in self.hands],
            "centre": card(self.centre),
        }


def _copy(value: Any) -> Any:
    """A deep copy of plain JSON data, so views never alias engine state."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value
