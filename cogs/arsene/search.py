"""The search hooks of the Arsène engine (cheap copy, determinization, fast apply).

Computer players search many imagined continuations of a position, so these must be cheap, and
a determinized state must hide exactly what the seat cannot see: the other hands, the aside
cards, the other seats' dummy cards (three players) and the cards of later deals.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from bot.ai.deal import deal

if TYPE_CHECKING:
    from .engine import ArseneEngine

NON_FACE_DIAMONDS = frozenset(f"D{r}" for r in range(1, 11))
PLAY = len("play:")


def copy_rng(rng: random.Random) -> random.Random:
    other = random.Random()
    other.setstate(rng.getstate())
    return other


class ArseneSearch:
    """Mixed into ``ArseneEngine``."""

    def clone(self: ArseneEngine) -> ArseneEngine:
        return self._copy(copy_rng(self.rng))

    def _copy(self: ArseneEngine, rng: random.Random) -> ArseneEngine:
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.options = dict(self.options)
        other.rng = rng
        other.history = list(self.history)
        other.holdings = self.holdings.copy()
        other.hands = [list(h) for h in self.hands]
        other.aside = list(self.aside)
        other.dummy_cards = dict(self.dummy_cards)
        other.tricks = list(self.tricks)
        other.voids = list(self.voids)
        other.trick = list(self.trick)
        return other

    def apply_fast(self: ArseneEngine, seat: int, action: str) -> None:
        """Plays, takes and pushes without building events; the rare rest goes the usual way."""
        if action[1] == "l":  # play:<card>
            won = self._lay(seat, action[PLAY:])
            if won is not None and self.phase != "push" and self._close_trick(won[0], won[0]):
                self._settle()
        elif action == "take" or action.startswith("push:"):
            winner = self.winner
            receiver = winner if action == "take" else self.push_target
            if self._close_trick(winner, receiver):
                self._settle()
        else:
            self._apply(seat, action)
        self.history.append((seat, action))

    def determinize(self: ArseneEngine, seat: int, rng: random.Random) -> ArseneEngine:
        """Deal what ``seat`` has not seen, keeping every pile's size and what the table knows:
        the suits a seat failed to follow this deal, and that a seat who showed a card (no trumps)
        held no diamond 2–10 from then on. Later deals come from a seed of the copy's own, and its
        log hides the cards other seats gave the dummy (``secret_kinds``)."""
        state = self.blind(self._copy(self.rng), seat, rng)  # the real generator is replaced there
        others = [s for s in range(self.num_players) if s != seat]
        givers = [s for s in others if s in self.dummy_cards]
        pool = sorted(
            [c for s in others for c in self.hands[s]]
            + list(self.aside)
            + [self.dummy_cards[s] for s in givers]
        )
        bare = self.trump_seat if self.trumps is False else None  # held no diamond 2–10 after its pick

        def lacks(s: int, voids: str) -> str:
            return voids.replace("D", "DN") + ("N" if s == bare else "")

        sizes = [len(self.hands[s]) for s in others] + [len(self.aside)] + [1] * len(givers)
        lacking = [lacks(s, self.voids[s]) for s in others] + [""] + [lacks(s, "") for s in givers]
        piles = deal(pool, sizes, lacking, rng, kind)
        for s, pile in zip(others, piles, strict=False):
            state.hands[s] = sorted(pile, key=self.card_order.__getitem__)
        state.aside = piles[len(others)]
        for s, pile in zip(givers, piles[len(others) + 1 :], strict=True):
            state.dummy_cards[s] = pile[0]
        if seat != self.trump_seat:
            state.picked_card = None  # which card the trump seat took stays its secret
        return state


def kind(card: str) -> str:
    """What a void rules out: the suit, with the diamonds 2–10 (``N``) apart from J, Q and K."""
    return "N" if card in NON_FACE_DIAMONDS else card[0]
