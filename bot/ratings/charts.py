"""Tournament and rating pictures as PNGs: standings table, podium, rating history.

Symbols, numbers and player names only, never sentences: the built-in font draws the numbers, and
names are drawn with a system font that has Japanese glyphs when one is installed (what no font
can draw is left out; the message text beside the picture has every name in full). Sizes are
chosen to stay readable on a phone, where Discord shows a picture about 420 pixels wide. The
pictures are a glance; the text stays the source.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from PIL import Image, ImageDraw, ImageFont

from bot.core.drawing import Colour, drawable_name, font, png

BACKGROUND = (43, 45, 49)  # close to Discord's dark theme, so the picture blends into the chat
STRIPE = (50, 52, 57)
FRAME = (80, 83, 90)
TEXT = (235, 236, 240)
MUTED = (150, 153, 160)
BAR = (88, 101, 242)
ACCENT = (250, 200, 60)
GOLD = (232, 186, 44)
SILVER = (190, 194, 204)
BRONZE = (196, 120, 56)
MEDALS = {1: GOLD, 2: SILVER, 3: BRONZE}
GOOD = (60, 170, 90)  # first place at a table
BAD = (210, 65, 55)  # last place at a table
BYE = (110, 113, 120)
DIM = 0.35  # how much of a dropped row's colour survives the blend into the background
FIRST_SEAT = (20, 20, 22)  # the corner of a two-seat round: dark for the first seat (Black)
SECOND_SEAT = (245, 245, 245)

# ---- standings table layout -------------------------------------------------------------------
WIDTH = 440  # Discord shows it about 300 px wide on a phone: fonts of 20 px read as 14
PAD = 8
HEADER_H = 24
ROW_H = 40
MAX_ROWS = 32
DISC_X = PAD + 17  # centre of the rank disc
DISC_R = 16
NAME_X = 50
NAME_W = 132
POINTS_RIGHT = 240  # points are right-aligned here, clear of the name and the bar
POINTS_SIZE = 20
BAR_X = 246
BAR_MAX = 52
BAR_H = 16
ROUNDS_X = 306
CELL_MAX = 30
CELL_GAP = 3
CORNER = 9  # the seat's corner of a two-seat round

#: A round's cell: a bye, or a round missed by a late entrant.
BYE_MARK, LATE_MARK = "B", "L"


@dataclass(frozen=True)
class Cell:
    """One round of one row: ``text`` in the cell (a place, or the opponent's rank at a two-seat
    table), ``shade`` from 0 (first, green) to 1 (last, red), and at a two-seat table the ``seat``
    (0: the first, marked dark in a corner; 1: the second, light)."""

    text: str
    shade: float
    seat: int | None = None


# ---- podium layout ----------------------------------------------------------------------------
PODIUM_W, PODIUM_H = 360, 170
STEP_W = 100
STEP_HEIGHTS = {1: 110, 2: 80, 3: 56}
STEP_X = {2: 20, 1: 130, 3: 240}  # left edges: second left, first centre, third right

# ---- rating history layout --------------------------------------------------------------------
PLOT_W, PLOT_H = 480, 200
PLOT_BOX = (58, 14, PLOT_W - 16, PLOT_H - 18)  # left, top, right, bottom of the plotting frame
PLOT_INSET = 8  # keeps the dots off the frame


def mix(a: tuple[int, int, int], b: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    """``a`` moved a fraction ``t`` of the way towards ``b``."""
    red, green, blue = (round(x + (y - x) * t) for x, y in zip(a, b, strict=True))
    return red, green, blue


def format_points(points: float) -> str:
    """Points as every message shows them: whole without a decimal, else to one decimal, halves
    rounded up (9.25 is 9.3, 11.38 is 11.4); shared places and short tables leave fractions."""
    text = str(Decimal(repr(float(points))).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))
    return text[:-2] if text.endswith(".0") else text


def place_colour(place: int, last: int) -> tuple[int, int, int]:
    """Green for first through to red for last, so a column of results reads at a glance."""
    return GOOD if last <= 1 else mix(GOOD, BAD, (place - 1) / (last - 1))


def row_top(index: int) -> int:
    return PAD + HEADER_H + index * ROW_H


def cell_size(rounds: int) -> int:
    """Cells shrink when many rounds must fit in the width left of the bars."""
    if rounds <= 0:
        return CELL_MAX
    return max(3, min(CELL_MAX, (WIDTH - PAD - ROUNDS_X) // rounds - CELL_GAP))


def standings_image(rows: list[dict]) -> bytes:
    """The standings as a table: medal discs, names, points, point bars and one cell per round.

    ``rows`` come best first as ``{"rank", "points", "rounds", "dropped"}`` and optionally
    ``"name"``; ``rounds`` holds per round a ``Cell``, a place (int), None (no table),
    ``BYE_MARK`` or ``LATE_MARK``. Only the first ``MAX_ROWS`` are drawn, the caller says so in the
    text.
    """
    rows = rows[:MAX_ROWS]
    rounds = max((len(r["rounds"]) for r in rows), default=0)
    # The worst place seen in a round stands for "last" there when a place comes without a shade.
    last = [
        max(
            (r["rounds"][i] for r in rows if i < len(r["rounds"]) and isinstance(r["rounds"][i], int)),
            default=1,
        )
        for i in range(rounds)
    ]
    top = max((max(r["points"], 0) for r in rows), default=0) or 1
    cell = cell_size(rounds)
    height = row_top(len(rows)) + PAD
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)

    small = font(max(10, min(18, cell - 10)))
    for i in range(rounds):
        x = ROUNDS_X + i * (cell + CELL_GAP)
        if cell >= 14 or (i + 1) % 5 == 0:
            draw.text((x + cell / 2, PAD + HEADER_H / 2), str(i + 1), font=small, fill=MUTED, anchor="mm")

    for index, row in enumerate(rows):
        y = row_top(index)
        mid = y + ROW_H // 2
        background = STRIPE if index % 2 else BACKGROUND
        if index % 2:
            draw.rectangle([0, y, WIDTH - 1, y + ROW_H - 1], fill=STRIPE)
        dropped = bool(row.get("dropped"))

        def shade(
            colour: tuple[int, int, int], dropped: bool = dropped, base: tuple[int, int, int] = background
        ) -> tuple[int, int, int]:
            """Dropped rows fade into the background: still readable, clearly out of the running."""
            return mix(base, colour, DIM) if dropped else colour

        rank = row["rank"]
        if rank in MEDALS:
            draw.ellipse(
                [DISC_X - DISC_R, mid - DISC_R, DISC_X + DISC_R, mid + DISC_R], fill=shade(MEDALS[rank])
            )
            number_colour = shade((30, 30, 30))
        else:
            number_colour = shade(TEXT)
        draw.text(
            (DISC_X, mid), str(rank), font=font(19 if rank < 100 else 14), fill=number_colour, anchor="mm"
        )
        face, name = drawable_name(str(row.get("name") or ""), 22, NAME_W)
        if name:
            draw.text((NAME_X, mid), name, font=face, fill=shade(TEXT), anchor="lm")

        points = max(row["points"], 0)
        text = format_points(row["points"])
        size = POINTS_SIZE
        while size > 12 and font(size).getlength(text) > POINTS_RIGHT - NAME_X - NAME_W - 4:
            size -= 1  # never cut: a long total only gets smaller
        draw.text((POINTS_RIGHT, mid), text, font=font(size), fill=shade(TEXT), anchor="rm")
        length = round(BAR_MAX * points / top)
        if length > 0:
            draw.rectangle([BAR_X, mid - BAR_H // 2, BAR_X + length, mid + BAR_H // 2], fill=shade(BAR))

        for i, result in enumerate(row["rounds"]):
            x = ROUNDS_X + i * (cell + CELL_GAP)
            box = [x, mid - cell // 2, x + cell - 1, mid - cell // 2 + cell - 1]
            draw_cell(draw, box, result, last[i], small, shade)
    return png(image)


def draw_cell(
    draw: ImageDraw.ImageDraw,
    box: list[int],
    result: Cell | int | str | None,
    last: int,
    small: ImageFont.FreeTypeFont,
    shade: Callable[[Colour], Colour],
) -> None:
    """One round's cell: an empty outline for no table, a dash for a late entrant's missed round,
    grey "B" for a bye, else coloured from green (first) to red (last) with its text."""
    left, top, right, bottom = box
    cell = right - left + 1
    if result is None:
        draw.rectangle(box, outline=shade(FRAME))
        return
    if result == LATE_MARK:
        draw.rectangle(box, outline=shade(FRAME))
        middle = (top + bottom) // 2
        draw.line([left + cell // 4, middle, right - cell // 4, middle], fill=shade(MUTED), width=2)
        return
    if result == BYE_MARK:
        colour, label, seat = BYE, BYE_MARK, None
    elif isinstance(result, Cell):
        colour, label, seat = mix(GOOD, BAD, min(1.0, max(0.0, result.shade))), result.text, result.seat
    elif isinstance(result, int):
        colour, label, seat = place_colour(result, last), str(result), None
    else:
        raise ValueError(f"not a round's result: {result!r}")
    draw.rectangle(box, fill=shade(colour))
    if seat is not None and cell >= 10:
        corner = min(CORNER, cell // 3)
        mark = FIRST_SEAT if seat == 0 else SECOND_SEAT
        draw.polygon([(left, top), (left + corner, top), (left, top + corner)], fill=shade(mark))
    if cell >= 14:
        draw.text(((left + right + 1) / 2, (top + bottom + 1) / 2), label, font=small, fill=shade(TEXT), anchor="mm")


def podium_image(points: list[float]) -> bytes:
    """The top three on a podium (second left, first centre, third right) with their points above
    each step; fewer entries draw fewer steps."""
    image = Image.new("RGB", (PODIUM_W, PODIUM_H), BACKGROUND)
    draw = ImageDraw.Draw(image)
    floor = PODIUM_H - 12
    for place, value in enumerate(points[:3], start=1):
        left, height = STEP_X[place], STEP_HEIGHTS[place]
        draw.rectangle([left, floor - height, left + STEP_W, floor], fill=MEDALS[place])
        draw.text(
            (left + STEP_W / 2, floor - height / 2), str(place), font=font(40), fill=(30, 30, 30), anchor="mm"
        )
        draw.text(
            (left + STEP_W / 2, floor - height - 16),
            format_points(value),
            font=font(20),
            fill=TEXT,
            anchor="mm",
        )
    draw.line([(10, floor), (PODIUM_W - 10, floor)], fill=FRAME, width=2)
    return png(image)


def plot_points(values: list[int], box: tuple[int, int, int, int]) -> list[tuple[int, int]]:
    """Pixel positions of ``values`` inside ``box`` (left, top, right, bottom), oldest left and
    higher values higher up; a flat series or a single value sits on the middle line."""
    left, top, right, bottom = box
    if not values:
        return []
    low, high = min(values), max(values)
    step = (right - left) / (len(values) - 1) if len(values) > 1 else 0
    result = []
    for i, value in enumerate(values):
        x = left + i * step if len(values) > 1 else (left + right) / 2
        y = (top + bottom) / 2 if high == low else bottom - (value - low) / (high - low) * (bottom - top)
        result.append((round(x), round(y)))
    return result


def rating_history_image(values: list[int]) -> bytes:
    """Displayed ratings over games as a small line plot, the latest value emphasised."""
    image = Image.new("RGB", (PLOT_W, PLOT_H), BACKGROUND)
    draw = ImageDraw.Draw(image)
    left, top, right, bottom = PLOT_BOX
    draw.rectangle(PLOT_BOX, outline=FRAME)
    inner = (left + PLOT_INSET, top + PLOT_INSET, right - PLOT_INSET, bottom - PLOT_INSET)
    points = plot_points(values, inner)
    if not points:
        return png(image)

    low, high = min(values), max(values)
    ticks = {high: min(y for _, y in points), low: max(y for _, y in points)}
    for value, y in ticks.items():
        draw.line([(left - 4, y), (left, y)], fill=MUTED)
        draw.line([(left + 1, y), (right - 1, y)], fill=STRIPE)
        draw.text((left - 7, y), str(value), font=font(13), fill=MUTED, anchor="rm")

    if len(points) > 1:
        draw.line(points, fill=BAR, width=2, joint="curve")
    spacing = (inner[2] - inner[0]) / max(len(points) - 1, 1)
    if spacing >= 6:
        for x, y in points[:-1]:
            draw.ellipse([x - 3, y - 3, x + 3, y + 3], fill=BAR)
    x, y = points[-1]
    draw.ellipse([x - 6, y - 6, x + 6, y + 6], fill=ACCENT, outline=TEXT)
    return png(image)
