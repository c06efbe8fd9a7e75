"""Scenario helpers shared by the Othello de Torite engine test files (the render tests and tests/ai
build positions with ``position`` too)."""

from __future__ import annotations

from cogs.othello_torite.engine import OthelloToriteEngine
from cogs.othello_torite.rules_board import SQUARE_INDEX

BLACK, WHITE = 0, 1


def position(discs: dict[str, str], left=((15, 15), (15, 15)), marker: int = BLACK):
    """A fresh engine whose board is exactly ``discs`` at the start of a trick led by ``marker``.

    ``discs`` maps squares to a colour letter (B/W) plus a suit letter (r = red, b = blue, w = wild),
    e.g. ``{"b1": "Wr", "c1": "Bw"}``. ``left`` gives (red, blue) discs in hand per seat. Returns the
    engine and the events of the automatic passes (if any) before the first seat to act.
    """
    engine = OthelloToriteEngine(2, 7)
    engine.discs = [0, 0]
    engine.suits = [0, 0]
    engine.wild = 0
    for square, code in discs.items():
        bit = 1 << SQUARE_INDEX[square]
        engine.discs["BW".index(code[0])] |= bit
        if code[1] == "w":
            engine.wild |= bit
        else:
            engine.suits["rb".index(code[1])] |= bit
    engine.left = [list(left[0]), list(left[1])]
    engine.marker = marker
    engine.phase = "lead"
    engine.led = None
    engine.trick = []
    events = engine._advance()
    return engine, events


def square(engine: OthelloToriteEngine, name: str):
    col, row = "abcdefgh".index(name[0]), int(name[1]) - 1
    return engine.public_view()["board"][row][col]

