"""Donguri renderer without Discord: the finished table loses the turn legend and marks, and a
final score reads as the penalty it is."""

from __future__ import annotations

import random

from bot.core.i18n import Lang
from bot.tables.render import legend_line
from cogs.donguri.engine import DonguriEngine
from cogs.donguri.render import DonguriUI

UI = DonguriUI()
NAMES = ["ann", "ben", "cat"]


def view_text(view) -> str:
    return "\n".join([view.title, view.description, view.footer or ""] + [f"{a}\n{b}" for a, b in view.fields])


def played(engine: DonguriEngine, moves: int | None = None) -> DonguriEngine:
    chooser = random.Random(3)
    while not engine.is_terminal() and (moves is None or moves > 0):
        (seat,) = engine.to_act()
        engine.apply(seat, chooser.choice(engine.legal_actions(seat)))
        moves = None if moves is None else moves - 1
    return engine


def test_the_running_table_explains_its_marks_and_the_finished_one_drops_them():
    running = UI.table_view(played(DonguriEngine(3, 5, {"length": "short"}), 4).public_view(), NAMES, Lang("en"))
    assert "▶ **" in view_text(running) and "🎴 **" in view_text(running)
    assert legend_line(running, Lang("en")) == "▶ to play · 🎴 dealer"
    assert legend_line(running, Lang("ja")) == "▶ 手番 · 🎴 ディーラー"
    engine = played(DonguriEngine(3, 5, {"length": "short"}))
    for language, goal in (("en", "lowest total penalty wins"), ("ja", "累計マイナス点が少ない人の勝ち")):
        final = UI.table_view(engine.public_view(), NAMES, Lang(language))
        text = view_text(final)
        assert "▶" not in text and "🎴" not in text, language
        assert final.legend == [] and final.footer.startswith(goal), "no mark left, nothing to explain"


def test_a_final_score_reads_as_a_penalty():
    assert UI.score_text(1, Lang("en")) == "penalty 1"
    assert UI.score_text(12, Lang("ja")) == "マイナス点 12"


def test_at_four_players_the_struck_through_second_card_is_explained_in_the_legend():
    """Review 2026-11-26 #5: a struck-through card reads as "void", yet it may win the trick."""
    engine = played(DonguriEngine(4, 2, {"length": "short"}), 4)  # one whole trick
    public = engine.public_view()
    (second,) = public["last_trick"]["excluded"]
    names = [*NAMES, "dan"]
    for language, legend in (
        ("en", "struck-through card: not counted for the majority (it can still win)"),
        ("ja", "取り消し線のカード = 多数決に数えない(トリックは取れる)"),
    ):
        tr = Lang(language)
        view = UI.table_view(public, names, tr)
        (field,) = [v for k, v in view.fields if k == tr("donguri.last_trick")]
        assert f" {names[second]}~~" in field.splitlines()[0]
        assert legend_line(view, tr).endswith(legend)
    three = played(DonguriEngine(3, 2, {"length": "short"}), 3).public_view()
    view = UI.table_view(three, NAMES, Lang("en"))
    (field,) = [v for k, v in view.fields if k == "Last trick"]
    assert "~~" not in field and "majority" not in legend_line(view, Lang("en")), "three players: nothing struck"
