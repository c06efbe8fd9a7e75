"""The Arsène shop board as a PNG, drawn from the public view only.

Symbols and numbers only (no sentences, no per-language fonts): seats are coloured discs with their
seat number, suits are drawn shapes, the dummy is a thief's mask. The embed text says the same in
words, so the picture is a glance, never the only source.
"""

from __future__ import annotations

import math
from typing import Any

from PIL import Image, ImageDraw

from bot.core.cards import RANK_NAMES, rank_of, suit_of
from bot.core.drawing import Colour, font, png
from cogs.arsene.rules_scoring import SHOP_GROUPS

WIDTH = 800
FELT = (24, 70, 48)
FELT_DARK = (16, 50, 34)
CREAM = (250, 244, 228)
INK = (25, 25, 25)
RED = (205, 30, 45)
GOLD = (240, 190, 40)
GOLD_EDGE = (150, 105, 10)
GREY = (120, 120, 120)
PALE = (200, 200, 200)
TOKEN = (150, 90, 220)
WHITE = (255, 255, 255)
#: Seat colours, matching the coloured discs of the embed text (🔵 🟠 🟣 🟢).
SEAT_COLOURS = [(50, 110, 230), (240, 130, 20), (150, 70, 200), (30, 170, 90)]
DUMMY_COLOUR = (90, 90, 90)

SHOP_TOP = 14
SHOP_H = 222
STATUS_TOP = SHOP_TOP + SHOP_H + 12
STATUS_H = 84
ROWS_TOP = STATUS_TOP + STATUS_H + 12
ROW_H = 74


def text_center(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill: Colour
) -> None:
    draw.text(xy, text, font=font(size), fill=fill, anchor="mm")


# ---- symbols -----------------------------------------------------------------------------------
def suit_shape(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, suit: str, fill: Colour | None = None
) -> None:
    """A suit drawn as shapes (no font glyphs): ``r`` is about half the symbol's height."""
    colour = fill or (RED if suit in "HD" else INK)
    if suit == "D":
        draw.polygon([(cx, cy - r), (cx + r * 0.75, cy), (cx, cy + r), (cx - r * 0.75, cy)], fill=colour)
    elif suit == "H":
        q = r * 0.5
        draw.ellipse([cx - 2 * q, cy - r, cx, cy - r + 2 * q], fill=colour)
        draw.ellipse([cx, cy - r, cx + 2 * q, cy - r + 2 * q], fill=colour)
        draw.polygon(
            [(cx - 2 * q + 1, cy - r + q * 1.3), (cx + 2 * q - 1, cy - r + q * 1.3), (cx, cy + r)],
            fill=colour,
        )
    elif suit == "S":
        q = r * 0.5
        draw.polygon(
            [(cx, cy - r), (cx + 2 * q - 1, cy + q * 0.2), (cx - 2 * q + 1, cy + q * 0.2)], fill=colour
        )
        draw.ellipse([cx - 2 * q, cy - q * 0.6, cx, cy + q * 1.2], fill=colour)
        draw.ellipse([cx, cy - q * 0.6, cx + 2 * q, cy + q * 1.2], fill=colour)
        draw.polygon([(cx, cy + q * 0.2), (cx + q * 0.6, cy + r), (cx - q * 0.6, cy + r)], fill=colour)
    elif suit == "C":
        q = r * 0.48
        draw.ellipse([cx - q, cy - r, cx + q, cy - r + 2 * q], fill=colour)
        draw.ellipse([cx - 2 * q, cy - q * 0.7, cx, cy + q * 1.3], fill=colour)
        draw.ellipse([cx, cy - q * 0.7, cx + 2 * q, cy + q * 1.3], fill=colour)
        draw.polygon([(cx, cy - q * 0.2), (cx + q * 0.6, cy + r), (cx - q * 0.6, cy + r)], fill=colour)


def mini_card(
    draw: ImageDraw.ImageDraw, x: float, y: float, card: str | None, w: int = 46, h: int = 62
) -> None:
    """A small face-up card (rank over suit) or, with ``card`` None, a face-down back."""
    if card is None:
        draw.rounded_rectangle([x, y, x + w, y + h], radius=6, fill=(60, 60, 140), outline=WHITE, width=2)
        draw.rounded_rectangle(
            [x + 6, y + 6, x + w - 6, y + h - 6], radius=4, outline=(140, 140, 220), width=2
        )
        return
    suit, rank = suit_of(card), rank_of(card)
    draw.rounded_rectangle([x, y, x + w, y + h], radius=6, fill=WHITE, outline=INK, width=2)
    colour = RED if suit in "HD" else INK
    text_center(draw, (x + w / 2, y + h * 0.3), RANK_NAMES.get(rank, str(rank)), 22, colour)
    suit_shape(draw, x + w / 2, y + h * 0.7, h * 0.17, suit)


def seat_badge(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, seat: int) -> None:
    draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=SEAT_COLOURS[seat], outline=WHITE, width=2)
    text_center(draw, (cx, cy + 1), str(seat + 1), int(r * 1.2), WHITE)


def mask_badge(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """The dummy: a grey disc with a black thief's mask."""
    draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=DUMMY_COLOUR, outline=WHITE, width=2)
    draw.rounded_rectangle(
        [cx - r * 0.8, cy - r * 0.3, cx + r * 0.8, cy + r * 0.25], radius=r * 0.25, fill=INK
    )
    for dx in (-0.38, 0.38):
        ex = cx + dx * r
        draw.ellipse([ex - r * 0.18, cy - r * 0.16, ex + r * 0.18, cy + r * 0.1], fill=WHITE)


def chip(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, value: int | None, live: bool = True
) -> None:
    if live:
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=GOLD, outline=GOLD_EDGE, width=3)
        if value is not None:
            text_center(draw, (cx, cy + 1), str(value), int(r * 1.15), INK)
    else:
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], outline=PALE, width=2)
        if value is not None:
            text_center(draw, (cx, cy + 1), str(value), int(r * 1.0), PALE)


def token(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, held: bool) -> None:
    if held:
        draw.regular_polygon((cx, cy, r), 6, fill=TOKEN, outline=WHITE)
    else:
        draw.regular_polygon((cx, cy, r), 6, outline=(110, 140, 120))


def star(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """A five-pointed gold star: the winner(s) at the end."""
    points = []
    for k in range(10):
        radius = r if k % 2 == 0 else r * 0.45
        angle = math.pi / 2 + k * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy - radius * math.sin(angle)))
    draw.polygon(points, fill=GOLD, outline=WHITE)


def cross(
    draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], fill: Colour, width: int
) -> None:
    x0, y0, x1, y1 = box
    draw.line([(x0, y0), (x1, y1)], fill=fill, width=width)
    draw.line([(x0, y1), (x1, y0)], fill=fill, width=width)


# ---- sections ----------------------------------------------------------------------------------
def draw_shops(draw: ImageDraw.ImageDraw, public: dict[str, Any]) -> None:
    """Five tiles: shop number, remaining chip groups (next on top), taken groups as outlines,
    and the seats whose trick count points at the shop right now."""
    gap, w = 10, (WIDTH - 6 * 10) // 5
    visitors: dict[int, list[int | None]] = {}
    for p in public["players"]:
        visitors.setdefault(p["tricks"], []).append(p["seat"])
    if public.get("dummy"):
        visitors.setdefault(public["dummy"]["tricks"], []).append(None)
    for i, shop in enumerate(public["shops"]):
        x = gap + i * (w + gap)
        y = SHOP_TOP
        empty = shop["empty"]
        draw.rounded_rectangle([x, y, x + w, y + SHOP_H], radius=12, fill=(70, 70, 70) if empty else CREAM)
        suit_shape(draw, x + 30, y + 32, 20, "D")
        text_center(draw, (x + w - 40, y + 32), str(shop["shop"]), 40, WHITE if empty else INK)
        for k, value in enumerate(SHOP_GROUPS[shop["shop"]]):
            cy = y + 84 + k * 42
            live = k >= shop["taken"]
            chip(draw, x + w / 2, cy, 19, value, live=live)
        if empty:
            cross(draw, (x + 22, y + 64, x + w - 22, y + 190), RED, 7)
        seats = visitors.get(shop["shop"], [])
        for k, seat in enumerate(seats):
            cx = x + w / 2 + (k - (len(seats) - 1) / 2) * 32
            if seat is None:
                mask_badge(draw, cx, y + SHOP_H - 20, 15)
            else:
                seat_badge(draw, cx, y + SHOP_H - 20, 15, seat)


def draw_status(draw: ImageDraw.ImageDraw, public: dict[str, Any]) -> None:
    """Trumps or not (with the laid or shown card), trick number, token pool, contest mode."""
    y = STATUS_TOP
    draw.rounded_rectangle([10, y, WIDTH - 10, y + STATUS_H], radius=12, fill=FELT_DARK)
    cy = y + STATUS_H / 2
    trumps = public["trumps"]
    if trumps is None:
        suit_shape(draw, 52, cy, 28, "D", fill=GREY)
        text_center(draw, (52, cy + 2), "?", 30, WHITE)
        mini_card(draw, 96, cy - 31, None)
    elif trumps:
        draw.ellipse([16, cy - 36, 88, cy + 36], fill=GOLD)
        suit_shape(draw, 52, cy, 30, "D")
        mini_card(draw, 96, cy - 31, public["trump_card"])
    else:
        suit_shape(draw, 52, cy, 28, "D", fill=GREY)
        draw.ellipse([20, cy - 32, 84, cy + 32], outline=RED, width=5)
        draw.line([(29, cy + 23), (75, cy - 23)], fill=RED, width=5)
        mini_card(draw, 96, cy - 31, public["shown_card"])
    # trick counter: small card backs + "n/11"
    number = public["trick_number"] if public["phase"] in ("play", "push") else 0
    text_center(draw, (290, cy), f"{number}/{public['tricks_per_deal']}", 36, WHITE)
    for k in range(3):
        draw.rounded_rectangle(
            [200 + k * 6, cy - 20 + k * 3, 222 + k * 6, cy + 10 + k * 3],
            radius=3,
            fill=(60, 60, 140),
            outline=WHITE,
        )
    # token pool
    token(draw, 420, cy, 20, True)
    text_center(draw, (478, cy), f"{public['token_pool']}", 36, WHITE)
    # contest mode: two opposite arrows
    if public["contest"]:
        x0, x1 = 560, 640
        draw.rounded_rectangle([548, cy - 32, 652, cy + 32], radius=10, fill=(120, 20, 30))
        draw.line([(x0, cy - 10), (x1, cy - 10)], fill=WHITE, width=5)
        draw.polygon([(x1 + 4, cy - 10), (x1 - 10, cy - 20), (x1 - 10, cy)], fill=WHITE)
        draw.line([(x0, cy + 10), (x1, cy + 10)], fill=WHITE, width=5)
        draw.polygon([(x0 - 4, cy + 10), (x0 + 10, cy), (x0 + 10, cy + 20)], fill=WHITE)
    # deal number
    text_center(draw, (730, cy), f"#{public['deal']}", 34, PALE)


def draw_rows(draw: ImageDraw.ImageDraw, public: dict[str, Any]) -> int:
    """One row per seat (then the dummy): badge, dealer and turn marks, chips, tokens, tricks, card
    on the table this trick. Returns the bottom edge."""
    played = {p["seat"]: p["card"] for p in public["trick"]}
    leader = public["trick"][0]["seat"] if public["trick"] else None
    secret = public["phase"] == "dummy_choice"
    to_act = set(public["to_act"])
    y = ROWS_TOP
    for p in public["players"]:
        seat = p["seat"]
        draw.rounded_rectangle(
            [10, y, WIDTH - 10, y + ROW_H - 6], radius=12, fill=(40, 95, 68) if seat in to_act else FELT_DARK
        )
        cy = y + (ROW_H - 6) / 2
        if seat in to_act:
            draw.polygon([(16, cy - 14), (34, cy), (16, cy + 14)], fill=GOLD)
        seat_badge(draw, 64, cy, 24, seat)
        if public["dealer"] == seat and not public.get("result"):
            draw.ellipse([92, cy - 22, 124, cy + 10], fill=WHITE, outline=INK, width=2)
            text_center(draw, (108, cy - 5), "D", 22, INK)
        chip(draw, 170, cy, 22, None)
        text_center(draw, (232, cy), str(p["chips"]), 40, WHITE)
        for k in range(public["token_cap"]):
            token(draw, 300 + k * 40, cy, 16, k < p["tokens"])
        if p["exempt_used"]:
            cross(draw, (286, cy - 14, 354, cy + 14), RED, 4)
        _tricks(draw, 400, cy, p["tricks"])
        if public.get("result") and seat in public["result"]["winners"]:
            star(draw, WIDTH - 57, cy, 28)
        if seat in played:
            if seat == leader:
                draw.rounded_rectangle([WIDTH - 85, y - 1, WIDTH - 29, y + ROW_H - 4], radius=8, fill=GOLD)
            mini_card(draw, WIDTH - 80, y + 3, played[seat], 46, ROW_H - 12)
        elif secret and p["dummy_card_given"]:
            mini_card(draw, WIDTH - 80, y + 3, None, 46, ROW_H - 12)
        y += ROW_H
    dummy = public.get("dummy")
    if dummy:
        draw.rounded_rectangle([10, y, WIDTH - 10, y + ROW_H - 6], radius=12, fill=FELT_DARK)
        cy = y + (ROW_H - 6) / 2
        mask_badge(draw, 64, cy, 24)
        _tricks(draw, 400, cy, dummy["tricks"])
        for k in range(dummy["cards_given"] if secret else 0):
            mini_card(draw, WIDTH - 80 - k * 14, y + 3, None, 46, ROW_H - 12)
        y += ROW_H
    return y + 4


def _tricks(draw: ImageDraw.ImageDraw, x: float, cy: float, count: int) -> None:
    """The trick count (after a little stack of card backs) and one bar per trick."""
    for k in range(3):
        draw.rounded_rectangle(
            [x - 12 + k * 5, cy - 16 + k * 3, x + 6 + k * 5, cy + 10 + k * 3],
            radius=3,
            fill=(60, 60, 140),
            outline=WHITE,
        )
    text_center(draw, (x + 50, cy), str(count), 40, WHITE)
    for k in range(count):
        bx = x + 84 + k * 16
        draw.rectangle([bx, cy - 16, bx + 10, cy + 16], fill=CREAM if k < 5 else (230, 120, 120))


def board_png(public: dict[str, Any]) -> bytes:
    """The whole board; about 800 × 620 px, a few milliseconds to draw."""
    rows = public["num_players"] + (1 if public.get("dummy") else 0)
    height = ROWS_TOP + rows * ROW_H + 8
    image = Image.new("RGB", (WIDTH, height), FELT)
    draw = ImageDraw.Draw(image)
    draw_shops(draw, public)
    draw_status(draw, public)
    draw_rows(draw, public)
    return png(image)
