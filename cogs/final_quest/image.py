"""The Final Quest table as a PNG, drawn from the public view only.

Symbols, numbers and the players' names (the embed carries the words). Seats sit clockwise from
the bottom: seat 1 bottom, 2 left, 3 top, 4 right, so partners face each other; the badge colour
and the name's colour are the team (blue = seats 1 and 3, orange = seats 2 and 4). A card is face up with its number only while the
whole table knows it (shown, refuted publicly, revealed, or every card at the end); the centre card
stays face down until the end. A yellow frame marks the turn player; a yellow arrow points from
the turn player to the seat asked or named this turn (at the end: from the winner who named a
hand exactly to that hand). Two opposite arrows and a digit under a badge
count that seat's swaps; a star marks the winners.
"""

from __future__ import annotations

from math import atan2, cos, pi, sin
from typing import Any

from PIL import Image, ImageDraw

from bot.core.drawing import Colour, drawable_name, font, png

WIDTH, HEIGHT = 800, 600
CARD_W, CARD_H, CARD_GAP = 62, 88, 8
BADGE_R = 28
PANEL_W = BADGE_R * 2 + 14 + 3 * CARD_W + 2 * CARD_GAP
PANEL_H = CARD_H + 20
CENTRES = ((400, 520), (152, 300), (400, 80), (648, 300))  # seat 0 bottom, clockwise
TOP_SEAT = 2
NAME_SIZE = 30

BACKGROUND = (24, 32, 38)
FELT = (27, 94, 62)
FELT_EDGE = (18, 64, 42)
TEAM = ((66, 133, 244), (245, 124, 0))
CARD_FACE = (250, 250, 245)
CARD_EDGE = (40, 40, 40)
CARD_BACK = (120, 30, 45)
CARD_BACK_LINE = (160, 60, 75)
DIAMOND = (214, 40, 40)
INK = (20, 20, 20)
WHITE = (245, 245, 245)
TURN = (255, 214, 0)
PANEL = (20, 70, 46)


def centred_text(draw: ImageDraw.ImageDraw, x: float, y: float, text: str, size: int, fill: Colour) -> None:
    draw.text((x, y), text, font=font(size), fill=fill, anchor="mm")


def diamond(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: Colour) -> None:
    draw.polygon([(cx, cy - r), (cx + r * 0.7, cy), (cx, cy + r), (cx - r * 0.7, cy)], fill=fill)


def card(draw: ImageDraw.ImageDraw, x: int, y: int, number: int | None) -> None:
    """A card with its top-left corner at (x, y): face up with ``number``, or face down (None)."""
    box = (x, y, x + CARD_W, y + CARD_H)
    if number is None:
        draw.rounded_rectangle(box, radius=7, fill=CARD_BACK, outline=CARD_EDGE, width=2)
        draw.rounded_rectangle(
            (x + 6, y + 6, x + CARD_W - 6, y + CARD_H - 6), radius=4, outline=CARD_BACK_LINE, width=2
        )
        diamond(draw, x + CARD_W / 2, y + CARD_H / 2, 18, CARD_BACK_LINE)
        return
    draw.rounded_rectangle(box, radius=7, fill=CARD_FACE, outline=CARD_EDGE, width=2)
    centred_text(draw, x + CARD_W / 2, y + CARD_H / 2 - 6, str(number), 38, INK)
    diamond(draw, x + CARD_W / 2, y + CARD_H - 14, 8, DIAMOND)


def swap_icon(draw: ImageDraw.ImageDraw, cx: int, cy: int, count: int) -> None:
    """Two opposite arrows and the number of swaps."""
    for dy, direction in ((-5, 1), (5, -1)):
        y = cy + dy
        draw.line([(cx - 14, y), (cx + 10, y)], fill=WHITE, width=2)
        tip = cx + 12 if direction > 0 else cx - 16
        draw.polygon([(tip, y), (tip - 6 * direction, y - 4), (tip - 6 * direction, y + 4)], fill=WHITE)
    centred_text(draw, cx + 30, cy, str(count), 22, WHITE)


def star(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        angle = -pi / 2 + i * pi / 5
        points.append((cx + radius * cos(angle), cy + radius * sin(angle)))
    draw.polygon(points, fill=TURN, outline=INK)


def arrow(draw: ImageDraw.ImageDraw, start: tuple[int, int], end: tuple[int, int]) -> None:
    """From the edge of one seat panel towards another, stopping short of both."""
    (x0, y0), (x1, y1) = start, end
    angle = atan2(y1 - y0, x1 - x0)
    trim = 115
    ax, ay = x0 + trim * cos(angle), y0 + trim * sin(angle) * 0.6
    bx, by = x1 - trim * cos(angle), y1 - trim * sin(angle) * 0.6
    draw.line([(ax, ay), (bx, by)], fill=TURN, width=6)
    head = 20
    left = (bx - head * cos(angle - 0.45), by - head * sin(angle - 0.45))
    right = (bx - head * cos(angle + 0.45), by - head * sin(angle + 0.45))
    draw.polygon([(bx + 6 * cos(angle), by + 6 * sin(angle)), left, right], fill=TURN)


def seat_cards(public: dict[str, Any], seat: int) -> list[int | None]:
    if public.get("final_hands"):
        return [int(c[1:]) for c in public["final_hands"][seat]]
    known = [int(c[1:]) for c in public["public_cards"][seat]]
    return known + [None] * (public["hand_counts"][seat] - len(known))


def panel(draw: ImageDraw.ImageDraw, public: dict[str, Any], seat: int) -> None:
    cx, cy = CENTRES[seat]
    left, top = cx - PANEL_W // 2, cy - PANEL_H // 2
    turn = public["phase"] != "over" and public["turn_seat"] == seat
    draw.rounded_rectangle(
        (left - 8, top - 4, left + PANEL_W + 8, top + PANEL_H + 4),
        radius=14,
        fill=PANEL,
        outline=TURN if turn else FELT_EDGE,
        width=5 if turn else 2,
    )
    team = public["teams"][seat]
    bx, by = left + BADGE_R + 2, cy - 12
    draw.ellipse(
        (bx - BADGE_R, by - BADGE_R, bx + BADGE_R, by + BADGE_R), fill=TEAM[team], outline=WHITE, width=3
    )
    centred_text(draw, bx, by, str(seat + 1), 32, WHITE)
    if seat in public["winners"]:
        star(draw, bx + BADGE_R - 2, by - BADGE_R + 2, 13)
    if public["swaps"][seat]:
        swap_icon(draw, bx - 6, by + BADGE_R + 20, public["swaps"][seat])
    x = left + BADGE_R * 2 + 14
    for number in seat_cards(public, seat):
        card(draw, x, cy - CARD_H // 2, number)
        x += CARD_W + CARD_GAP


def name_tag(draw: ImageDraw.ImageDraw, public: dict[str, Any], seat: int, name: str) -> None:
    """The player's name in the team colour, above the seat's panel (below it for the top seat)."""
    face, text = drawable_name(name, NAME_SIZE, PANEL_W)
    if not text:
        return
    cx, cy = CENTRES[seat]
    y = cy + PANEL_H // 2 + 24 if seat == TOP_SEAT else cy - PANEL_H // 2 - 24
    colour = tuple(min(255, c + 70) for c in TEAM[public["teams"][seat]])
    draw.text((cx, y), text, font=face, fill=colour, anchor="mm", stroke_width=3, stroke_fill=BACKGROUND)


def render_table(public: dict[str, Any], names: list[str] | None = None) -> bytes:
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.ellipse((20, 14, WIDTH - 20, HEIGHT - 14), fill=FELT, outline=FELT_EDGE, width=6)
    centre = None if public.get("final_centre") is None else int(public["final_centre"][1:])
    card(draw, WIDTH // 2 - CARD_W // 2, HEIGHT // 2 - CARD_H // 2, centre)
    for seat in range(len(CENTRES)):
        panel(draw, public, seat)
        if names:
            name_tag(draw, public, seat, names[seat])
    action = public.get("pending") or public.get("main_action") or {}
    target = action.get("seat") if public.get("pending") else action.get("target")
    ended_without_hit = public["phase"] == "over" and public["outcome"] != "win"
    if not ended_without_hit and target is not None and target != public["turn_seat"]:
        arrow(draw, CENTRES[public["turn_seat"]], CENTRES[target])
    return png(image, compress_level=1)
