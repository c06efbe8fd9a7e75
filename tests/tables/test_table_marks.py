"""The platform's names and marks on a real table row: one short name per seat in every line, the
level and a replacement said once in the seat list, the legend under the table, and the ? answer
in the member's language (the marks shown, the seat list's notes, greyed cards and the asker's own)."""

from __future__ import annotations

import random

import pytest

from bot.core.engine import Engine
from bot.core.games import REGISTRY, register
from bot.core.i18n import Lang
from bot.storage.store import Seat, TableRow
from bot.tables import legend, render
from cogs.arsene.engine import ArseneEngine
from cogs.arsene.render import ArseneUI
from cogs.donguri.engine import DonguriEngine
from cogs.donguri.render import DonguriUI
from cogs.final_quest.engine import FinalQuestEngine
from cogs.final_quest.render import FinalQuestUI
from cogs.othello_torite.engine import OthelloToriteEngine
from cogs.othello_torite.render import OthelloToriteUI
from cogs.saizen.engine import SaizenEngine
from cogs.saizen.render import SaizenUI

EN, JA = Lang("en"), Lang("ja")
for _ui in (DonguriUI(), ArseneUI(), SaizenUI(), OthelloToriteUI(), FinalQuestUI()):
    if _ui.game_id not in REGISTRY:
        register(_ui)

ENGINES = {
    "donguri": lambda: DonguriEngine(3, 5, {"length": "short"}),
    "arsene": lambda: ArseneEngine(3, 5, {}),
    "saizen": lambda: SaizenEngine(3, 5, {}),
    "othello_torite": lambda: OthelloToriteEngine(2, 5),
    "final_quest": lambda: FinalQuestEngine(4, 5, {}),
}


def seats(n: int) -> list[Seat]:
    """ann took over zoe's seat; a hard computer; cat plays; a computer plays for dan from now on."""
    out = [
        Seat(0, 10, "ann", replaced="zoe"),
        Seat(1, None, "computer:1", level="hard"),
        Seat(2, 12, "cat"),
        Seat(3, 13, "dan", away=True, level="normal"),
    ]
    return out[:n]


def row(game: str, n: int, language: str = "en", status: str = "running") -> TableRow:
    return TableRow(
        id=7, game=game, guild_id=1, channel_id=2, thread_id=None, message_id=None, host_id=10,
        status=status, size=n, options={}, seed=5, language=language, dirty=False, seats=seats(n),
    )


def played(engine: Engine, moves: int, seed: int = 5) -> Engine:
    chooser = random.Random(seed)
    for _ in range(moves):
        seat = chooser.choice(engine.to_act())
        engine.apply(seat, chooser.choice(engine.legal_actions(seat)))
    return engine


def embed_text(embed) -> str:
    parts = [embed.title or "", embed.description or ""]
    parts += [f"{f.name}\n{f.value}" for f in embed.fields]
    return "\n".join(parts)


def test_seat_names_and_labels_in_both_languages():
    table = row("donguri", 4)
    assert render.seat_names(table, EN) == ["ann", "🤖 Computer 1", "cat", "dan"]
    assert render.seat_names(table, EN).labels == [
        "ann (in for zoe)",
        "🤖 Computer 1 (hard)",
        "cat",
        "dan (computer playing, normal)",
    ]
    assert render.seat_names(table, JA) == ["ann", "🤖 CPU1", "cat", "dan"]
    assert render.seat_names(table, JA).labels == ["ann(zoeと交代)", "🤖 CPU1(つよい)", "cat", "dan(CPU代行・ふつう)"]


def test_a_member_in_for_a_computer_and_a_computer_stored_without_a_number():
    """A member who took a computer's seat is "in for 🤖 Computer 2"; a tournament fill-in stored
    as "None" before fill-ins were numbered still reads as a computer, numbered by its seat."""
    assert render.seat_label(Seat(0, 5, "bob", replaced="computer:2"), EN) == "bob (in for 🤖 Computer 2)"
    assert render.seat_name(Seat(2, None, "None"), EN) == "🤖 Computer 3"


def test_a_long_name_is_cut_in_lines_and_whole_in_the_seat_list():
    """Discord allows 32 characters: every line shows 20 (a trick fits a phone's line, an Arsène
    deal one record message), the seat list the whole name."""
    seat = Seat(0, 10, "Alexander_the_Great_of_Macedonia")
    assert render.seat_name(seat, EN) == "Alexander_the_Great…" and len(render.seat_name(seat, EN)) == 20
    assert render.seat_label(seat, EN) == "Alexander_the_Great_of_Macedonia"
    assert render.seat_name(Seat(1, 11, "はなこ"), JA) == "はなこ"


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_the_table_message_names_each_seat_short_and_labels_it_once(game):
    engine = ENGINES[game]()
    n = engine.num_players
    played(engine, 6)
    for tr, level, replaced in ((EN, "(hard)", "(in for zoe)"), (JA, "(つよい)", "(zoeと交代)")):
        embed = render.table_message(row(game, n, tr.language), engine, tr).embed
        text = embed_text(embed)
        assert text.count(level) == 1 and text.count(replaced) == 1, text
        if n == 4:
            away = "(computer playing, normal)" if tr is EN else "(CPU代行・ふつう)"
            assert text.count(away) == 1
        assert embed.footer.text.split("\n")[0] == render.legend_line(render.public_table(row(game, n), engine, tr), tr)


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_the_help_answer_explains_each_mark_shown_in_the_members_language(game):
    engine = played(ENGINES[game](), 6)
    n = engine.num_players
    discs = game == "othello_torite"  # no cards: its own words (review 2026-11-28 #17)
    for tr, heading, greyed in ((EN, "Marks on the table now", "Greyed cards"), (JA, "いま卓に出ている記号", "グレーのカード")):
        view = render.public_table(row(game, n), engine, tr)
        shown = legend.answer(row(game, n), engine, None, tr)
        answer = shown.description
        if discs:
            greyed = "Suits you cannot place now" if tr is EN else "いま置けないスート"
        assert answer.startswith(f"**{heading}**") and f"**{greyed}**" in answer
        assert ("card" in shown.title or "カード" in shown.title) != discs, shown.title
        for key in view.legend:
            assert f"• {tr(f'{key}.long')}" in answer
        assert tr(f"{game}.help.greyed") in answer
        assert tr("help.seat.computer") in answer
        assert tr("help.seat.replaced", label=view_label(tr), player="ann", was="zoe") in answer
        assert tr("help.yours") not in answer, "a spectator has no hand to explain"


def view_label(tr: Lang) -> str:
    return "ann (in for zoe)" if tr is EN else "ann(zoeと交代)"


def test_the_help_answer_gives_a_donguri_player_the_reason_for_their_greyed_cards():
    engine = DonguriEngine(3, 5, {"length": "short"})
    chooser = random.Random(1)
    while True:  # until the player to act holds a card they may not play
        (seat,) = engine.to_act()
        hand = engine.observation(seat)["hand"]
        if len(engine.legal_actions(seat)) < len(hand):
            break
        engine.apply(seat, chooser.choice(engine.legal_actions(seat)))
    suit = engine.explain_illegal(seat, next(f"play:{c}" for c in hand if f"play:{c}" not in engine.legal_actions(seat)))
    symbol = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[suit.params["suit"]]
    for tr, reason in (
        (EN, f"You must follow suit: play a {symbol}"),
        (JA, f"マストフォローです。{symbol}"),
    ):
        answer = legend.answer(row("donguri", 3), engine, seat, tr).description
        assert tr("help.yours") in answer and reason in answer.split(tr("help.yours"))[1]
        other = (seat + 1) % 3
        waiting = legend.answer(row("donguri", 3), engine, other, tr).description
        assert tr("help.not_your_turn") in waiting and reason not in waiting


def test_a_fixed_size_table_says_how_many_players_it_takes():
    othello = row("othello_torite", 2, status="lobby")
    othello.seats = othello.seats[:1]
    assert render.lobby(othello, EN).embed.footer.text == "Starts once 2 players have joined."
    assert render.lobby(othello, JA).embed.footer.text == "2人そろうと始まります。"
    donguri = row("donguri", 5, status="lobby")
    assert render.lobby(donguri, EN).embed.footer.text == (
        "Starts when all 5 seats are taken, or when the host presses Start with at least 3 players."
    )
    three = row("donguri", 3, status="lobby")
    assert render.lobby(three, EN).embed.footer.text == "Starts once 3 players have joined."
