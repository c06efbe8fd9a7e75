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


def test_each_player_reads_their_own_place_score_and_the_winner_in_their_language():
    result = {"ranks": [3, 1, 2], "scores": [40, 12, 25]}
    assert DonguriUI().end_lines(result, 2, NAMES, EN)[0] == "Your place: 🥈 **2 of 3** · penalty 25"
    assert DonguriUI().end_lines(result, 0, NAMES, EN) == [
        "Your place: 🥉 **3 of 3** · penalty 40",
        "Winner: **ben** (penalty 12)",
    ]
    assert DonguriUI().end_lines(result, 1, NAMES, JA) == [
        "あなたの順位: 🥇 **3人中 1位** · マイナス点 12",
        "勝者: **ben**(マイナス点 12)",
    ]


def test_a_place_past_the_third_reads_as_its_number_once():
    result = {"ranks": [2, 1, 3, 4], "scores": [19, 25, 12, 7]}
    names = [*NAMES, "dan"]
    assert SaizenUI().end_lines(result, 3, names, EN)[0] == "Your place: **4 of 4** · 7 tricks"
    assert SaizenUI().end_lines(result, 3, names, JA)[0] == "あなたの順位: **4人中 4位** · 7トリック"


def test_a_shared_place_says_so_and_names_every_winner():
    result = {"ranks": [1, 1, 3], "scores": [19, 19, 12]}
    lines = SaizenUI().end_lines(result, 1, NAMES, EN)
    assert lines == ["Your place: 🥇 **1 of 3** (tied) · 19 tricks", "Winners: **ann** (19 tricks) and **ben** (19 tricks)"]


def test_a_player_whose_clock_ended_the_table_reads_that_they_ran_out_of_time():
    result = {"ranks": [1, 3, 1], "scores": [None, None, None], "reason": "timeout", "absent": [1]}
    lines = DonguriUI().end_lines(result, 1, NAMES, EN)
    assert lines == ["Your place: 🥉 **3 of 3** · ⌛ ran out of time", "Winners: **ann** and **cat**"]


def test_final_quest_tells_each_player_whether_their_team_won_and_names_the_winning_team():
    names = [*NAMES, "dan"]
    result = {"ranks": [2, 1, 2, 1], "scores": [0, 1, 0, 1], "outcome": "win", "winner_team": 1}
    won, lost = FinalQuestUI().end_lines(result, 3, names, EN), FinalQuestUI().end_lines(result, 0, names, EN)
    assert won[0] == "Your team, 🟠 Team B (seats 2 and 4), **won**."
    assert lost[0] == "Your team, 🔵 Team A (seats 1 and 3), lost."
    assert len(won) == len(lost) == 1, "the result block below names the winning pair"
    ja = FinalQuestUI().end_lines(result, 0, names, JA)
    assert ja == ["負けました。あなたのチームは 🔵 チームA(席1と3) です。"], "no parentheses inside parentheses"
    assert FinalQuestUI().end_lines(result, 1, names, JA) == ["**勝ちました！**あなたのチームは 🟠 チームB(席2と4) です。"]
    draw = {"ranks": [1, 1, 1, 1], "scores": [0, 0, 0, 0], "outcome": "draw", "winner_team": None}
    assert FinalQuestUI().end_lines(draw, 2, names, EN) == ["🤝 Draw: the round limit was reached."]
