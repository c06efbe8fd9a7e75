"""Tournament and rating pictures: valid PNGs of the promised size, medal colours, dimmed dropped
rows, and a rating line that rises when the rating does."""

from __future__ import annotations

import io

from PIL import Image

from bot.ratings import charts


def load(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def row(rank: int, points: float, rounds=(1, 2), dropped: bool = False) -> dict:
    return {"rank": rank, "points": points, "rounds": list(rounds), "dropped": dropped}


def brightness(pixel) -> int:
    return sum(pixel[:3])


def row_middle(index: int) -> int:
    return charts.row_top(index) + charts.ROW_H // 2


# ---- standings ---------------------------------------------------------------------------------
def test_standings_image_is_a_png_of_fixed_width_growing_with_rows():
    small = load(charts.standings_image([row(1, 5), row(2, 3)]))
    large = load(charts.standings_image([row(i, 10 - i) for i in range(1, 9)]))
    assert small.format == "PNG" and small.mode == "RGB"
    assert small.width == large.width == charts.WIDTH
    assert large.height > small.height


def test_standings_image_draws_at_most_32_rows():
    many = load(charts.standings_image([row(i, 50 - i) for i in range(1, 41)]))
    capped = load(charts.standings_image([row(i, 50 - i) for i in range(1, 33)]))
    assert many.size == capped.size


def test_medal_discs_are_gold_silver_bronze_and_others_have_none():
    image = load(charts.standings_image([row(1, 5), row(2, 4), row(3, 3), row(4, 2)]))
    left_of_number = charts.DISC_X - charts.DISC_R + 3  # inside the disc, clear of the numeral

    def at(index: int):
        return image.getpixel((left_of_number, row_middle(index)))

    r, g, b = at(0)
    assert r > 200 and g > 150 and b < 100  # gold
    assert at(0) == charts.GOLD
    assert at(1) == charts.SILVER
    assert at(2) == charts.BRONZE
    assert at(3) == charts.STRIPE  # fourth row (odd index) is a plain stripe


def test_points_bar_is_proportional_to_points():
    image = load(charts.standings_image([row(1, 10), row(2, 5)]))

    def bar_end(index: int) -> int:
        y = row_middle(index)
        x = charts.BAR_X
        while image.getpixel((x + 1, y)) == charts.BAR:
            x += 1
        return x - charts.BAR_X

    assert bar_end(0) == charts.BAR_MAX
    assert bar_end(1) == charts.BAR_MAX // 2


def test_a_dropped_row_is_dimmer_than_a_live_row():
    # Two rows on the same background (indices 0 and 2), equal points: only the drop differs.
    image = load(
        charts.standings_image([row(1, 6, rounds=(1,)), row(2, 6), row(3, 6, rounds=(1,), dropped=True)])
    )
    cell_x = charts.ROUNDS_X + 2
    for x in (charts.BAR_X + 5, cell_x, charts.DISC_X - charts.DISC_R + 3):
        live, dropped = image.getpixel((x, row_middle(0))), image.getpixel((x, row_middle(2)))
        assert brightness(dropped) < brightness(live), x


def test_round_cells_run_from_green_for_first_to_red_for_last_with_grey_byes():
    image = load(charts.standings_image([row(1, 6, rounds=(1, "B", None)), row(2, 3, rounds=(3, 2, None))]))
    cell = charts.cell_size(3)

    def cell_pixel(index: int, round_index: int):
        return image.getpixel(
            (charts.ROUNDS_X + round_index * (cell + charts.CELL_GAP) + 2, row_middle(index))
        )

    first, last = cell_pixel(0, 0), cell_pixel(1, 0)
    assert first == charts.GOOD and last == charts.BAD
    assert cell_pixel(0, 1) == charts.BYE
    assert cell_pixel(1, 2) == charts.STRIPE  # not played: an empty outline only


def test_points_are_formatted_with_a_decimal_only_when_fractional():
    assert charts.format_points(6.0) == "6"
    assert charts.format_points(7.5) == "7.5"
    assert charts.format_points(0) == "0"


def test_points_show_at_most_one_decimal_halves_rounded_up():
    """Issue 39: short tables give 11.38, 6.71 and 2.33; 9.25 showed as 9.2."""
    assert [charts.format_points(p) for p in (11.375, 6.708333, 2.333333, 9.25, 0.05)] == [
        "11.4", "6.7", "2.3", "9.3", "0.1"
    ]


def test_standings_image_without_rows_or_rounds_still_renders():
    assert load(charts.standings_image([])).width == charts.WIDTH
    assert load(charts.standings_image([row(1, 0, rounds=())])).width == charts.WIDTH


def test_the_most_rounds_an_event_can_have_fit_in_the_width():
    from bot.events.service import MAX_ROUNDS

    cell = charts.cell_size(MAX_ROUNDS)
    assert charts.ROUNDS_X + MAX_ROUNDS * (cell + charts.CELL_GAP) <= charts.WIDTH
    load(charts.standings_image([row(1, 30, rounds=[1] * MAX_ROUNDS)]))


def test_names_are_drawn_even_in_japanese_and_never_over_the_points():
    plain = load(charts.standings_image([row(1, 5)]))
    box = (charts.NAME_X, charts.row_top(0), charts.NAME_X + 40, charts.row_top(0) + charts.ROW_H)
    for name in ("ann", "たろう", "a very long player name indeed, longer than the column"):
        named = load(charts.standings_image([row(1, 5) | {"name": name}]))
        assert plain.crop(box).getextrema() != named.crop(box).getextrema(), name
        # Nothing of the name reaches the points column.
        clear = (charts.NAME_X + charts.NAME_W + 2, charts.row_top(0), charts.POINTS_RIGHT - 30, charts.row_top(0) + charts.ROW_H)
        assert plain.crop(clear).tobytes() == named.crop(clear).tobytes(), name


def test_points_are_never_cut_by_the_round_cells():
    """Issue 39: "11.4" ran into the first round's cell."""
    for points in (11.375, 100.45, 9.25):
        image = load(charts.standings_image([row(1, points, rounds=(1, 2, 1, 2))]))
        ink = [
            x
            for x in range(charts.NAME_X + charts.NAME_W, charts.ROUNDS_X)
            if image.getpixel((x, row_middle(0))) == charts.TEXT
        ]
        assert ink and max(ink) <= charts.POINTS_RIGHT, points


def test_two_seat_rounds_show_the_opponent_the_result_and_the_seat():
    black_win = charts.Cell("3", 0.0, seat=0)
    white_loss = charts.Cell("1", 1.0, seat=1)
    draw = charts.Cell("2", 0.5, seat=0)
    image = load(charts.standings_image([row(1, 3, rounds=(black_win, white_loss, draw, charts.LATE_MARK))]))
    cell = charts.cell_size(4)

    def pixel(round_index: int, dx: int, dy: int):
        left = charts.ROUNDS_X + round_index * (cell + charts.CELL_GAP)
        return image.getpixel((left + dx, row_middle(0) - cell // 2 + dy))

    assert pixel(0, 1, 1) == charts.FIRST_SEAT and pixel(1, 1, 1) == charts.SECOND_SEAT
    assert pixel(0, cell - 3, cell - 3) == charts.GOOD and pixel(1, cell - 3, cell - 3) == charts.BAD
    assert pixel(2, cell - 3, cell - 3) == charts.mix(charts.GOOD, charts.BAD, 0.5), "a draw is half way"
    assert pixel(3, cell - 3, 2) == charts.BACKGROUND, "a late entrant's missed round is not filled"
    assert pixel(3, cell // 2, cell // 2) == charts.MUTED, "but crossed with a dash"


# ---- podium ------------------------------------------------------------------------------------
def step_pixel(image: Image.Image, place: int):
    """A pixel near the bottom-left of a step, away from the numeral."""
    return image.getpixel((charts.STEP_X[place] + 4, charts.PODIUM_H - 16))


def test_podium_places_gold_in_the_centre_silver_left_bronze_right():
    image = load(charts.podium_image([9, 7.5, 6]))
    assert image.size == (charts.PODIUM_W, charts.PODIUM_H)
    assert step_pixel(image, 1) == charts.GOLD
    assert step_pixel(image, 2) == charts.SILVER
    assert step_pixel(image, 3) == charts.BRONZE
    assert charts.STEP_X[2] < charts.STEP_X[1] < charts.STEP_X[3]


def test_podium_with_fewer_entries_draws_fewer_steps():
    image = load(charts.podium_image([4]))
    assert step_pixel(image, 1) == charts.GOLD
    assert step_pixel(image, 2) == charts.BACKGROUND
    assert step_pixel(image, 3) == charts.BACKGROUND
    assert load(charts.podium_image([])).size == (charts.PODIUM_W, charts.PODIUM_H)


# ---- rating history ----------------------------------------------------------------------------
BOX = (10, 20, 110, 220)


def test_plot_points_put_a_rising_series_higher_on_the_right():
    points = charts.plot_points([1000, 1010, 1050], BOX)
    assert [x for x, _ in points] == [10, 60, 110]
    assert points[0][1] == 220 and points[-1][1] == 20  # lowest at the bottom, highest at the top
    assert points[-1][1] < points[1][1] < points[0][1]


def test_plot_points_centre_a_single_or_flat_series_and_skip_an_empty_one():
    assert charts.plot_points([1000], BOX) == [(60, 120)]
    assert [y for _, y in charts.plot_points([990, 990], BOX)] == [120, 120]
    assert charts.plot_points([], BOX) == []


def test_rating_history_is_a_small_png_with_the_last_dot_emphasised():
    values = [1000, 1030, 1020, 1080]
    image = load(charts.rating_history_image(values))
    assert image.size == (charts.PLOT_W, charts.PLOT_H) and image.mode == "RGB"
    left, top, right, bottom = charts.PLOT_BOX
    inset = charts.PLOT_INSET
    points = charts.plot_points(values, (left + inset, top + inset, right - inset, bottom - inset))
    assert image.getpixel(points[-1]) == charts.ACCENT
    assert image.getpixel(points[0]) == charts.BAR
    assert points[-1][1] < points[0][1]


def test_rating_history_with_one_or_no_values():
    one = load(charts.rating_history_image([1000]))
    left, top, right, bottom = charts.PLOT_BOX
    assert one.getpixel(((left + right) // 2, (top + bottom) // 2)) == charts.ACCENT
    empty = load(charts.rating_history_image([]))
    assert empty.size == (charts.PLOT_W, charts.PLOT_H)
    assert empty.getpixel((left, top + 5)) == charts.FRAME  # the frame is drawn
    assert empty.getpixel(((left + right) // 2, (top + bottom) // 2)) == charts.BACKGROUND
