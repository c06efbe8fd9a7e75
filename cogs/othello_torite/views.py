"""What Othello de Torite shows: the board, the record, the public view and the results of an
``OthelloToriteEngine``, apart so that engine.py keeps to the rules."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .rules_board import BLUE, COLOUR_LETTERS, COLOURS, RED, SUIT_NAMES, WILD, names

if TYPE_CHECKING:
    from .engine import OthelloToriteEngine


def _entry_view(entry: dict[str, Any]) -> dict[str, Any]:
    """A trick entry as views show it: flipped discs as square names."""
    return {**entry, "flipped": names(entry["flipped"])} if "flipped" in entry else dict(entry)


def board(engine: OthelloToriteEngine) -> list[list[dict[str, str] | None]]:
    """8 rows (row 1 first) of 8 squares (column a first): None or {colour, suit}."""
    rows: list[list[dict[str, str] | None]] = []
    for r in range(8):
        row: list[dict[str, str] | None] = []
        for c in range(8):
            bit = 1 << (r * 8 + c)
            if engine.discs[0] & bit:
                colour = COLOURS[0]
            elif engine.discs[1] & bit:
                colour = COLOURS[1]
            else:
                row.append(None)
                continue
            if engine.wild & bit:
                suit = WILD
            else:
                suit = SUIT_NAMES[RED] if engine.suits[RED] & bit else SUIT_NAMES[BLUE]
            row.append({"colour": colour, "suit": suit})
        rows.append(row)
    return rows


def record_text(engine: OthelloToriteEngine) -> str:
    """The game so far, one numbered group per trick: ``1. B:r:d3 W:b:c4 2. W:pass B:r:f5``."""
    return " ".join(engine.record + ([_open_trick_text(engine)] if engine.trick else []))


def _open_trick_text(engine: OthelloToriteEngine) -> str:
    tokens = [
        f"{COLOUR_LETTERS[e['seat']]}:pass"
        if e.get("passed")
        else f"{COLOUR_LETTERS[e['seat']]}:{e['suit'][0]}:{e['square']}"
        for e in engine.trick
    ]
    return f"{engine.trick_number}. " + " ".join(tokens)


def public_view(engine: OthelloToriteEngine) -> dict[str, Any]:
    red, blue = engine.legal_moves()
    return {
        "phase": engine.phase,
        "turn": engine.turn,
        "colours": list(COLOURS),
        "board": board(engine),
        "discs_left": [{"red": left[RED], "blue": left[BLUE]} for left in engine.left],
        "scores": engine.scores(),
        "marker": engine.marker,
        "led_suit": SUIT_NAMES[engine.led] if engine.led is not None else None,
        "trick_number": engine.trick_number,
        "trick": [_entry_view(e) for e in engine.trick],
        "last_trick": _last_trick_view(engine),
        "highlight": {
            "trick": engine.recent_trick or None,
            "placed": [e["square"] for e in engine.recent],
            "flipped": [sq for e in engine.recent for sq in names(e["flipped"])],
        },
        "legal_squares": {"red": names(red), "blue": names(blue)},
        "record": record_text(engine),
        "end_reason": engine.end_reason,
    }


def _last_trick_view(engine: OthelloToriteEngine) -> dict[str, Any] | None:
    if engine.last_trick is None:
        return None
    return {**engine.last_trick, "entries": [_entry_view(e) for e in engine.last_trick["entries"]]}


def observation(engine: OthelloToriteEngine, seat: int) -> dict[str, Any]:
    view = engine.public_view()
    view["seat"] = seat
    view["colour"] = COLOURS[seat]
    return view


def results(engine: OthelloToriteEngine) -> dict[str, Any]:
    black, white = engine.scores()
    ranks = [1, 1] if black == white else ([1, 2] if black > white else [2, 1])
    return {
        "ranks": ranks,
        "scores": [black, white],
        "winner": None if black == white else ranks.index(1),
        "end_reason": engine.end_reason,
        "record": record_text(engine),
    }
