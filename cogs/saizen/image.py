"""The four rule cards as a PNG: shapes, numbers and latin abbreviations only, no sentences.

Every switch is two cells, the first-named side on the left: the side in force is lit, the other
is dimmed and carries the chip that covers it. A chip that has already moved (once per game) is
drawn orange with a cross, so players see at a glance which switches can still change. The card
of the suit led in the current trick gets a gold frame. Suits are drawn as shapes because the
default font has no ♠♥♦♣ glyphs.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from bot.core.cards import SUITS
from bot.core.drawing import Colour, font, png
from cogs.saizen.rules_core import SIDES, SWITCHES

WIDTH = 800
GAP = 12
CARD_W = (WIDTH - 5 * GAP) // 4
HEADER_H = 64
ROW_H = 64
CELL_H = 50
CARD_H = HEADER_H + len(SWITCHES) * ROW_H + 8
HEIGHT = CARD_H + 2 * GAP

TABLE = (24, 70, 44)
CARD = (250, 248, 240)
LIT = (20, 110, 60)
LIT_INK = (255, 255, 255)
DIM = (214, 214, 208)
DIM_INK = (140, 140, 134)
CHIP = (236, 236, 236)
CHIP_RIM = (70, 70, 70)
MOVED = (240, 130, 20)
GOLD = (255, 196, 0)
RED = (205, 30, 40)
BLACK = (25, 25, 25)
SUIT_INK = {"S": BLACK, "H": RED, "D": RED, "C": BLACK}

# ---- symbols -------------------------------------------------------------------------------------


def draw_suit(draw: ImageDraw.ImageDraw, suit: str, cx: int, cy: int, r: int) -> None:
    """A suit symbol of radius ``r`` centred on (cx, cy)."""
    ink = SUIT_INK[suit]
    if suit == "D":
        draw.polygon([(cx, cy - r), (cx + r * 0.75, cy), (cx, cy + r), (cx - r * 0.75, cy)], fill=ink)
    elif suit == "H":
        lobe = r * 0.52
        draw.ellipse([cx - 2 * lobe, cy - r * 0.8, cx, cy - r * 0.8 + 2 * lobe], fill=ink)
        draw.ellipse([cx, cy - r * 0.8, cx + 2 * lobe, cy - r * 0.8 + 2 * lobe], fill=ink)
        draw.polygon([(cx - r * 1.0, cy - r * 0.2), (cx + r * 1.0, cy - r * 0.2), (cx, cy + r)], fill=ink)
    elif suit == "S":
        lobe = r * 0.52
        draw.ellipse([cx - 2 * lobe, cy - r * 0.25, cx, cy - r * 0.25 + 2 * lobe], fill=ink)
        draw.ellipse([cx, cy - r * 0.25, cx + 2 * lobe, cy - r * 0.25 + 2 * lobe], fill=ink)
        draw.polygon([(cx - r * 1.0, cy + r * 0.35), (cx + r * 1.0, cy + r * 0.35), (cx, cy - r)], fill=ink)
        draw.polygon([(cx, cy + r * 0.3), (cx + r * 0.4, cy + r), (cx - r * 0.4, cy + r)], fill=ink)
    else:  # clubs
        lobe = r * 0.45
        for dx, dy in ((0, -r * 0.5), (-r * 0.5, r * 0.1), (r * 0.5, r * 0.1)):
            draw.ellipse([cx + dx - lobe, cy + dy - lobe, cx + dx + lobe, cy + dy + lobe], fill=ink)
        draw.polygon([(cx, cy), (cx + r * 0.4, cy + r), (cx - r * 0.4, cy + r)], fill=ink)


def _text(draw: ImageDraw.ImageDraw, cx: float, cy: float, text: str, size: int, ink: Colour) -> None:
    draw.text((cx, cy), text, font=font(size), fill=ink, anchor="mm")


def _triangle_up(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, ink: Colour) -> None:
    draw.polygon([(cx - r, cy + r * 0.8), (cx + r, cy + r * 0.8), (cx, cy - r)], fill=ink)


def _arrow(draw: ImageDraw.ImageDraw, cx: float, cy: float, right: bool, ink: Colour) -> None:
    sign = 1 if right else -1
    draw.line([(cx - 16 * sign, cy), (cx + 6 * sign, cy)], fill=ink, width=6)
    draw.polygon([(cx + 18 * sign, cy), (cx + 4 * sign, cy - 11), (cx + 4 * sign, cy + 11)], fill=ink)


def _equals(draw: ImageDraw.ImageDraw, cx: float, cy: float, ink: Colour) -> None:
    for dy in (-7, 7):
        draw.rectangle([cx - 16, cy + dy - 3, cx + 16, cy + dy + 3], fill=ink)


def _swords(draw: ImageDraw.ImageDraw, cx: float, cy: float, ink: Colour) -> None:
    """Two crossed blades: a playoff."""
    for sign in (1, -1):
        draw.line([(cx - 15 * sign, cy + 15), (cx + 15 * sign, cy - 15)], fill=ink, width=5)
        gx, gy = cx - 9 * sign, cy + 9
        draw.line([(gx - 6, gy - 6 * sign), (gx + 6, gy + 6 * sign)], fill=ink, width=4)


def draw_side(draw: ImageDraw.ImageDraw, side: str, cx: float, cy: float, ink: Colour) -> None:
    """The symbol of one side of a switch, centred on (cx, cy)."""
    if side in ("high", "low"):
        _text(draw, cx - 8, cy, "13" if side == "high" else "1", 26, ink)
        _triangle_up(draw, cx + (18 if side == "high" else 10), cy, 7, ink)
    elif side in ("later", "earlier"):
        _arrow(draw, cx, cy, side == "later", ink)
    elif side == "ignore":
        _equals(draw, cx, cy, ink)
    elif side == "playoff":
        _swords(draw, cx, cy, ink)
    else:
        label = {"must": "MUST", "may": "MAY", "must_win": "WIN", "free": "FREE"}[side]
        _text(draw, cx, cy, label, 20, ink)


def draw_chip(draw: ImageDraw.ImageDraw, cx: float, cy: float, moved: bool) -> None:
    r = 12
    draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=MOVED if moved else CHIP, outline=CHIP_RIM, width=2)
    if moved:
        draw.line([(cx - 6, cy - 6), (cx + 6, cy + 6)], fill=LIT_INK, width=4)
        draw.line([(cx - 6, cy + 6), (cx + 6, cy - 6)], fill=LIT_INK, width=4)


# ---- the cards -----------------------------------------------------------------------------------


def draw_card(draw: ImageDraw.ImageDraw, x: int, y: int, suit: str, card: dict[str, Any], led: bool) -> None:
    if led:
        draw.rounded_rectangle([x - 6, y - 6, x + CARD_W + 6, y + CARD_H + 6], radius=16, fill=GOLD)
    draw.rounded_rectangle([x, y, x + CARD_W, y + CARD_H], radius=12, fill=CARD)
    draw_suit(draw, suit, x + CARD_W // 2, y + HEADER_H // 2 + 2, 22)
    cell_w = (CARD_W - 3 * 8) // 2
    for row, switch in enumerate(SWITCHES):
        state = card[switch]
        top = y + HEADER_H + row * ROW_H
        for index, side in enumerate(SIDES[switch]):
            left = x + 8 + index * (cell_w + 8)
            lit = side == state["side"]
            box = [left, top, left + cell_w, top + CELL_H]
            draw.rounded_rectangle(box, radius=8, fill=LIT if lit else DIM)
            draw_side(draw, side, left + cell_w / 2, top + CELL_H / 2, LIT_INK if lit else DIM_INK)
            if not lit:  # the chip sits on the covered side's corner, clear of its symbol
                draw_chip(draw, left + cell_w - 2, top + 2, state["moved"])


def rule_cards_png(rule_cards: dict[str, dict[str, Any]], led: str | None = None) -> bytes:
    """PNG of the four rule cards from ``public_view()["rule_cards"]``; ``led`` frames that suit's card."""
    image = Image.new("RGB", (WIDTH, HEIGHT), TABLE)
    draw = ImageDraw.Draw(image)
    for i, suit in enumerate(SUITS):
        draw_card(draw, GAP + i * (CARD_W + GAP), GAP, suit, rule_cards[suit], suit == led)
    return png(image)
