"""Names in table pictures: what the installed font cannot draw is left out, long names are cut."""

from __future__ import annotations

from pathlib import Path

from bot.core.drawing import NAME_FONTS, drawable_name


def test_an_emoji_is_left_out_rather_than_drawn_as_a_box():
    _face, text = drawable_name("🤖 Computer 1", 30, 400)
    assert text == "Computer 1"


def test_a_long_name_is_cut_to_the_width_with_an_ellipsis():
    face, text = drawable_name("a rather long display name indeed", 30, 200)
    assert text.endswith(("…", "...")) and face.getlength(text) <= 200
    assert drawable_name("ann", 30, 200)[1] == "ann"


def test_a_japanese_name_is_drawn_when_a_japanese_font_is_installed():
    _face, text = drawable_name("たろう", 30, 200)
    has_font = any(Path(p).exists() for p in NAME_FONTS)
    assert text == ("たろう" if has_font else ""), "never boxes: the name, or nothing"
