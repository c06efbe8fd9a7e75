"""What Othello de Torite shows: the board, the record, the public view and the results; mixed into
``OthelloToriteEngine`` to keep engine.py to the rules."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .rules_board import BLUE, COLOUR_LETTERS, COLOURS, RED, SUIT_NAMES, WILD, names

if TYPE_CHECKING:
    from .engine import OthelloToriteEngine


def _entry_view(entry: dict[str, Any]) -> dict[str, Any]:
    """A trick entry as views show it: flipped discs as square names."""
    return {**entry, "flipped": names(entry["flipped"])} if "flipped" in entry else dict(entry)


class OthelloToriteViews:
    """Mixed into ``OthelloToriteEngine``."""

    def board(self: OthelloToriteEngine) -> list[list[dict[str, str] | None]]:
        """8 rows (row 1 first) of 8 squares (column a first): None or {colour, suit}."""
        rows: list[list[dict[str, str] | None]] = []
        for r in range(8):
            row: list[dict[str, str] | None] = []
            for c in range(8):
                bit = 1 << (r * 8 + c)
                if self.discs[0] & bit:
                    colour = COLOURS[0]
                elif self.discs[1] & bit:
                    colour = COLOURS[1]
                else:
                    row.append(None)
                    continue
                if self.wild & bit:
                    suit = WILD
                else:
                    suit = SUIT_NAMES[RED] if self.suits[RED] & bit else SUIT_NAMES[BLUE]
                row.append({"colour": colour, "suit": suit})
            rows.append(row)
        return rows

    def record_text(self: OthelloToriteEngine) -> str:
        """The game so far, one numbered group per trick: ``1. B:r:d3 W:b:c4 2. W:pass B:r:f5``."""
        return " ".join(self.record + ([self._open_trick_text()] if self.trick else []))

    def _open_trick_text(self: OthelloToriteEngine) -> str:
        tokens = [
            f"{COLOUR_LETTERS[e['seat']]}:pass"
            if e.get("passed")
            else f"{COLOUR_LETTERS[e['seat']]}:{e['suit'][0]}:{e['square']}"
            for e in self.trick
        ]
        return f"{self.trick_number}. " + " ".join(tokens)

    def public_view(self: OthelloToriteEngine) -> dict[str, Any]:
        red, blue = self.legal_moves()
        return {
            "phase": self.phase,
            "turn": self.turn,
            "colours": list(COLOURS),
            "board": self.board(),
            "discs_left": [{"red": left[RED], "blue": left[BLUE]} for left in self.left],
            "scores": self.scores(),
            "marker": self.marker,
            "led_suit": SUIT_NAMES[self.led] if self.led is not None else None,
            "trick_number": self.trick_number,
            "trick": [_entry_view(e) for e in self.trick],
            "last_trick": self._last_trick_view(),
            "highlight": {
                "trick": self.recent_trick or None,
                "placed": [e["square"] for e in self.recent],
                "flipped": [sq for e in self.recent for sq in names(e["flipped"])],
            },
            "legal_squares": {"red": names(red), "blue": names(blue)},
            "record": self.record_text(),
            "end_reason": self.end_reason,
        }

    def _last_trick_view(self: OthelloToriteEngine) -> dict[str, Any] | None:
        if self.last_trick is None:
            return None
        return {**self.last_trick, "entries": [_entry_view(e) for e in self.last_trick["entries"]]}

    def observation(self: OthelloToriteEngine, seat: int) -> dict[str, Any]:
        view = self.public_view()
        view["seat"] = seat
        view["colour"] = COLOURS[seat]
        return view

    def results(self: OthelloToriteEngine) -> dict[str, Any]:
        black, white = self.scores()
        ranks = [1, 1] if black == white else ([1, 2] if black > white else [2, 1])
        return {
            "ranks": ranks,
            "scores": [black, white],
            "winner": None if black == white else ranks.index(1),
            "end_reason": self.end_reason,
            "record": self.record_text(),
        }

    def hidden_from(self: OthelloToriteEngine, seat: int | None) -> set[str]:
        return set()  # perfect information
