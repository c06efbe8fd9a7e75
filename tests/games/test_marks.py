"""Every game's table names each seat once with its label and every other time by its short name,
and its legend line explains exactly the marks the table shows: no mark without a line, no line
for a mark not shown. Played through random games, every state checked."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator

import pytest

from bot.core.engine import Engine
from bot.core.games import REGISTRY, GameUI, Names, TableView, register
from bot.core.i18n import Lang
from bot.tables.render import legend_line
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
from tests.support.engines import random_play

EN, JA = Lang("en"), Lang("ja")
UIS: dict[str, GameUI] = {
    ui.game_id: ui for ui in (DonguriUI(), ArseneUI(), SaizenUI(), OthelloToriteUI(), FinalQuestUI())
}
for _ui in UIS.values():
    if _ui.game_id not in REGISTRY:
        register(_ui)

#: Seat 0 a member who took over a seat, seat 1 a computer, the rest plain members.
SHORT = ["ann", "🤖 Computer 1", "cat", "dan", "eve"]
LABELS = ["ann (in for zoe)", "🤖 Computer 1 (hard)", "cat", "dan", "eve"]


def names(n: int) -> Names:
    return Names(SHORT[:n], LABELS[:n])


def shown(view: TableView) -> str:
    """What the table shows above its legend line."""
    return "\n".join([view.title, view.description, *(f"{a}\n{b}" for a, b in view.fields)])


def states(engine: Engine, seed: int, steps: int = 400) -> Iterator[Engine]:
    yield engine
    yield from random_play(engine, random.Random(seed), steps)


GAMES: dict[str, Callable[[int], Engine]] = {
    "donguri": lambda seed: DonguriEngine(4 if seed % 2 else 3, seed, {"length": "short"}),
    "arsene": lambda seed: ArseneEngine(3 if seed % 2 else 4, seed, {"advanced": True}),
    "saizen": lambda seed: SaizenEngine(3, seed, {"jokers": 2}),
    "othello_torite": lambda seed: OthelloToriteEngine(2, seed),
    "final_quest": lambda seed: FinalQuestEngine(4, seed, {}),
}

def rule_card_shows(tag: str) -> Callable[[str], bool]:
    """Whether a side of a Saizen switch is in force on some rule card (read above the last trick)."""
    return lambda text: tag in text.split("Last trick")[0]


Sign = str | re.Pattern[str] | Callable[[str], bool]

#: Per game: mark key → what in the table's text shows that mark: a piece of text, a pattern found
#: in it, or a test of it.
SHOWS: dict[str, dict[str, Sign]] = {
    "donguri": {"donguri.mark.turn": "▶", "donguri.mark.dealer": "🎴", "donguri.mark.excluded": "~~"},
    "arsene": {
        "arsene.mark.turn": "▶",
        "arsene.mark.dealer": "🎴",
        "arsene.mark.taken": re.compile(r": (✕ )+\*\*"),
        "arsene.mark.police": "🚨",
        "arsene.mark.pushed": "and pushed it to",
        "arsene.mark.after": "⇒",
    },
    "saizen": {
        "saizen.mark.turn": "▶",
        "saizen.mark.led": "◀",
        "saizen.mark.locked": "🔒",
        "saizen.mark.off_suit": "~~",
        "saizen.mark.playoff": "⚔",
        **{
            f"saizen.mark.side.{side}": rule_card_shows(tag)
            for side, tag in (
                ("high", "大 high"), ("low", "小 low"), ("later", "後 later"), ("earlier", "先 earlier"),
                ("ignore", "無視 ignore"), ("playoff", "決勝 playoff"), ("must", "MUST follow"),
                ("may", "MAY follow"), ("must_win", "必勝 must win"), ("free", "自由 free"),
            )
        },
    },
    "othello_torite": {"othello_torite.mark.turn": "▶", "othello_torite.mark.marker": "⭐"},
    "final_quest": {
        "final_quest.mark.turn": "▶",
        "final_quest.mark.winner": "🏆",
        "final_quest.mark.fact_turn": re.compile(r"^T\d+: ", re.M),
    },
}


def shows(sign: Sign, text: str) -> bool:
    if isinstance(sign, str):
        return sign in text
    if isinstance(sign, re.Pattern):
        return sign.search(text) is not None
    return sign(text)


@pytest.fixture
def no_pictures(monkeypatch):
    """The marks are read from the text: the pictures are not drawn, so many states stay quick."""
    for module, name in (
        ("cogs.arsene.render", "board_png"),
        ("cogs.final_quest.render", "render_table"),
        ("cogs.saizen.render", "rule_cards_png"),
        ("cogs.othello_torite.render", "render_board"),
    ):
        monkeypatch.setattr(f"{module}.{name}", lambda *args, **kwargs: b"")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_legend_explains_exactly_the_marks_the_table_shows(game, no_pictures):
    ui, seen = UIS[game], set()
    for seed in (1, 2):
        for engine in states(GAMES[game](seed), seed):
            view = ui.table_view(engine.public_view(), names(engine.num_players), EN)
            text = shown(view)
            for key, sign in SHOWS[game].items():
                assert (key in view.legend) == shows(sign, text), (key, text)
                seen.update([key] if key in view.legend else [])
            assert len(set(view.legend)) == len(view.legend), "each mark once"
            for tr in (EN, JA):
                line = legend_line(view, tr)
                assert f"{game}." not in line and all(tr.has(f"{k}.long") for k in view.legend)
                assert "~~" not in line and "**" not in line, "a footer shows no markdown"
    rare = {"arsene.mark.police", "saizen.mark.side.earlier", "saizen.mark.side.free", "final_quest.mark.winner"}
    assert set(SHOWS[game]) - rare <= seen, "every mark met in these games"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_seat_is_labelled_once_and_named_short_everywhere_else(game):
    """The seat list says "🤖 Computer 1 (hard)" and "ann (in for zoe)" once; every trick, fact and
    status line names the seat "🤖 Computer 1" and "ann", so a trick fits a phone's line."""
    ui = UIS[game]
    for engine in states(GAMES[game](3), 3, steps=60):
        view = ui.table_view(engine.public_view(), names(engine.num_players), EN)
        text = shown(view)
        assert text.count("(hard)") == 1 and text.count("(in for zoe)") == 1, text
        others = text.replace("🤖 Computer 1 (hard)", "").replace("ann (in for zoe)", "")
        assert "(hard)" not in others and "in for" not in others


def test_the_legend_at_the_start_of_each_game():
    """The marks of a fresh table, as the legend line reads in both languages."""
    donguri = UIS["donguri"].table_view(DonguriEngine(3, 2, {}).public_view(), names(3), EN)
    assert legend_line(donguri, EN) == "▶ to play · 🎴 dealer"
    othello = UIS["othello_torite"].table_view(OthelloToriteEngine(2, 2).public_view(), names(2), EN)
    assert othello.legend == [
        "othello_torite.mark.turn",
        "othello_torite.mark.marker",
        "othello_torite.mark.suits",
        "othello_torite.mark.picture",
        "othello_torite.mark.hints",
    ]
    saizen = UIS["saizen"].table_view(SaizenEngine(3, 1, {}).public_view(), names(3), JA)
    line = legend_line(saizen, JA)
    assert line.startswith("▶ 手番 · 大 = 強い数の勝ち · 後 = 同じ強さなら後出しの勝ち · 無視 = 同じ数は関係なし")
    assert "小" not in line and "🔒" not in line and "~~" not in line, "no chip moved, no card played yet"


def test_an_over_table_keeps_only_what_it_still_shows():
    engine = OthelloToriteEngine(2, 4)
    *_, last = states(engine, 4, steps=500)
    assert last.is_terminal()
    view = UIS["othello_torite"].table_view(last.public_view(), names(2), EN)
    assert view.legend == ["othello_torite.mark.suits", "othello_torite.mark.picture"]


def test_a_won_final_quest_marks_its_winners():
    engine = FinalQuestEngine(4, 1, {})
    engine.hands = [[1, 2, 3], [4, 5, 6], [7, 8, 13], [10, 11, 12]]
    engine.first_player = engine.current = 0
    engine.apply(0, "fq:2:7.8.13")
    for tr, line in ((EN, "🏆 winners"), (JA, "🏆 勝者")):
        view = UIS["final_quest"].table_view(engine.public_view(), names(4), tr)
        assert "🏆" in shown(view) and "▶" not in shown(view)
        assert legend_line(view, tr).startswith(line) and "final_quest.mark.turn" not in view.legend
