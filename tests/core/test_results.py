"""The result of a finished table: places best first, shared places, winners in bold, scores in
the game's words, and absent players when a clock ended the table."""

from __future__ import annotations

import random

import pytest

from bot.core.i18n import Lang
from bot.core.results import final_line, result_block
from cogs.arsene.render import ArseneUI
from cogs.donguri.render import DonguriUI
from cogs.final_quest.render import FinalQuestUI
from cogs.othello_torite.render import OthelloToriteUI
from cogs.saizen.render import SaizenUI

NAMES = ["ann", "ben", "cat"]
EN, JA = Lang("en"), Lang("ja")


def test_places_are_sorted_and_shared_places_share_a_medal():
    result = {"ranks": [3, 1, 1], "scores": [12, 19, 19]}
    assert result_block(SaizenUI(), result, NAMES, EN) == (
        "🏁 **Final result**\n🥇 **ben** · 19 tricks\n🥇 **cat** · 19 tricks\n🥉 ann · 12 tricks"
    )
    line = final_line(SaizenUI(), result, NAMES, JA, "https://discord.com/channels/1/2/3")
    assert line == (
        "🏁 **最終結果:** 🥇 **ben**(19トリック) · 🥇 **cat**(19トリック) · 🥉 ann(12トリック)"
        " · [卓のメッセージ](https://discord.com/channels/1/2/3)"
    )


def test_a_table_ended_by_the_clock_ranks_the_absent_last_without_scores():
    result = {"ranks": [1, 3, 1], "scores": [None, None, None], "reason": "timeout", "absent": [1]}
    block = result_block(DonguriUI(), result, NAMES, EN).splitlines()
    assert block[1:] == ["🥇 **ann**", "🥇 **cat**", "🥉 ben · ⌛ ran out of time"]
    assert "🥉 ben(⌛ 時間切れ)" in final_line(DonguriUI(), result, NAMES, JA, "u")


def mid_game(ui, players: int):
    engine = ui.engine(players, 4, {})
    chooser = random.Random(4)
    for _ in range(12):
        seat = engine.to_act()[0]
        engine.apply(seat, chooser.choice(engine.legal_actions(seat)))
    return engine


@pytest.mark.parametrize(
    ("ui", "players"),
    [(DonguriUI(), 3), (ArseneUI(), 3), (SaizenUI(), 3), (OthelloToriteUI(), 2), (FinalQuestUI(), 4)],
    ids=lambda v: getattr(v, "game_id", str(v)),
)
def test_a_table_a_clock_stopped_is_drawn_as_over_with_nobody_to_play(ui, players):
    engine = mid_game(ui, players)
    names = NAMES + ["dan"]
    running = ui.table_view(engine.public_view(), names[:players], EN)
    stopped = ui.table_view({**engine.public_view(), "stopped": True}, names[:players], EN)
    text = "\n".join([stopped.title, stopped.description, stopped.footer or ""] + [v for _k, v in stopped.fields])
    assert "▶" not in text and "to act" not in text and "to play" not in text
    assert stopped.title != running.title and "Game over" in stopped.title
