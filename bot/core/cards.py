"""Card codes shared by the card games: suit letter + rank number, e.g. ``S1`` (♠A), ``H13`` (♥K).

Ranks are numbers (A = 1, J = 11, Q = 12, K = 13; games with other decks use 1..16). How strong a
rank is belongs to each game's engine. ``X`` is a fifth suit (Donguri, 5 players), ``J0``/``J1``
are jokers.
"""

from __future__ import annotations

SUITS = "SHDC"
# ♠ and ♣ carry U+FE0E (text presentation) so clients draw them in the text colour: as emoji they
# are black and vanish on Discord's dark theme. ♥ and ♦ stay red emoji.
SUIT_SYMBOLS = {"S": "♠\ufe0e", "H": "♥", "D": "♦", "C": "♣\ufe0e", "X": "★", "J": "🃏"}
RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}


def code(suit: str, rank: int) -> str:
    return f"{suit}{rank}"


def suit_of(card: str) -> str:
    return card[0]


def rank_of(card: str) -> int:
    return int(card[1:])


def standard_deck(suits: str = SUITS, ranks: range = range(1, 14)) -> list[str]:
    return [code(s, r) for s in suits for r in ranks]


def is_code(card: object) -> bool:
    """Whether ``card`` is written as a card code (a suit letter and a rank of 0..99)."""
    return (
        isinstance(card, str)
        and 2 <= len(card) <= 3
        and card[0] in SUIT_SYMBOLS
        and card[1:].isascii()
        and card[1:].isdigit()
    )


def label(card: str, face_names: bool = True) -> str:
    """Language-neutral short label: ``♠A``, ``♥10``, ``★16``; ``?`` for text that is no card
    (a refusal may name what a client sent: drawing it never fails)."""
    if not is_code(card):
        return "?"
    suit, rank = suit_of(card), rank_of(card)
    if suit == "J":
        return "🃏"
    name = RANK_NAMES.get(rank, str(rank)) if face_names else str(rank)
    return f"{SUIT_SYMBOLS[suit]}{name}"
