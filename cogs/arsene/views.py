"""What each seat may see of an Arsène game (RULINGS §1): the public view, a seat's observation and
the cards hidden from it. A mixin of ``ArseneEngine``, apart so that the rules read on their own."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.core.cards import suit_of

from .rules_core import PHASE_PUSH, PRIVATE_PHASES
from .rules_scoring import SHOP_GROUPS, TOKEN_CAP, TOKEN_POOL

if TYPE_CHECKING:
    from .engine import ArseneEngine


class ArseneViews:
    """Mixed into ``ArseneEngine``."""

    def _pending(self: ArseneEngine) -> list[dict[str, Any]]:
        if self.over or self.phase not in PRIVATE_PHASES:
            return []
        return [{"kind": self.phase, "seat": s} for s in self.to_act()]

    def public_view(self: ArseneEngine) -> dict[str, Any]:
        h = self.holdings
        n = self.num_players
        view: dict[str, Any] = {
            "game": self.game_id,
            "num_players": n,
            "advanced": self.advanced,
            "phase": self.phase,
            "deal": self.deal_no,
            "dealer": self.dealer,
            "trump_seat": self.trump_seat,
            "leader": self.leader,
            "to_act": self.to_act(),
            "pending": self._pending(),
            "contest": self.contest,
            "trumps": self.trumps,
            "trump_card": self.trump_card,
            "shown_card": self.shown_card,
            "aside_face_down": len(self.aside) + (1 if self.shown_card else 0),
            "shops": [
                {
                    "shop": s,
                    "card": f"D{s}",
                    "groups": list(h.shops[s]),
                    "chips": sum(h.shops[s]),
                    "taken": len(SHOP_GROUPS[s]) - len(h.shops[s]),
                    "empty": not h.shops[s],
                }
                for s in sorted(h.shops)
            ],
            "token_pool": h.pool,
            "token_total": TOKEN_POOL,
            "token_cap": TOKEN_CAP,
            "players": [
                {
                    "seat": s,
                    "chips": h.chips[s],
                    "tokens": h.tokens[s],
                    "exempt_used": h.exempt_used[s],
                    "tricks": self.tricks[s],
                    "hand_count": len(self.hands[s]),
                    "dummy_card_given": s in self.dummy_cards,
                }
                for s in range(n)
            ],
            "dummy": (
                {"tricks": self.dummy_tricks, "cards_given": len(self.dummy_cards)}
                if self.has_dummy
                else None
            ),
            "trick": [{"seat": s, "card": c} for s, c in self.trick],
            "lead_suit": suit_of(self.trick[0][1]) if self.trick else None,
            "trick_number": min(self.tricks_played + 1, self.tricks_per_deal),
            "tricks_per_deal": self.tricks_per_deal,
            "last_trick": self._last_trick_view(),
            "push": ({"seat": self.winner, "target": self.push_target} if self.phase == PHASE_PUSH else None),
            "last_deal": self.last_summary,
            "result": self.results() if self.over else None,
        }
        return view

    def _last_trick_view(self: ArseneEngine) -> dict[str, Any] | None:
        if self.last_trick is None:
            return None
        plays, winner, taker = self.last_trick
        return {"cards": [{"seat": s, "card": c} for s, c in plays], "winner": winner, "taker": taker}

    def observation(self: ArseneEngine, seat: int) -> dict[str, Any]:
        view = self.public_view()
        view["seat"] = seat
        view["hand"] = list(self.hands[seat])
        view["picked_card"] = self.picked_card if seat == self.trump_seat else None
        view["my_dummy_card"] = self.dummy_cards.get(seat)
        return view

    def hidden_from(self: ArseneEngine, seat: int | None) -> set[str]:
        hidden = set(self.aside)  # the aside cards nobody took, face down all deal
        for s in range(self.num_players):
            if s != seat:
                hidden.update(self.hands[s])
                if s in self.dummy_cards:
                    hidden.add(self.dummy_cards[s])
        return hidden
