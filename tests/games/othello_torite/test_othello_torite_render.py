"""Othello de Torite renderer without Discord: the board picture, the table text, prompts, record."""

from __future__ import annotations

import io

from PIL import Image

from bot.core.drawing import UNENCODED, unencoded
from bot.core.i18n import Lang
from cogs.othello_torite import image
from cogs.othello_torite.engine import OthelloToriteEngine
from cogs.othello_torite.render import OthelloToriteUI
from tests.support.othello_torite_engine import position

BLACK, WHITE = 0, 1
NAMES = ["alice", "bob"]
UI = OthelloToriteUI()
TR = Lang("en")
CENTRE = {"d4": "Ww", "e5": "Ww", "d5": "Bw", "e4": "Bw"}


def no_raw_keys(*texts: str | None) -> None:
    for text in texts:
        assert "othello_torite." not in (text or ""), f"untranslated key in {text!r}"


def picture(engine: OthelloToriteEngine) -> Image.Image:
    png = image.render_board(engine.public_view())
    return Image.open(io.BytesIO(png)).convert("RGB")


def centre(square: str) -> tuple[int, int]:
    x, y = image.square_xy(square)
    return x + image.CELL // 2, y + image.CELL // 2


def test_board_picture_shows_suits_wild_discs_highlights_and_legal_squares():
    engine = OthelloToriteEngine(2, 1)
    engine.apply(BLACK, "place:r:d3")  # flips the wild d4; White must follow red on c3, e3 or c5
    pic = picture(engine)
    assert pic.size == (image.WIDTH, image.HEIGHT)
    x, y = centre("d3")
    assert pic.getpixel((x, y)) == image.SUIT["red"], "a red disc has a red inner dot"
    x, y = centre("d4")
    assert pic.getpixel((x - 8, y)) == image.SUIT["red"] and pic.getpixel((x + 8, y)) == image.SUIT["blue"]
    assert pic.getpixel((x, y - image.DISC_R + 8)) == image.DISC["black"], (
        "the flipped wild disc is black now"
    )
    assert pic.getpixel((x + image.DISC_R + 4, y)) == image.FLIPPED, "flipped discs are ringed"
    corner = image.square_xy("d3")
    assert pic.getpixel((corner[0] + 4, corner[1] + 4)) == image.PLACED, "the placement is framed"
    for square in ("c3", "e3", "c5"):
        assert pic.getpixel(centre(square)) == image.SUIT["red"], "legal red squares carry a small red mark"
    assert pic.getpixel(centre("f6")) == image.BOARD
    engine.apply(WHITE, "place:r:c3")
    later = picture(engine)
    assert later.getpixel(centre("c3")) == image.SUIT["red"]
    assert later.getpixel((centre("c3")[0], centre("c3")[1] - image.DISC_R + 8)) == image.DISC["white"]


def test_the_board_reads_on_a_phone():
    """On a 400 px phone an embed image gets a box about 296 px wide and 280 px tall: the picture
    is the board alone, so a square is over 30 px there (it was 26 px beside a header)."""
    pic = picture(OthelloToriteEngine(2, 1))
    scale = min(280 / pic.height, 296 / pic.width)
    assert image.CELL * scale >= 30
    assert image.CELL * 8 / max(pic.size) >= 0.9, "the board, not margins, fills the picture"


def test_the_dm_prompt_carries_the_board_with_only_your_own_squares_marked():
    engine = OthelloToriteEngine(2, 1)
    engine.apply(BLACK, "place:r:d3")  # White must follow red on c3, e3 or c5
    mine = UI.prompt(engine, WHITE, NAMES, TR)
    assert mine.image and mine.image.startswith(b"\x89PNG") and "ringed marks" in mine.text
    pic = Image.open(io.BytesIO(mine.image)).convert("RGB")
    for square in ("c3", "e3", "c5"):
        assert pic.getpixel(centre(square)) == image.SUIT["red"], "your legal squares are marked"
    waiting = UI.prompt(engine, BLACK, NAMES, TR)
    assert waiting.image and "ringed marks" not in waiting.text
    pic = Image.open(io.BytesIO(waiting.image)).convert("RGB")
    assert pic.getpixel(centre("c3")) == image.BOARD, "the other player's squares are not marked"
    ja = UI.prompt(engine, WHITE, NAMES, Lang("ja"))
    assert "輪で囲んだ印" in ja.text


def test_blue_discs_are_diamonds_and_the_picture_changes_with_each_move():
    engine = OthelloToriteEngine(2, 1)
    first = image.render_board(engine.public_view())
    engine.apply(BLACK, "place:b:d3")
    second = image.render_board(engine.public_view())
    assert first != second
    pic = Image.open(io.BytesIO(second)).convert("RGB")
    x, y = centre("d3")
    assert pic.getpixel((x, y)) == image.SUIT["blue"]
    reach = image.MARK_R + 1  # a diamond reaches further along the axis than into the corner
    assert pic.getpixel((x, y - reach)) != image.DISC["black"]
    assert pic.getpixel((x + reach * 7 // 10, y - reach * 7 // 10)) == image.DISC["black"]


def test_table_view_names_players_marker_led_suit_and_the_trick():
    engine = OthelloToriteEngine(2, 1)
    engine.apply(BLACK, "place:r:d3")
    view = UI.table_view(engine.public_view(), NAMES, TR)
    assert view.title == "Trick 1" and view.image.startswith(b"\x89PNG")
    black, white = view.description.splitlines()
    assert "⚫ **alice** (Black) · 4 on the board · left: 🔴 14 · 🔵 15 · ⭐ marker" in black
    assert white.startswith("▶ ⚪ **bob** (White) · 1 on the board")
    ((name, text),) = view.fields
    assert name == "Trick 1"
    assert "Led suit: 🔴 **red**" in text and "⚫ alice: 🔴 d3 (1 flipped)" in text
    assert "⚪ bob must follow with 🔴 red" in text
    no_raw_keys(view.title, view.description, text, view.footer)


def test_follower_prompt_offers_only_the_led_suit_with_flip_counts():
    engine = OthelloToriteEngine(2, 1)
    engine.apply(BLACK, "place:r:d3")
    prompt = UI.prompt(engine, WHITE, NAMES, TR)
    assert "**Your turn to follow** (trick 1): alice led 🔴 **red**." in prompt.text
    assert "You must place a 🔴 **red** disc." in prompt.text
    (menu,) = prompt.menus
    assert menu.placeholder == "🔴 red disc: choose a square (3)"
    assert [c.action for c in menu.choices] == engine.legal_actions(WHITE)
    assert [c.label for c in menu.choices] == ["c3 · flips 1", "e3 · flips 1", "c5 · flips 1"]
    waiting = UI.prompt(engine, BLACK, NAMES, TR)
    assert "Waiting for bob." in waiting.text and waiting.menus == [] and waiting.choices == []
    no_raw_keys(prompt.text, waiting.text)


def test_follow_impossible_prompt_says_the_other_suit_and_why():
    engine, _ = position({"g8": "Wr", "f8": "Bb", "b1": "Bb", "c1": "Bb", "d1": "Wr"})
    engine.apply(BLACK, "place:r:h8")
    prompt = UI.prompt(engine, WHITE, NAMES, TR)
    assert "You have no legal red placement, so you place a 🔵 **blue** disc." in prompt.text
    assert "No red placement flips anything now." in prompt.text
    (menu,) = prompt.menus
    assert [c.action for c in menu.choices] == ["place:b:a1"]


def test_leader_out_of_a_suit_is_told_so():
    engine, _ = position(CENTRE, left=((0, 5), (15, 15)))
    prompt = UI.prompt(engine, BLACK, NAMES, TR)
    assert "**Your lead** (trick 1)" in prompt.text and "You have no red discs left." in prompt.text
    assert [m.placeholder for m in prompt.menus] == ["🔵 blue disc: choose a square (4)"]


def test_record_notes_automatic_passes_marker_and_the_end():
    engine, events = position({"g1": "Bb", "h1": "Wr", "h7": "Bb", "h8": "Wr"})
    lines = UI.record(events, engine.public_view(), NAMES, TR)
    assert lines == ["**Trick 1** · ⏭️ ⚫ alice passes (no legal placement)"]
    events = engine.apply(WHITE, "place:b:f1")
    lines = UI.record(events, engine.public_view(), NAMES, TR)
    assert lines == [
        "**Trick 1** · ⚪ bob: 🔵 f1 (1 flipped) → The other player passed: bob takes the marker."
    ]

    engine, _ = position({"g1": "Wr", "h1": "Bb", "h7": "Wr", "h8": "Bb"})
    events = engine.apply(BLACK, "place:r:f1") + engine.apply(BLACK, "place:r:h6")
    lines = UI.record(events, engine.public_view(), NAMES, TR)
    assert lines[0].startswith("**Trick 1** · ⚫ alice: 🔴 f1 (1 flipped) · ⏭️ ⚪ bob passes")
    assert lines[-2:] == [
        "**Trick 3** · ⏭️ ⚫ alice passes (no legal placement) · ⏭️ ⚪ bob passes (no legal placement)",
        "Neither player can place a disc.",
    ], "who won is the platform's one final-result line, not the game's"
    final = UI.table_view(engine.public_view(), NAMES, TR)
    assert final.title == "Game over"
    record = "```\n1. B:r:f1 W:pass\n2. B:r:h6 W:pass\n3. B:pass W:pass\n```"
    assert record in final.description, "the record is wrapped one trick per line"
    assert UI.score_text(6, TR) == "6 discs" and UI.score_text(1, TR) == "1 disc"
    no_raw_keys(*lines, final.description)


def test_marker_lines_name_the_bigger_count_first():
    lead_one = {"f8": "Bb", "g8": "Wr"}  # Black red h8 flips 1
    follow_two = {"b1": "Bb", "c1": "Bb", "d1": "Wb"}  # White red a1 flips 2
    engine, _ = position({**CENTRE, **lead_one, **follow_two})
    events = engine.apply(BLACK, "place:r:h8") + engine.apply(WHITE, "place:r:a1")
    (line,) = UI.record(events, engine.public_view(), NAMES, TR)
    assert line == (
        "**Trick 1** · ⚫ alice: 🔴 h8 (1 flipped) · ⚪ bob: 🔴 a1 (2 flipped)"
        " → bob flipped more (2 against 1) and takes the marker."
    )
    view = UI.table_view(engine.public_view(), NAMES, TR)
    assert ("Last trick (1)", line.split(" · ", 1)[1].replace(" → ", "\n→ ")) in view.fields


def test_rules_are_complete():
    sections = UI.rules(TR)
    assert len(sections) == 6
    no_raw_keys(*(h + t for h, t in sections))


def test_one_board_shown_on_the_table_and_in_the_hand_to_act_is_encoded_once():
    engine = OthelloToriteEngine(2, 5)
    engine.apply(BLACK, "place:r:d3")
    image._drawn.cache_clear()
    table = UI.table_view(engine.public_view(), NAMES, TR).image
    hand = UI.prompt(engine, WHITE, NAMES, TR).image  # White to act: the same squares marked
    waiting = UI.prompt(engine, BLACK, NAMES, TR).image  # no squares marked: another picture
    assert table == hand and waiting != hand
    info = image._drawn.cache_info()
    assert (info.misses, info.hits) == (2, 1)
    with unencoded():  # a page that links its picture: nothing encoded, nothing kept as if it were
        assert image.render_board(engine.public_view()) == UNENCODED
    assert image.render_board(engine.public_view()) == table
