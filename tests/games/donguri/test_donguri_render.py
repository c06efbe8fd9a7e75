"""Donguri renderer without Discord: the finished table loses the turn legend and marks, and a
final score reads as the penalty it is."""

from __future__ import annotations

import random

from bot.core.i18n import Lang
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
    assert "▶ **" in view_text(running) and running.footer.startswith("▶ to play · 🎴 dealer")
    engine = played(DonguriEngine(3, 5, {"length": "short"}))
    for language, goal in (("en", "lowest total penalty wins"), ("ja", "累計マイナス点が少ない人の勝ち")):
        final = UI.table_view(engine.public_view(), NAMES, Lang(language))
        text = view_text(final)
        assert "▶" not in text and "🎴" not in text, language
        assert final.footer.startswith(goal)


def test_a_final_score_reads_as_a_penalty():
    assert UI.score_text(1, Lang("en")) == "penalty 1"
    assert UI.score_text(12, Lang("ja")) == "マイナス点 12"
