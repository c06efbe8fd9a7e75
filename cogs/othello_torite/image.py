"""The Othello de Torite board as a PNG, drawn from the public view only.

Everything in the picture is a symbol or a number (the embed carries the words): disc colour is the
player, the inner mark is the suit (red = round dot, blue = diamond, wild = half red / half blue,
so the suits differ by shape as well as by colour), a yellow frame marks the last trick's
placements and an orange ring the discs they flipped. The header shows, per player, discs on the
board and discs left in each suit, a star for the marker holder and a frame for the seat to act;
the box on the right shows the trick number and the led suit.
"""

from __future__ import annotations

from functools import lru_cache
from math import cos, pi, sin
from typing import Any

from PIL import Image, ImageDraw

from bot.core.drawing import font, png

FILES = "abcdefgh"
CELL = 88
MARGIN = 40  # coordinate band around the board
HEADER = 180
WIDTH = MARGIN * 2 + CELL * 8
HEIGHT = HEADER + MARGIN * 2 + CELL * 8
BOARD_X, BOARD_Y = MARGIN, HEADER + MARGIN
DISC_R = 36
MARK_R = 17

BACKGROUND = (38, 50, 56)
FRAME = (27, 67, 35)
BOARD = (46, 125, 50)
BOARD_PLACED = (124, 179, 66)
GRID = (20, 60, 24)
TEXT = (245, 245, 245)
DIM = (144, 164, 174)
DISC = {"black": (22, 22, 22), "white": (246, 246, 246)}
DISC_EDGE = {"black": (110, 110, 110), "white": (90, 90, 90)}
MARK_EDGE = {"black": (240, 240, 240), "white": (30, 30, 30)}
SUIT = {"red": (229, 40, 40), "blue": (33, 99, 243)}
PLACED = (255, 214, 0)
FLIPPED = (255, 138, 0)
STAR = (255, 193, 7)
TURN = (255, 214, 0)
PANEL = (55, 71, 79)


def suit_mark(draw: ImageDraw.ImageDraw, cx: int, cy: int, r: int, suit: str, edge: tuple) -> None:
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


def star(draw: ImageDraw.ImageDraw, cx: int, cy: int, r: int) -> None:
    """The lead marker."""
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        angle = -pi / 2 + i * pi / 5
        points.append((cx + radius * cos(angle), cy + radius * sin(angle)))
    draw.polygon(points, fill=STAR, outline=(120, 80, 0))


def centred(draw: ImageDraw.ImageDraw, cx: float, cy: float, text: str, size: int, fill=TEXT) -> None:
    draw.text((cx, cy), text, font=font(size), fill=fill, anchor="mm")


def header_row(draw: ImageDraw.ImageDraw, public: dict[str, Any], seat: int, y: int) -> None:
    colour = public["colours"][seat]
    left = public["discs_left"][seat]
    to_act = public["turn"] == seat
    draw.rounded_rectangle(
        (10, y, 550, y + 74), radius=12, fill=PANEL, outline=TURN if to_act else PANEL, width=4
    )
    cy = y + 37
    if to_act:
        draw.polygon([(20, cy - 13), (36, cy), (20, cy + 13)], fill=TURN)
    disc(draw, 72, cy, 28, colour, None)
    draw.text((110, cy), str(public["scores"][seat]), font=font(46), fill=TEXT, anchor="lm")
    for n, suit in enumerate(("red", "blue")):
        x = 222 + n * 140
        disc(draw, x, cy, 22, colour, suit)
        fill = TEXT if left[suit] else DIM
        draw.text((x + 32, cy), str(left[suit]), font=font(38), fill=fill, anchor="lm")
    if public["marker"] == seat and public["phase"] != "over":
        star(draw, 512, cy, 26)


def trick_box(draw: ImageDraw.ImageDraw, public: dict[str, Any]) -> None:
    """Trick number and led suit (a dashed ring while nothing has been led)."""
    x0, y0, x1, y1 = 566, 14, WIDTH - 10, HEADER - 14
    draw.rounded_rectangle((x0, y0, x1, y1), radius=12, fill=PANEL)
    cx = (x0 + x1) // 2
    if public["phase"] == "over":
        black, white = public["scores"]
        winners = [s for s in (0, 1) if public["scores"][s] == max(black, white)]
        for n, seat in enumerate(winners):
            x = cx + (n * 2 - len(winners) + 1) * 26
            disc(draw, x, y0 + 42, 24, public["colours"][seat], None)
        star(draw, cx, y0 + 42, 14)
        centred(draw, cx, y1 - 38, f"{black}-{white}", 44)
        return
    centred(draw, cx, y0 + 30, f"#{public['trick_number']}", 36)
    cy, r = y1 - 50, 30
    led = public["led_suit"]
    if led:
        draw.ellipse((cx - r - 6, cy - r - 6, cx + r + 6, cy + r + 6), fill=(90, 110, 120))
        suit_mark(draw, cx, cy, r, led, MARK_EDGE["white"])
    else:
        for start in range(0, 360, 30):
            draw.arc((cx - r, cy - r, cx + r, cy + r), start, start + 15, fill=DIM, width=4)


def square_xy(name: str) -> tuple[int, int]:
    """Top-left pixel of a square (a1 top-left, as in the engine)."""
    col, row = FILES.index(name[0]), int(name[1:]) - 1
    return BOARD_X + col * CELL, BOARD_Y + row * CELL


@lru_cache(maxsize=1)
def base() -> Image.Image:
    """The unchanging part (background, board, grid, coordinates), drawn once and copied."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rectangle((BOARD_X - MARGIN, BOARD_Y - MARGIN, WIDTH, HEIGHT), fill=FRAME)
    draw.rectangle((BOARD_X, BOARD_Y, BOARD_X + 8 * CELL, BOARD_Y + 8 * CELL), fill=BOARD)
    for i in range(9):
        p = BOARD_X + i * CELL
        draw.line([(p, BOARD_Y), (p, BOARD_Y + 8 * CELL)], fill=GRID, width=2)
        q = BOARD_Y + i * CELL
        draw.line([(BOARD_X, q), (BOARD_X + 8 * CELL, q)], fill=GRID, width=2)
    for i in range(8):
        mid = i * CELL + CELL // 2
        for y in (BOARD_Y - MARGIN // 2, BOARD_Y + 8 * CELL + MARGIN // 2):
            centred(draw, BOARD_X + mid, y, FILES[i], 28)
        for x in (BOARD_X - MARGIN // 2, BOARD_X + 8 * CELL + MARGIN // 2):
            centred(draw, x, BOARD_Y + mid, str(i + 1), 28)
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
    legal_hints(draw, public)


def legal_hints(draw: ImageDraw.ImageDraw, public: dict[str, Any]) -> None:
    """Small suit marks on the squares the seat to act may use now."""
    legal = public.get("legal_squares") or {}
    for n, suit in enumerate(("red", "blue")):
        for name in legal.get(suit, []):
            x, y = square_xy(name)
            both = name in legal.get("blue" if suit == "red" else "red", [])
            cx = x + CELL // 2 + ((-14 if n == 0 else 14) if both else 0)
            suit_mark(draw, cx, y + CELL // 2, 8, suit, GRID)


def render_board(public: dict[str, Any]) -> bytes:
    image = base().copy()
    draw = ImageDraw.Draw(image)
    for seat in (0, 1):
        header_row(draw, public, seat, 12 + seat * 84)
    trick_box(draw, public)
    board(draw, public)
    return png(image)
