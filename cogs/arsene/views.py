"""What each seat may see of an Arsène game (RULINGS §1): the public view, a seat's observation and
the cards hidden from it, read from an ``ArseneEngine``; apart so that the rules read on their own."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.core.cards import suit_of

from .rules_core import PHASE_PUSH, PRIVATE_PHASES
from .rules_scoring import SHOP_GROUPS, TOKEN_CAP, TOKEN_POOL

if TYPE_CHECKING:
    from .engine import ArseneEngine


def _pending(engine: ArseneEngine) -> list[dict[str, Any]]:
    if engine.over or engine.phase not in PRIVATE_PHASES:
        return []
    return [{"kind": engine.phase, "seat": s} for s in engine.to_act()]


def public_view(engine: ArseneEngine) -> dict[str, Any]:
    h = engine.holdings
    n = engine.num_players
    view: dict[str, Any] = {
        "game": engine.game_id,
        "num_players": n,
        "advanced": engine.advanced,
        "phase": engine.phase,
        "deal": engine.deal_no,
        "dealer": engine.dealer,
        "trump_seat": engine.trump_seat,
        "leader": engine.leader,
        "to_act": engine.to_act(),
        "pending": _pending(engine),
        "contest": engine.contest,
        "trumps": engine.trumps,
        "trump_card": engine.trump_card,
        "shown_card": engine.shown_card,
        "aside_face_down": len(engine.aside) + (1 if engine.shown_card else 0),
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
                "tricks": engine.tricks[s],
                "hand_count": len(engine.hands[s]),
                "dummy_card_given": s in engine.dummy_cards,
            }
            for s in range(n)
        ],
        "dummy": (
            {"tricks": engine.dummy_tricks, "cards_given": len(engine.dummy_cards)}
            if engine.has_dummy
            else None
        ),
        "trick": [{"seat": s, "card": c} for s, c in engine.trick],
        "lead_suit": suit_of(engine.trick[0][1]) if engine.trick else None,
        "trick_number": min(engine.tricks_played + 1, engine.tricks_per_deal),
        "tricks_per_deal": engine.tricks_per_deal,
        "last_trick": _last_trick_view(engine),
        "push": ({"seat": engine.winner, "target": engine.push_target} if engine.phase == PHASE_PUSH else None),
        "last_deal": engine.last_summary,
        "result": engine.results() if engine.over else None,
    }
    return view


def _last_trick_view(engine: ArseneEngine) -> dict[str, Any] | None:
    if engine.last_trick is None:
        return None
    plays, winner, taker = engine.last_trick
    return {"cards": [{"seat": s, "card": c} for s, c in plays], "winner": winner, "taker": taker}


def observation(engine: ArseneEngine, seat: int) -> dict[str, Any]:
    view = engine.public_view()
    view["seat"] = seat
    view["hand"] = list(engine.hands[seat])
    view["picked_card"] = engine.picked_card if seat == engine.trump_seat else None
    view["my_dummy_card"] = engine.dummy_cards.get(seat)
    return view


def hidden_from(engine: ArseneEngine, seat: int | None) -> set[str]:
    hidden = set(engine.aside)  # the aside cards nobody took, face down all deal
    for s in range(engine.num_players):
        if s != seat:
            hidden.update(engine.hands[s])
            if s in engine.dummy_cards:
                hidden.add(engine.dummy_cards[s])
    return hidden
