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


def label(card: str, face_names: bool = True) -> str:
    """Language-neutral short label: ``♠A``, ``♥10``, ``★16``."""
    suit, rank = suit_of(card), rank_of(card)
    if suit == "J":
        return "🃏"
    name = RANK_NAMES.get(rank, str(rank)) if face_names else str(rank)
    return f"{SUIT_SYMBOLS[suit]}{name}"
