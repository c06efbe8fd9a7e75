"""The search hooks of the Arsène engine (cheap copy, determinization, fast apply), as functions of
an ``ArseneEngine``.

Computer players search many imagined continuations of a position, so these must be cheap, and
a determinized state must hide exactly what the seat cannot see: the other hands, the aside
cards, the other seats' dummy cards (three players) and the cards of later deals.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from bot.ai.deal import deal
from bot.core.engine import copy_rng

if TYPE_CHECKING:
    from .engine import ArseneEngine

NON_FACE_DIAMONDS = frozenset(f"D{r}" for r in range(1, 11))


def clone(engine: ArseneEngine) -> ArseneEngine:
    return _copy(engine, copy_rng(engine.rng))


def _copy(engine: ArseneEngine, rng: random.Random) -> ArseneEngine:
    other = engine.copy_state()
    other.rng = rng
    other.holdings = engine.holdings.copy()
    other.hands = [list(h) for h in engine.hands]
    other.aside = list(engine.aside)
    other.dummy_cards = dict(engine.dummy_cards)
    other.tricks = list(engine.tricks)
    other.voids = list(engine.voids)
    other.trick = list(engine.trick)
    return other


def determinize(engine: ArseneEngine, seat: int, rng: random.Random) -> ArseneEngine:
    """Deal what ``seat`` has not seen, keeping every pile's size and what the table knows:
    the suits a seat failed to follow this deal, and that a seat who showed a card (no trumps)
    held no diamond 2–10 from then on. Later deals come from a seed of the copy's own, and its
    log hides the cards other seats gave the dummy (``secret_kinds``)."""
    state = engine.blind(_copy(engine, engine.rng), seat, rng)  # the real generator is replaced there
    others = [s for s in range(engine.num_players) if s != seat]
    givers = [s for s in others if s in engine.dummy_cards]
    pool = sorted(
        [c for s in others for c in engine.hands[s]]
        + list(engine.aside)
        + [engine.dummy_cards[s] for s in givers]
    )
    bare = engine.trump_seat if engine.trumps is False else None  # held no diamond 2–10 after its pick

    def lacks(s: int, voids: str) -> str:
        return voids.replace("D", "DN") + ("N" if s == bare else "")

    sizes = [len(engine.hands[s]) for s in others] + [len(engine.aside)] + [1] * len(givers)
    lacking = [lacks(s, engine.voids[s]) for s in others] + [""] + [lacks(s, "") for s in givers]
    piles = deal(pool, sizes, lacking, rng, kind)
    for s, pile in zip(others, piles, strict=False):
        state.hands[s] = sorted(pile, key=engine.card_order.__getitem__)
    state.aside = piles[len(others)]
    for s, pile in zip(givers, piles[len(others) + 1 :], strict=True):
        state.dummy_cards[s] = pile[0]
    if seat != engine.trump_seat:
        state.picked_card = None  # which card the trump seat took stays its secret
    return state


def kind(card: str) -> str:
    """What a void rules out: the suit, with the diamonds 2–10 (``N``) apart from J, Q and K."""
    return "N" if card in NON_FACE_DIAMONDS else card[0]
