"""What Saizen shows: the public view, each seat's observation and the tricks as views and the record
show them; mixed into ``SaizenEngine`` to keep engine.py to the rules."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.core.cards import SUITS

from .rules_core import PHASE_CHIPS, ROUNDS, SIDES, SWITCHES, follows, number_label, sort_cards

if TYPE_CHECKING:
    from .engine import SaizenEngine


class SaizenViews:
    """Mixed into ``SaizenEngine``."""

    @property
    def last_trick(self: SaizenEngine) -> dict[str, Any] | None:
        """The latest finished trick of this round, as views and the record show it."""
        if self._last is None:
            return None
        trick, winner, number = self._last
        return {**self._trick_view(trick), "winner": winner, "number": number}

    @staticmethod
    def _trick_view(trick: dict[str, Any]) -> dict[str, Any]:
        led = trick["led"]
        return {
            "leader": trick["leader"],
            "led_suit": led,
            "joker_lead": trick["named"],
            "plays": [
                {"seat": s, "card": c, "follows": follows(c, led) if led else True} for s, c in trick["plays"]
            ],
            "playoffs": [
                {
                    "level": i + 1,
                    "number": number_label(po["number"]),
                    "seats": list(po["called"]),
                    "out_of_cards": list(po["out"]),
                    "plays": [{"seat": s, "card": c} for s, c in po["plays"]],
                }
                for i, po in enumerate(trick["playoffs"])
            ],
        }

    def _rule_cards_view(self: SaizenEngine) -> dict[str, Any]:
        return {
            s: {
                sw: {
                    "side": SIDES[sw][self.sides[s][sw]],
                    "second_side": bool(self.sides[s][sw]),
                    "moved": self.moved[s][sw],
                }
                for sw in SWITCHES
            }
            for s in SUITS
        }

    def public_view(self: SaizenEngine) -> dict[str, Any]:
        n = self.num_players
        trick = None
        if self.trick is not None:
            trick = self._trick_view(self.trick)
            trick["number"] = self.trick_no + 1
            led = self.trick["led"]
            trick["rules"] = self._rules(led).sides if led else None
            playoff = self._playoff()
            trick["playoff_seats"] = list(playoff["seats"]) if playoff else []
        last = self.last_trick
        return {
            "game": self.game_id,
            "phase": self.phase,
            "round": self.round_no,
            "rounds": ROUNDS,
            "num_players": n,
            "start_player": self.start_player,
            "leader": self.leader,
            "to_act": self.to_act(),
            "chip_turn": self.chip_queue[0] if self.phase == PHASE_CHIPS else None,
            "chip_order": list(self.chip_queue) if self.phase == PHASE_CHIPS else [],
            "suits": list(SUITS),
            "switches": list(SWITCHES),
            "sides": {sw: list(SIDES[sw]) for sw in SWITCHES},
            "rule_cards": self._rule_cards_view(),
            "chips_left": len(self._movable()),
            "layout": self.layout,
            "jokers": self.jokers,
            "trick": trick,
            "last_trick": last,
            "tricks_this_round": self.trick_no,
            "hand_counts": [len(h) for h in self.hands],
            "set_counts": [len(self.hands[s]) + len(self.played[s]) for s in range(n)],
            "face_up": [list(cards) for cards in self.face_up],
            "face_down_counts": list(self.face_down),
            "scores": list(self.scores),
            "round_tricks": [list(r) for r in self.round_tricks],
        }

    def observation(self: SaizenEngine, seat: int) -> dict[str, Any]:
        view = self.public_view()
        view["seat"] = seat
        view["hand"] = sort_cards(self.hands[seat])
        return view

    def hidden_from(self: SaizenEngine, seat: int | None) -> set[str]:
        return {c for s, hand in enumerate(self.hands) if s != seat for c in hand}
