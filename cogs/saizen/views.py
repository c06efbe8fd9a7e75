"""What Saizen shows: the public view, each seat's observation and the tricks as views and the record
show them, read from a ``SaizenEngine``; apart so that engine.py keeps to the rules."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.core.cards import SUITS

from .rules_core import PHASE_CHIPS, ROUNDS, SIDES, SWITCHES, follows, number_label, sort_cards

if TYPE_CHECKING:
    from .engine import SaizenEngine


def last_trick(engine: SaizenEngine) -> dict[str, Any] | None:
    """The latest finished trick of this round, as views and the record show it."""
    if engine.closed_trick is None:
        return None
    trick, winner, number = engine.closed_trick
    return {**_trick_view(trick), "winner": winner, "number": number}


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


def _rule_cards_view(engine: SaizenEngine) -> dict[str, Any]:
    return {
        s: {
            sw: {
                "side": SIDES[sw][engine.sides[s][sw]],
                "second_side": bool(engine.sides[s][sw]),
                "moved": engine.moved[s][sw],
            }
            for sw in SWITCHES
        }
        for s in SUITS
    }


def public_view(engine: SaizenEngine) -> dict[str, Any]:
    n = engine.num_players
    trick = None
    if engine.trick is not None:
        trick = _trick_view(engine.trick)
        trick["number"] = engine.trick_no + 1
        led = engine.trick["led"]
        trick["rules"] = engine.rules_for(led).sides if led else None
        playoff = engine.playoff()
        trick["playoff_seats"] = list(playoff["seats"]) if playoff else []
    last = engine.last_trick
    return {
        "game": engine.game_id,
        "phase": engine.phase,
        "round": engine.round_no,
        "rounds": ROUNDS,
        "num_players": n,
        "start_player": engine.start_player,
        "leader": engine.leader,
        "to_act": engine.to_act(),
        "chip_turn": engine.chip_queue[0] if engine.phase == PHASE_CHIPS else None,
        "chip_order": list(engine.chip_queue) if engine.phase == PHASE_CHIPS else [],
        "suits": list(SUITS),
        "switches": list(SWITCHES),
        "sides": {sw: list(SIDES[sw]) for sw in SWITCHES},
        "rule_cards": _rule_cards_view(engine),
        "chips_left": len(engine.movable()),
        "layout": engine.layout,
        "jokers": engine.jokers,
        "trick": trick,
        "last_trick": last,
        "tricks_this_round": engine.trick_no,
        "hand_counts": [len(h) for h in engine.hands],
        "set_counts": [len(engine.hands[s]) + len(engine.played[s]) for s in range(n)],
        "face_up": [list(cards) for cards in engine.face_up],
        "face_down_counts": list(engine.face_down),
        "scores": list(engine.scores),
        "round_tricks": [list(r) for r in engine.round_tricks],
    }


def observation(engine: SaizenEngine, seat: int) -> dict[str, Any]:
    view = engine.public_view()
    view["seat"] = seat
    view["hand"] = sort_cards(engine.hands[seat])
    return view
