"""The Othello de Torite board as a PNG, drawn from the public view only.

Everything in the picture is a symbol or a number (the embed carries the words): disc colour is the
player, the inner mark is the suit (red = round dot, blue = diamond, wild = half red / half blue,
so the suits differ by shape as well as by colour), a yellow frame marks the last trick's
placements and an orange ring the discs they flipped, and ringed suit marks the squares the seat
to act may use. The panel right of the board shows, per player, discs on the board and discs left
in each suit, a star for the marker holder and a frame for the seat to act; below them the trick
number and the led suit. The picture is landscape because a phone caps an embed image's height.
"""

from __future__ import annotations

from functools import lru_cache
from math import cos, pi, sin
from typing import Any

from PIL import Image, ImageDraw

from bot.drawing import font, png

FILES = "abcdefgh"
CELL = 104
BAND = 40  # the coordinates, above and left of the board only
PAD = 16
BOARD_X, BOARD_Y = BAND, BAND
PANEL_X = BOARD_X + CELL * 8 + PAD  # the players and the trick, right of the board
PANEL_W = 220
#: Landscape (about 5:4), so a phone's embed, which caps the height, shows the board large.
WIDTH = PANEL_X + PANEL_W + PAD
HEIGHT = BOARD_Y + CELL * 8 + PAD
DISC_R = 42
MARK_R = 20
HINT_R = 15

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
HINT_RING = (200, 230, 201)


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


def player_card(draw: ImageDraw.ImageDraw, public: dict[str, Any], seat: int, y: int) -> None:
    """Discs on the board (big), discs left per suit, a star for the marker, a frame for the turn."""
    colour = public["colours"][seat]
    left = public["discs_left"][seat]
    to_act = public["turn"] == seat and public["phase"] != "over"
    x0 = PANEL_X
    draw.rounded_rectangle(
        (x0, y, x0 + PANEL_W, y + 200), radius=14, fill=PANEL, outline=TURN if to_act else PANEL, width=5
    )
    cy = y + 56
    if to_act:
        draw.polygon([(x0 + 8, cy - 14), (x0 + 24, cy), (x0 + 8, cy + 14)], fill=TURN)
    disc(draw, x0 + 62, cy, 32, colour, None)
    draw.text((x0 + 106, cy), str(public["scores"][seat]), font=font(60), fill=TEXT, anchor="lm")
    if public["marker"] == seat and public["phase"] != "over":
        star(draw, x0 + PANEL_W - 24, y + 26, 18)
    for n, suit in enumerate(("red", "blue")):
        x, cy2 = x0 + 32 + n * 104, y + 150
        disc(draw, x, cy2, 20, colour, suit)
        fill = TEXT if left[suit] else DIM
        draw.text((x + 26, cy2), str(left[suit]), font=font(42), fill=fill, anchor="lm")


def trick_box(draw: ImageDraw.ImageDraw, public: dict[str, Any]) -> None:
    """Trick number and led suit (a dashed ring while nothing has been led); at the end, the score."""
    x0, y0, x1, y1 = PANEL_X, PAD + 2 * 216, PANEL_X + PANEL_W, HEIGHT - PAD
    draw.rounded_rectangle((x0, y0, x1, y1), radius=14, fill=PANEL)
    cx = (x0 + x1) // 2
    if public["phase"] == "over":
        black, white = public["scores"]
        winners = [s for s in (0, 1) if public["scores"][s] == max(black, white)]
        for n, seat in enumerate(winners):
            x = cx + (n * 2 - len(winners) + 1) * 40
            disc(draw, x, y0 + 110, 36, public["colours"][seat], None)
        star(draw, cx, y0 + 110, 20)
        centred(draw, cx, y0 + 250, f"{black}-{white}", 60)
        return
    centred(draw, cx, y0 + 70, f"#{public['trick_number']}", 60)
    cy, r = y0 + 250, 56
    led = public["led_suit"]
    if led:
        draw.ellipse((cx - r - 8, cy - r - 8, cx + r + 8, cy + r + 8), fill=(90, 110, 120))
        suit_mark(draw, cx, cy, r, led, MARK_EDGE["white"])
    else:
        for start in range(0, 360, 30):
            draw.arc((cx - r, cy - r, cx + r, cy + r), start, start + 15, fill=DIM, width=6)


def square_xy(name: str) -> tuple[int, int]:
    """Top-left pixel of a square (a1 top-left, as in the engine)."""
    col, row = FILES.index(name[0]), int(name[1:]) - 1
    return BOARD_X + col * CELL, BOARD_Y + row * CELL


@lru_cache(maxsize=1)
def base() -> Image.Image:
    """The unchanging part (background, board, grid, coordinates), drawn once and copied."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, PANEL_X - PAD // 2, HEIGHT), fill=FRAME)
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
    """The board; ``hints`` the squares to mark (default: those of the seat to act, from the view)."""
    image = base().copy()
    draw = ImageDraw.Draw(image)
    for seat in (0, 1):
        player_card(draw, public, seat, PAD + seat * 216)
    trick_box(draw, public)
    board(draw, public)
    legal_hints(draw, (public.get("legal_squares") or {}) if hints is None else hints)
    return png(image)
