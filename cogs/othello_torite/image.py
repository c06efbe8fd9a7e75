"""The Othello de Torite board as a PNG, drawn from the public view only.

Everything in the picture is a symbol or a number (the embed carries the words): disc colour is the
player, the inner mark is the suit (red = round dot, blue = diamond, wild = half red / half blue,
so the suits differ by shape as well as by colour), a yellow frame marks the last trick's
placements and an orange ring the discs they flipped, and ringed suit marks the squares the seat
to act may use. The picture is the board alone, square: a phone shows an embed image in a box
about 300 px wide and 280 px tall, so anything beside or above the board would shrink it. The
counts, the marker and the led suit are in the embed's text.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.core.drawing import Colour, encoding, font, png

FILES = "abcdefgh"
CELL = 104
BAND = 40  # the coordinates, above and left of the board only
PAD = 12
BOARD_X, BOARD_Y = BAND, BAND
WIDTH = HEIGHT = BAND + CELL * 8 + PAD
DISC_R = 42
MARK_R = 20
HINT_R = 15

BACKGROUND = (38, 50, 56)
FRAME = (27, 67, 35)
BOARD = (46, 125, 50)
BOARD_PLACED = (124, 179, 66)
GRID = (20, 60, 24)
TEXT = (245, 245, 245)
DISC = {"black": (22, 22, 22), "white": (246, 246, 246)}
DISC_EDGE = {"black": (110, 110, 110), "white": (90, 90, 90)}
MARK_EDGE = {"black": (240, 240, 240), "white": (30, 30, 30)}
SUIT = {"red": (229, 40, 40), "blue": (33, 99, 243)}
PLACED = (255, 214, 0)
FLIPPED = (255, 138, 0)
HINT_RING = (200, 230, 201)


def suit_mark(draw: ImageDraw.ImageDraw, cx: int, cy: int, r: int, suit: str, edge: Colour) -> None:
    """Red: a dot. Blue: a diamond. Wild: a dot half red (left), half blue (right)."""
    box = (cx - r, cy - r, cx + r, cy + r)
    if suit == "red":
        draw.ellipse(box, fill=SUIT["red"], outline=edge, width=2)
    elif suit == "blue":
        s = r + 3
        draw.polygon(
            [(cx, cy - s), (cx + s, cy), (cx, cy + s), (cx - s, cy)], fill=SUIT["blue"], outline=edge
        )
        draw.line([(cx, cy - s), (cx + s, cy), (cx, cy + s), (cx - s, cy), (cx, cy - s)], fill=edge, width=2)
    else:
        draw.pieslice(box, 90, 270, fill=SUIT["red"])
        draw.pieslice(box, 270, 90, fill=SUIT["blue"])
        draw.ellipse(box, outline=edge, width=2)


def disc(draw: ImageDraw.ImageDraw, cx: int, cy: int, r: int, colour: str, suit: str | None) -> None:
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=DISC[colour], outline=DISC_EDGE[colour], width=2)
    if suit:
        suit_mark(draw, cx, cy, max(6, r * MARK_R // DISC_R), suit, MARK_EDGE[colour])


def centred(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, text: str, size: int, fill: Colour = TEXT
) -> None:
    draw.text((cx, cy), text, font=font(size), fill=fill, anchor="mm")


def square_xy(name: str) -> tuple[int, int]:
    """Top-left pixel of a square (a1 top-left, as in the engine)."""
    col, row = FILES.index(name[0]), int(name[1:]) - 1
    return BOARD_X + col * CELL, BOARD_Y + row * CELL


@lru_cache(maxsize=1)
def base() -> Image.Image:
    """The unchanging part (background, board, grid, coordinates), drawn once and copied."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, HEIGHT), fill=FRAME)
    draw.rectangle((BOARD_X, BOARD_Y, BOARD_X + 8 * CELL, BOARD_Y + 8 * CELL), fill=BOARD)
    for i in range(9):
        p = BOARD_X + i * CELL
        draw.line([(p, BOARD_Y), (p, BOARD_Y + 8 * CELL)], fill=GRID, width=2)
        q = BOARD_Y + i * CELL
        draw.line([(BOARD_X, q), (BOARD_X + 8 * CELL, q)], fill=GRID, width=2)
    for i in range(8):
        mid = i * CELL + CELL // 2
        centred(draw, BOARD_X + mid, BAND // 2, FILES[i], 32)
        centred(draw, BAND // 2, BOARD_Y + mid, str(i + 1), 32)
    return image


def board(draw: ImageDraw.ImageDraw, public: dict[str, Any]) -> None:
    highlight = public["highlight"]
    for name in highlight["placed"]:
        x, y = square_xy(name)
        draw.rectangle((x + 2, y + 2, x + CELL - 2, y + CELL - 2), fill=BOARD_PLACED, outline=PLACED, width=5)
    flipped = set(highlight["flipped"])
    for r, row in enumerate(public["board"]):
        for c, cell in enumerate(row):
            if cell is None:
                continue
            cx, cy = BOARD_X + c * CELL + CELL // 2, BOARD_Y + r * CELL + CELL // 2
            if FILES[c] + str(r + 1) in flipped:
                rr = DISC_R + 5
                draw.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), outline=FLIPPED, width=5)
            disc(draw, cx, cy, DISC_R, cell["colour"], cell["suit"])


def legal_hints(draw: ImageDraw.ImageDraw, legal: dict[str, list[str]]) -> None:
    """A suit mark, with a light ring, on every square where the seat to act may place now."""
    for n, suit in enumerate(("red", "blue")):
        for name in legal.get(suit, []):
            x, y = square_xy(name)
            both = name in legal.get("blue" if suit == "red" else "red", [])
            cx = x + CELL // 2 + ((-22 if n == 0 else 22) if both else 0)
            cy = y + CELL // 2
            ring = HINT_R + 6
            draw.ellipse((cx - ring, cy - ring, cx + ring, cy + ring), outline=HINT_RING, width=3)
            suit_mark(draw, cx, cy, HINT_R, suit, GRID)


def render_board(public: dict[str, Any], hints: dict[str, list[str]] | None = None) -> bytes:
    """The board; ``hints`` the squares to mark (default: those of the seat to act, from the view).

    A move shows one board several times (the table message, the hand of the seat to act, the
    mover's answer): it is drawn and encoded once, from what the picture shows alone."""
    legal = (public.get("legal_squares") or {}) if hints is None else hints
    return _drawn(json.dumps([public["board"], public["highlight"], legal], sort_keys=True), encoding())


@lru_cache(maxsize=64)
def _drawn(shows: str, encoded: bool) -> bytes:
    squares, highlight, legal = json.loads(shows)
    image = base().copy()
    draw = ImageDraw.Draw(image)
    board(draw, {"board": squares, "highlight": highlight})
    legal_hints(draw, legal)
    return png(image)
