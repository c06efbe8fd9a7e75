"""Pure Saizen helpers: the phases, card order, rule-card switches, the starting layout, and trick judging.

Cards are ``bot.core.cards`` codes ("S12" = ♠Q) plus jokers "J0"/"J1". A card's *number* is its rank
(A = 1 … K = 13); jokers have number 0 here, which pairs only with the other joker and is stronger
than every number under both 大 and 小.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from bot.core.cards import SUIT_SYMBOLS, SUITS, standard_deck
from bot.core.engine import IllegalAction

ROUNDS = 3

PHASE_CHIPS = "chips"
PHASE_PLAY = "play"
PHASE_PLAYOFF = "playoff"
PHASE_OVER = "over"

# The five switches of a rule card, in the order printed on the card, and their two sides.
# The first-named side is in force at setup (ruling); moving a switch's chip flips it once.
SWITCHES = ("strength", "tie", "same", "follow", "win")
SIDES: dict[str, tuple[str, str]] = {
    "strength": ("high", "low"),  # 大 / 小: 13 strongest / 1 strongest
    "tie": ("later", "earlier"),  # 後 / 先: later / earlier card wins a tie (only two jokers tie)
    "same": ("ignore", "playoff"),  # 無視 / 決勝: equal numbers do nothing / start a playoff
    "follow": ("must", "may"),  # MUST / MAY follow suit
    "win": ("must_win", "free"),  # 必勝 / 自由: must win if able / free
}
SECOND_SIDES = {sides[1]: switch for switch, sides in SIDES.items()}
#: The designer's Japanese names of the second sides, accepted in a layout like the English ones.
SIDE_ALIASES = {"小": "low", "先": "earlier", "決勝": "playoff", "自由": "free"}
#: Suit symbols accepted in a layout (♠ as well as S).
SUIT_ALIASES = {symbol.rstrip("\ufe0e"): suit for suit, symbol in SUIT_SYMBOLS.items() if suit in SUITS}
JOKER_CODES = ("J0", "J1")
JOKER_NUMBER = 0


def is_joker(card: str) -> bool:
    return card[0] == "J"


_SUIT_ORDER = {s: i for i, s in enumerate(SUITS + "J")}
_ORDER = {c: (_SUIT_ORDER[c[0]], int(c[1:])) for c in standard_deck() + list(JOKER_CODES)}


def sort_cards(cards: list[str]) -> list[str]:
    return sorted(cards, key=_ORDER.__getitem__)


_NUMBERS = {f"{s}{r}": r for s in SUITS for r in range(1, 14)} | {j: JOKER_NUMBER for j in JOKER_CODES}


def number(card: str) -> int:
    """The number a card shows, for pairs: its rank, or 0 for a joker."""
    return _NUMBERS[card] if card in _NUMBERS else (JOKER_NUMBER if is_joker(card) else int(card[1:]))


def number_label(num: int) -> int | str:
    """A paired number for views/events: the rank, or "joker"."""
    return "joker" if num == JOKER_NUMBER else num


def number_strength(num: int, low: bool) -> int:
    """Strength of a number under 大 (low=False) or 小 (low=True); the joker number is strongest."""
    if num == JOKER_NUMBER:
        return 100
    return 14 - num if low else num


#: Card strengths under 大 (index 0) and 小 (index 1), for the hot paths of trick judging.
_STRENGTHS = tuple(
    {c: number_strength(num, low) for c, num in _NUMBERS.items()} for low in (False, True)
)

def follows(card: str, led: str | None) -> bool:
    """Whether ``card`` follows ``led``; jokers follow every suit; ``led`` None = playoff (all count)."""
    return led is None or is_joker(card) or card[0] == led


def parse_layout(value: Any) -> frozenset[tuple[str, str]]:
    """The (suit, switch) pairs whose *second* side is in force at setup.

    ``value`` is "" / "standard" / None (every first side, the ruling's layout), or tokens
    separated by commas or spaces (a string or a list of strings). A token is ``<suit>:<sides>``
    where suit is S, H, D, C or ``*`` (all four) and sides are second-side names joined by ``+``:
    e.g. ``"S:low+may, H:playoff, *:free"``. Japanese input works too: full-width characters,
    "、" between tokens, suit symbols and the designer's side names (``"♠:小+MAY ♥:決勝"``).
    """
    if value is None or value == "" or value == "standard":
        return frozenset()
    if isinstance(value, str):
        tokens = _layout_tokens(value)
    elif isinstance(value, list) and all(isinstance(t, str) for t in value):
        tokens = [t for item in value for t in _layout_tokens(item)]
    else:
        raise IllegalAction("bad_option", option="layout", value=str(value))
    result: set[tuple[str, str]] = set()
    for token in tokens:
        suit_part, sep, sides_part = token.partition(":")
        suit_part = SUIT_ALIASES.get(suit_part, suit_part).upper()
        if (
            not sep
            or not sides_part
            or (suit_part != "*" and (len(suit_part) != 1 or suit_part not in SUITS))
        ):
            raise IllegalAction("bad_option", option="layout", value=token)
        suits = SUITS if suit_part == "*" else suit_part
        for side in sides_part.lower().split("+"):
            side = SIDE_ALIASES.get(side, side)
            if side not in SECOND_SIDES:
                raise IllegalAction("bad_option", option="layout", value=token)
            result.update((s, SECOND_SIDES[side]) for s in suits)
    return frozenset(result)


def _layout_tokens(text: str) -> list[str]:
    text = unicodedata.normalize("NFKC", text).replace("\ufe0e", "").replace("\ufe0f", "")
    return text.replace(",", " ").replace("、", " ").split()


def format_layout(second: set[tuple[str, str]] | frozenset[tuple[str, str]]) -> str:
    """Canonical layout string (inverse of ``parse_layout``); "" for the standard layout."""
    parts = []
    for suit in SUITS:
        sides = [SIDES[sw][1] for sw in SWITCHES if (suit, sw) in second]
        if sides:
            parts.append(f"{suit}:{'+'.join(sides)}")
    return ",".join(parts)


class TrickRules:
    """The sides in force on one rule card, as booleans."""

    def __init__(self, sides: dict[str, str]) -> None:
        self.sides = dict(sides)
        self.low = sides["strength"] == "low"
        self.later = sides["tie"] == "later"
        self.playoff = sides["same"] == "playoff"
        self.must_follow = sides["follow"] == "must"
        self.must_win = sides["win"] == "must_win"


def outright_winner(cards: list[str], led: str | None, rules: TrickRules) -> int | None:
    """Index of the strongest following card, ignoring pairs; ties (two jokers) go by 後/先."""
    strength = _STRENGTHS[rules.low]
    best: int | None = None
    top = -1
    for i, card in enumerate(cards):
        if led is not None and card[0] != led and card[0] != "J":
            continue
        mine = strength[card]
        if best is None or mine > top or (mine == top and rules.later):
            best, top = i, mine
    return best


def _would_win(options: list[str], played: list[str], led: str | None, rules: TrickRules) -> list[str]:
    """The options that, played now, become the outright winner (``outright_winner`` of played + it)."""
    best = outright_winner(played, led, rules)
    strength = _STRENGTHS[rules.low]
    top = -1 if best is None else strength[played[best]]
    later = rules.later
    return [
        c
        for c in options
        if (led is None or c[0] == led or c[0] == "J") and (strength[c] > top or (later and strength[c] == top))
    ]


def strongest_pair(cards: list[str], low: bool) -> int | None:
    """The strongest number shown by two or more of ``cards`` (any suits), or None."""
    seen: dict[int, int] = {}
    for card in cards:
        seen[number(card)] = seen.get(number(card), 0) + 1
    paired = [num for num, count in seen.items() if count >= 2]
    if not paired:
        return None
    return max(paired, key=lambda num: number_strength(num, low))


def follow_options(hand: list[str], led: str | None, rules: TrickRules) -> list[str]:
    """Cards the follow rule allows (MUST: led suit or jokers when any are held)."""
    if led is None or not rules.must_follow:
        return list(hand)
    following = [c for c in hand if follows(c, led)]
    return following or list(hand)


def must_win_filter(
    options: list[str], played: list[str], led: str | None, rules: TrickRules
) -> tuple[str | None, list[str]]:
    """Apply 必勝 to ``options`` given the cards already ``played`` in this trick (or playoff round).

    Returns (reason, cards): reason is None when every option stays playable, otherwise the
    IllegalAction code naming the order-of-preference branch that binds (seed §2.3.4):
    "must_win" (wins now / wins without a playoff), "must_pair" (match a played number),
    "must_outpair" (make a stronger pair), "must_join" (join the pending pair).
    ``led`` is None for a playoff round (numbers only; playoffs always use the 決勝 logic).
    """
    if not rules.must_win or not played:
        return None, list(options)
    playoff = rules.playoff or led is None
    if not playoff:
        winners = _would_win(options, played, led, rules)
        return ("must_win", winners) if winners else (None, list(options))
    numbers = {number(c) for c in played}
    pending = strongest_pair(played, rules.low)
    if pending is None:
        clean = [c for c in _would_win(options, played, led, rules) if number(c) not in numbers]
        if clean:
            return "must_win", clean
        matching = [c for c in options if number(c) in numbers]
        if matching:
            return "must_pair", matching
        return None, list(options)
    pending_strength = number_strength(pending, rules.low)
    stronger = [
        c
        for c in options
        if number(c) in numbers and number_strength(number(c), rules.low) > pending_strength
    ]
    if stronger:
        return "must_outpair", stronger
    joining = [c for c in options if number(c) == pending]
    if joining:
        return "must_join", joining
    return None, list(options)
