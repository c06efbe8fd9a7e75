"""Arsène's cards and phases: the deck per player count, card strength, the trick's winner. Shared by
the engine, its views and the computer players, which is why they live outside ``engine.py``."""

from __future__ import annotations

import random

from bot.core.cards import rank_of, standard_deck, suit_of

OPT_ADVANCED = "advanced"
ADVANCED_VALUES = (False, True)

DUMMY = "dummy"
HAND_SIZE = 11
ASIDE_SIZE = 3
FACE_RANKS = (11, 12, 13)
SUIT_ORDER = "SHCD"

PHASE_ASIDE = "aside_pick"
PHASE_TRUMP = "trump_choice"
PHASE_DUMMY = "dummy_choice"
PHASE_PLAY = "play"
PHASE_PUSH = "push"
PHASE_OVER = "over"
PHASE_ACTIONS = {
    PHASE_ASIDE: ("aside",),
    PHASE_TRUMP: ("trump", "show"),
    PHASE_DUMMY: ("dummy",),
    PHASE_PLAY: ("play",),
    PHASE_PUSH: ("take", "push"),
    PHASE_OVER: (),
}
# Which pending choices are private (their content is never shown to the others).
PRIVATE_PHASES = (PHASE_ASIDE, PHASE_TRUMP, PHASE_DUMMY, PHASE_PUSH)


def strength(card: str) -> int:
    """A is high."""
    rank = rank_of(card)
    return 14 if rank == 1 else rank


def sort_key(card: str) -> tuple[int, int]:
    return SUIT_ORDER.index(suit_of(card)), -strength(card)


def deck_for(num_players: int) -> list[str]:
    """♦A–♦5 are the shops; with three players ♦6, ♦7 and the 2, 3, 4 of ♠ ♥ ♣ are removed too."""
    cards = [c for c in standard_deck() if not (suit_of(c) == "D" and rank_of(c) <= 5)]
    if num_players == 3:
        cards = [
            c
            for c in cards
            if not (suit_of(c) == "D" and rank_of(c) in (6, 7))
            and not (suit_of(c) != "D" and rank_of(c) in (2, 3, 4))
        ]
    return cards


ALL_CARDS = frozenset(standard_deck())
DECKS = {n: tuple(deck_for(n)) for n in (3, 4)}
SORT_KEYS = {c: sort_key(c) for c in ALL_CARDS}
STRENGTH = {c: strength(c) for c in ALL_CARDS}
PLAY_ACTIONS = {c: f"play:{c}" for c in ALL_CARDS}


def shuffle(rng: random.Random, cards: list[str]) -> None:
    """Exactly ``rng.shuffle(cards)`` (the same draws, so old games replay), about twice as fast:
    search plays many deals."""
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        k = (i + 1).bit_length()
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def is_trump_marker(card: str) -> bool:
    """A diamond that is not a face card (J, Q, K) must be laid face up as the trump card."""
    return suit_of(card) == "D" and rank_of(card) not in FACE_RANKS


def trick_winner(plays: list[tuple[int, str]], trumps: bool) -> tuple[int, str]:
    """The highest trump if any was played (and trumps are on), else the highest of the led suit."""
    led = plays[0][1][0]
    best, best_tier, best_rank = plays[0], 2 if trumps and led == "D" else 1, STRENGTH[plays[0][1]]
    for play in plays[1:]:
        suit = play[1][0]
        tier = 2 if trumps and suit == "D" else 1 if suit == led else 0
        if tier > best_tier or (tier == best_tier and STRENGTH[play[1]] > best_rank):
            best, best_tier, best_rank = play, tier, STRENGTH[play[1]]
    return best
