"""How a Saizen trick ends (outright, by playoff, or with no winner) and how a round ends; mixed into
``SaizenEngine`` to keep engine.py to the turn flow."""

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


class SaizenTricks:
    """Mixed into ``SaizenEngine``."""

    def _resolve_main(self: SaizenEngine, events: list[Event]) -> None:
        assert self.trick is not None
        rules = self._rules(self.trick["led"])
        cards = [c for _, c in self.trick["plays"]]
        if rules.playoff:
            pair = strongest_pair(cards, rules.low)
            if pair is not None:
                seats = [s for s, c in self.trick["plays"] if number(c) == pair]
                self._start_playoff(seats, pair, events)
                return
        best = outright_winner(cards, self.trick["led"], rules)
        assert best is not None  # the led card always follows
        self._finish_trick(self.trick["plays"][best][0], events)

    def _resolve_playoff_round(self: SaizenEngine, events: list[Event]) -> None:
        assert self.trick is not None
        rules = self._rules(self.trick["led"])
        plays = self.trick["playoffs"][-1]["plays"]
        cards = [c for _, c in plays]
        pair = strongest_pair(cards, rules.low)
        if pair is not None:
            self._start_playoff([s for s, c in plays if number(c) == pair], pair, events)
            return
        best = outright_winner(cards, None, rules)
        assert best is not None
        self._finish_trick(plays[best][0], events)

    def _start_playoff(self: SaizenEngine, seats: list[int], pair: int, events: list[Event]) -> None:
        assert self.trick is not None
        able = [s for s in seats if self.hands[s]]
        out = [s for s in seats if not self.hands[s]]
        level = len(self.trick["playoffs"]) + 1
        events.append(
            Event("playoff_started", {"seats": seats, "number": number_label(pair), "level": level})
        )
        for s in out:
            events.append(Event("playoff_out_of_cards", {"seat": s, "level": level}))
        self.trick["playoffs"].append(
            {"seats": able, "called": seats, "out": out, "number": pair, "plays": []}
        )
        if len(able) >= 2:
            self.phase = PHASE_PLAYOFF
        elif len(able) == 1:
            self._finish_trick(able[0], events)
        else:
            self._finish_trick(None, events)

    def _finish_trick(self: SaizenEngine, winner: int | None, events: list[Event]) -> None:
        assert self.trick is not None
        self.trick_no += 1
        self._last = (self.trick, winner, self.trick_no)
        seats_cards = list(self.trick["plays"]) + [p for po in self.trick["playoffs"] for p in po["plays"]]
        for s, _card in seats_cards:
            if s != winner:
                self.face_down[s] += 1
        if winner is None:
            events.append(Event("trick_no_winner", {"trick": self.trick_no, "seat": self.leader}))
        else:
            self.scores[winner] += 1
            self.round_tricks[-1][winner] += 1
            self.face_up[winner].extend(c for s, c in seats_cards if s == winner)
            events.append(
                Event(
                    "trick_won",
                    {"seat": winner, "trick": self.trick_no, "cards": [c for _, c in seats_cards]},
                )
            )
            self.leader = winner
        self.trick = None
        if any(not hand for hand in self.hands):
            self._end_round(events)
        else:
            self._new_trick()

    def _end_round(self: SaizenEngine, events: list[Event]) -> None:
        n = self.num_players
        sets = [self.hands[s] + self.played[s] for s in range(n)]
        # the round's final trick rides along: last_trick is cleared below, and the record shows it
        ended = {"round": self.round_no, "tricks": list(self.round_tricks[-1]), "last_trick": self.last_trick}
        events.append(Event("round_ended", ended))
        for s in range(n):
            events.append(Event("hand_passed", {"seat": s, "target": (s - 1) % n, "count": len(sets[s])}))
        if self.round_no >= ROUNDS:  # the final pass changes nothing; keep the table as it lies
            self.phase = PHASE_OVER
            self.chip_queue = []
            events.append(Event("game_ended", {"scores": list(self.scores), "ranks": self._ranks()}))
            return
        self.hands = [sort_cards(sets[(s + 1) % n]) for s in range(n)]
        self.played = [[] for _ in range(n)]
        self.face_up = [[] for _ in range(n)]
        self.face_down = [0] * n
        self._last = None
        self.trick_no = 0
        self.round_no += 1
        self.round_tricks.append([0] * n)
        self._start_round(events)

    def _ranks(self: SaizenEngine) -> list[int]:
        return [1 + sum(1 for other in self.scores if other > mine) for mine in self.scores]
