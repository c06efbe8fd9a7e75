"""Arsène renderer without Discord: hidden cards never shown, prompts offer only legal moves, the
deal summary reads right, the board image is a quick ~800 px PNG."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.core.i18n import Lang
from bot.tables.render import legend_line
from cogs.arsene.engine import DUMMY, ArseneEngine
from cogs.arsene.image import board_png
from cogs.arsene.render import ArseneUI
from tests.support.arsene import shown_labels

UI = ArseneUI()
TR = Lang("en")
NAMES = ["alice", "bob", "carol", "dave"]


def view_text(view) -> str:
    return "\n".join(
        [view.title, view.description, view.footer or ""] + [f"{a}\n{b}" for a, b in view.fields]
    )


def random_games(n: int, advanced: bool, seeds=range(3)):
    """Yield (engine, events) after every action of a few random games."""
    for seed in seeds:
        engine = ArseneEngine(n, seed, {"advanced": advanced})
        chooser = random.Random(seed)
        while not engine.is_terminal():
            seat = chooser.choice(engine.to_act())
            events = engine.apply(seat, chooser.choice(engine.legal_actions(seat)))
            yield engine, events


@pytest.mark.parametrize("n,advanced", [(3, False), (3, True), (4, False), (4, True)])
def test_table_prompts_and_record_never_show_hidden_cards(n, advanced, monkeypatch):
    monkeypatch.setattr("cogs.arsene.render.board_png", lambda public: b"")  # text only: fast
    names = NAMES[:n]
    for engine, events in random_games(n, advanced, seeds=range(2)):
        public = engine.public_view()
        hidden = engine.hidden_from(None)
        table = view_text(UI.table_view(public, names, TR))
        assert not shown_labels(table, hidden)
        if events and events[-1].code not in ("deal_started", "game_over"):
            assert not shown_labels("\n".join(UI.record(events, public, names, TR)), hidden)
        for seat in range(n):
            prompt = UI.prompt(engine, seat, names, TR)
            text = prompt.text + " ".join(c.label for c in prompt.choices)
            assert not shown_labels(text, engine.hidden_from(seat))
            legal = set(engine.legal_actions(seat))
            offered = {c.action for c in prompt.choices if c.action is not None}
            assert offered == legal, "every legal move is a button, and nothing else is"


def test_push_to_the_dummy_offers_exactly_take_and_push_to_the_dummy():
    for engine, _events in random_games(3, False, seeds=range(5)):
        if engine.phase == "push" and engine.push_target == DUMMY:
            (seat,) = engine.to_act()
            prompt = UI.prompt(engine, seat, NAMES[:3], TR)
            assert [(c.label, c.action) for c in prompt.choices] == [
                ("Take", "take"),
                ("Push to the dummy", "push:dummy"),
            ]
            assert "push it to the dummy" in prompt.text
            table = view_text(UI.table_view(engine.public_view(), NAMES[:3], TR))
            assert "is deciding whether to push it" in table and "Push to" not in table
            return
    pytest.fail("no push to the dummy came up")


def summary(**rows) -> dict:
    base = {
        "clash": False,
        "with_dummy": False,
        "token_gained": False,
        "police": None,
        "chips_lost": 0,
        "chips_taken": 0,
        "exchange_to": None,
        "tokens_after": 0,
    }
    players = [dict(base, seat=s, **row) for s, row in enumerate(rows["players"])]
    return {"deal": 3, "players": players, "dummy": rows.get("dummy")}


def test_deal_summary_lines_name_tricks_shop_chips_clash_police_tokens_exchange():
    data = summary(
        players=[
            {"tricks": 3, "shop": 3, "chips_taken": 5, "chips_after": 7},
            {
                "tricks": 2,
                "shop": 2,
                "clash": True,
                "token_gained": True,
                "chips_after": 0,
                "tokens_after": 1,
            },
            {"tricks": 2, "shop": 2, "clash": True, "police": "caught", "chips_lost": 4, "chips_after": 0},
            {"tricks": 0, "shop": None, "exchange_to": 0, "chips_after": 9},
        ],
        dummy={"tricks": 1, "shop": 1},
    )
    lines = UI.summary_lines(data, NAMES, TR)
    assert lines[0] == "🔵 **alice**: 3 tricks → shop 3 → takes 5 chips ⇒ 💰 7, 🛡️ 0"
    assert lines[1] == "🟠 **bob**: 2 tricks → shop 2 → clash with carol → +1 token ⇒ 💰 0, 🛡️ 1"
    assert "clash with bob → 🚨 caught by the police: loses 4 chips" in lines[2]
    assert "0 tricks → no shop → hands 7 chips to alice" in lines[3]
    assert lines[4] == "🎭 the dummy: 1 trick → shop 1"


def test_a_clash_with_the_dummy_names_the_other_player_too():
    clash = {"tricks": 1, "shop": 1, "clash": True, "with_dummy": True, "token_gained": True}
    data = summary(
        players=[
            dict(clash, chips_after=3, tokens_after=1),
            {"tricks": 4, "shop": 4, "chips_taken": 2, "chips_after": 2, "tokens_after": 0},
            dict(clash, chips_after=0, tokens_after=2),
        ],
        dummy={"tricks": 1, "shop": 1},
    )
    lines = UI.summary_lines(data, NAMES[:3], TR)
    assert "shop 1 → clash with carol and the dummy → +1 token" in lines[0]
    assert "shop 1 → clash with alice and the dummy → +1 token" in lines[2]
    japanese = UI.summary_lines(data, NAMES[:3], Lang("ja"))
    assert "宝石店1 → carol、ダミープレイヤー とバッティング" in japanese[0]
    players = [dict(clash, chips_after=3), {"tricks": 4, "shop": 4, "chips_after": 0}]
    alone = summary(players=players, dummy={"tricks": 1, "shop": 1})
    assert "clash with the dummy →" in UI.summary_lines(alone, NAMES[:2], TR)[0]


def finished_game(n: int = 4):
    for engine, _events in random_games(n, False, seeds=range(1)):
        if engine.is_terminal():
            return engine
    raise AssertionError("the game did not end")


def test_the_game_over_board_has_no_dealer_leader_or_turn_marks_and_says_how_chips_read():
    engine = finished_game()
    public = engine.public_view()
    for language in ("en", "ja"):
        tr = Lang(language)
        view = UI.table_view(public, NAMES, tr)
        text = f"{view_text(view)}\n{legend_line(view, tr)}"
        assert tr("arsene.game_over") in view.title
        for word in ("Dealer", "Leader", "ディーラー", "リード", "▶", "🎴"):
            assert word not in text, (language, word)
    view = UI.table_view(next(e for e, _ in random_games(4, False)).public_view(), NAMES, TR)
    running = f"{view_text(view)}\n{legend_line(view, TR)}"
    assert "🎴 Dealer" in running and "▶ to play" in running
    assert UI.score_text(1, TR) == "1 chip" and UI.score_text(13, Lang("ja")) == "13チップ"


def test_a_used_exemption_reads_as_part_of_the_tokens_not_of_this_deals_shop():
    public = next(e for e, _ in random_games(4, False)).public_view()
    public["players"][1]["exempt_used"] = True
    text = view_text(UI.table_view(public, NAMES, TR))
    (line,) = [row for row in text.splitlines() if "**bob**" in row]
    assert "tokens (exemption used: no more tokens) · " in line or "token (exemption" in line
    assert line.index("exemption") < line.index("→"), "said before the shop, with the tokens"
    ja_text = view_text(UI.table_view(public, NAMES, Lang("ja")))
    (ja_line,) = [row for row in ja_text.splitlines() if "**bob**" in row]
    assert ja_line.index("没収免除") < ja_line.index("→") and "以後トークンなし" in ja_line


def test_record_merges_the_take_or_push_into_the_trick_line():
    engine = ArseneEngine(4, 1, {})
    chooser = random.Random(4)
    while True:
        seat = engine.to_act()[0]
        events = engine.apply(seat, chooser.choice(engine.legal_actions(seat)))
        if any(e.code == "trick_won" for e in events) and engine.phase == "push":
            (winner,) = engine.to_act()
            target = engine.push_target
            events += engine.apply(winner, f"push:{target}")
            break
    lines = UI.record(events, engine.public_view(), NAMES, TR)
    assert lines[-1].startswith("Trick ") and lines[-1].endswith(f"and pushes it to **{NAMES[target]}**.")


def test_board_image_is_a_phone_sized_png():
    engine = next(e for e, _ in random_games(4, True) if e.deal_number == 3 and e.trick)
    png = board_png(engine.public_view())
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.width == 800 and 500 < image.height < 800
