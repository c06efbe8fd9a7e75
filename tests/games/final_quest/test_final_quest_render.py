"""Fast checks of the Final Quest renderer and command parsing, without Discord."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.core.errors import UserError
from bot.core.i18n import Lang
from cogs.final_quest.cog import parse_cards, question_params
from cogs.final_quest.engine import OPT_REBUTTAL, REBUTTAL_ASKER, FinalQuestEngine
from cogs.final_quest.image import CENTRES, PANEL_H, PANEL_W, render_table
from cogs.final_quest.render import FinalQuestUI
from tests.support.final_quest_engine import HANDS, table

UI = FinalQuestUI()
TR = Lang("en")
NAMES = ["ann", "ben", "cat", "dan"]


def texts(e):
    """Every text the renderer produces now: the table, each prompt, button labels."""
    view = UI.table_view(e.public_view(), NAMES, TR)
    out = [view.title, view.description, view.footer or ""]
    out += [f"{name}\n{value}" for name, value in view.fields]
    for seat in range(4):
        prompt = UI.prompt(e, seat, NAMES, TR)
        out += [prompt.text] + [c.label for c in prompt.choices]
    out += [c.label for c in UI.public_choices(e.public_view(), NAMES, TR)]
    return out


@pytest.mark.parametrize("options", [{}, {OPT_REBUTTAL: REBUTTAL_ASKER, "round_cap": 3}])
def test_random_games_render_every_message_key(options, monkeypatch):
    monkeypatch.setattr("cogs.final_quest.render.render_table", lambda public, names=None: b"")  # text only here
    for seed in range(8):
        e = FinalQuestEngine(4, seed, options)
        chooser = random.Random(seed)
        for _ in range(120):
            events = []
            if not e.is_terminal():
                seat = e.to_act()[0]
                events = e.apply(seat, chooser.choice(e.legal_actions(seat)))
            lines = UI.record(events, e.public_view(), NAMES, TR) + texts(e)
            for line in lines:
                assert "final_quest." not in line and "{" not in line, line
            if e.is_terminal():
                break


def test_rebuttal_prompt_offers_only_refuting_cards_and_reveal():
    e = table([[1, 2, 13], *HANDS[1:]], centre=3, first=1)
    e.apply(1, "fq:0:1.2.3")
    prompt = UI.prompt(e, 0, NAMES, TR)
    assert [(c.action, c.label) for c in prompt.choices] == [
        ("rebut:13", "Refute with 13"),
        ("reveal", "Reveal my whole hand"),
    ]
    assert "ben made a Final Quest on you: 1, 2, 3" in prompt.text
    assert UI.prompt(e, 1, NAMES, TR).choices == []
    assert UI.speakers(e.public_view()) == {1}, "the asker keeps the floor while the target decides"


def test_asker_only_rebuttal_card_is_only_in_the_askers_and_targets_prompts():
    e = table(HANDS, centre=13, first=0, **{OPT_REBUTTAL: REBUTTAL_ASKER})
    e.apply(0, "fq:1:4.5.13")
    e.apply(1, "rebut:6")
    asker = UI.prompt(e, 0, NAMES, TR).text
    assert "ben showed you **6**" in asker and "Rebuttal cards shown only to you: **6** from ben" in asker
    assert "you showed ann **6** in secret" in UI.prompt(e, 1, NAMES, TR).text
    for seat in (2, 3):
        assert "showed" not in UI.prompt(e, seat, NAMES, TR).text
    view = UI.table_view(e.public_view(), NAMES, TR)
    public = "\n".join([view.description, *(v for _, v in view.fields)])
    assert "ben showed a card to ann only" in public and "**6**" not in public
    assert UI.record(e.apply(0, "end"), e.public_view(), NAMES, TR) == ["Turn 2 (round 1): ben to play."]


def test_answer_buttons_only_while_a_free_question_waits():
    e = table(HANDS, centre=13, first=3)
    assert UI.public_choices(e.public_view(), NAMES, TR) == []
    e.apply(3, "ask:1")
    assert [c.action for c in UI.public_choices(e.public_view(), NAMES, TR)] == ["answer:yes", "answer:no", "decline"]
    assert UI.speakers(e.public_view()) == {3}
    e.apply(1, "answer:yes")
    assert UI.public_choices(e.public_view(), NAMES, TR) == []
    assert "Answer: **YES**" in UI.table_view(e.public_view(), NAMES, TR).description


def test_turn_prompt_greys_what_is_not_playable_and_says_why():
    e = table(HANDS, centre=13, first=0)
    before = UI.prompt(e, 0, NAMES, TR)
    assert [c.action for c in before.choices] == [
        "swap:1",
        "swap:2",
        "swap:3",
        "show:1",
        "show:2",
        "show:3",
        None,
    ]
    e.apply(0, "askq:2:has:8")
    after = UI.prompt(e, 0, NAMES, TR)
    assert [c.action for c in after.choices] == [None, None, None, "show:1", "show:2", "show:3", "end"]
    assert "already taken your action" in after.text
    assert "“Do you hold 8?”" in after.text and "Answer: **YES**" in after.text


@pytest.mark.parametrize("language", ["en", "ja"])
def test_known_cards_are_marked_in_words_so_markdown_cannot_eat_the_marks(language):
    """Two known cards once read ``**Your hand: 1* · 2* · 3**``: Discord paired the stars as italics."""
    tr = Lang(language)
    e = table(HANDS, centre=13, first=0)
    e.apply(0, "show:1")
    e.apply(0, "show:2")
    hand = UI.prompt(e, 0, NAMES, tr).text.splitlines()[0]
    known = [tr("final_quest.prompt.known_card", card=n) for n in ("1", "2")]
    assert hand == tr("final_quest.hand", cards=" · ".join([*known, "3"])) + " " + tr("final_quest.prompt.shown_mark")
    assert hand.count("*") == 4, "only the bold pair: no bare mark left for Markdown"
    onlooker = UI.onlooker(e, 0, NAMES, tr)
    assert [c.label for c in onlooker.choices] == [*known, "3"]


def test_game_over_has_no_speakers_and_shows_every_hand():
    e = table(HANDS, centre=13, first=0)
    e.apply(0, "fq:2:7.8.9")
    assert UI.speakers(e.public_view()) == set()
    view = UI.table_view(e.public_view(), NAMES, TR)
    assert view.title == "Game over"
    assert "wins" not in view.description, "the platform's result block says who won"
    assert "ann named cat's hand exactly: 7, 8, 9." in view.description
    rows = UI.result_rows(e.results(), NAMES, TR)
    assert rows == [
        ("🥇", "🔵 Team A (seats 1 and 3): **ann** and **cat**", ""),
        ("🥈", "🟠 Team B (seats 2 and 4): ben and dan", ""),
    ]
    hands = dict(view.fields)["Hands at the end"]
    assert "🟠 dan: 10, 11, 12" in hands and "Centre card: 13" in hands


def test_picture_is_a_phone_sized_png():
    e = table(HANDS, centre=13, first=0)
    e.apply(0, "show:2")
    data = render_table(e.public_view())
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG" and image.size == (800, 600)


def test_the_picture_shows_each_players_name_by_their_seat():
    e = table(HANDS, centre=13, first=0)
    bare = Image.open(io.BytesIO(render_table(e.public_view()))).convert("RGB")
    named = Image.open(io.BytesIO(render_table(e.public_view(), NAMES))).convert("RGB")
    assert UI.table_view(e.public_view(), NAMES, TR).image == render_table(e.public_view(), NAMES)
    for cx, cy in CENTRES:  # the strip above each seat's panel (below, for the top seat) has its name
        top = cy - PANEL_H // 2 - 44 if cy > 100 else cy + PANEL_H // 2 + 4
        strip = (cx - PANEL_W // 2, top, cx + PANEL_W // 2, top + 40)
        assert bare.crop(strip).tobytes() != named.crop(strip).tobytes()
        panel = (cx - PANEL_W // 2, cy - PANEL_H // 2, cx + PANEL_W // 2, cy + PANEL_H // 2)
        assert bare.crop(panel).tobytes() == named.crop(panel).tobytes(), "the seat itself is unchanged"


def test_the_open_question_is_on_the_table_message():
    e = table(HANDS, centre=13, first=0)
    e.apply(0, "ask:1")
    public = {**e.public_view(), "talk": "Is your highest card a face card?"}
    view = UI.table_view(public, NAMES, TR)
    assert "❓ **ann** asks: “Is your highest card a face card?”" in view.description
    assert view.description.index("asks") < view.description.index("Waiting for **ben**")
    at = e.public_view()["main_action"]["at"]
    said = UI.table_view({**public, "said": {at: "Is your highest card a face card?"}}, NAMES, TR)
    assert said.description.count("face card") == 1, "the open question is stated once, not again as the action"
    ja = UI.table_view(public, NAMES, Lang("ja"))
    assert "❓ **ann** の質問: 「Is your highest card a face card?」" in ja.description
    e.apply(1, "answer:yes")
    after = UI.table_view({**e.public_view(), "talk": "Is your highest card a face card?"}, NAMES, TR)
    assert "asks:" not in after.description, "an answered question is no longer open"


def test_card_parsing_for_quests():
    assert parse_cards("12 3 7") == [12, 3, 7]
    assert parse_cards("q, 3,7") == [12, 3, 7]
    for text, key in [("3 3 5", "cards_not_distinct"), ("1 2", "name_three"), ("1 2 3 4", "name_three")]:
        with pytest.raises(UserError) as info:
            parse_cards(text)
        assert info.value.key == f"final_quest.error.{key}"
    with pytest.raises(UserError) as info:
        parse_cards("2 5 14")
    assert info.value.params == {"value": "14"}


def test_question_fields_are_checked_with_their_bounds():
    assert question_params("atleast", 9, 2, TR) == [2, 9]
    assert question_params("sum_even", 4, None, TR) == []
    with pytest.raises(UserError) as info:
        question_params("sum_atleast", 40, None, TR)
    assert info.value.key == "final_quest.error.bad_param"
    assert info.value.params == {"low": 7, "high": 36, "field": "number", "value": 40}
    with pytest.raises(UserError) as info:
        question_params("evens", None, None, TR)
    assert info.value.key == "final_quest.error.need_param" and info.value.params["field"] == "count"


def test_timeout_moves_reveal_nothing_by_accident():
    from cogs.final_quest.engine import FinalQuestEngine
    from cogs.final_quest.render import FinalQuestUI

    ui = FinalQuestUI()
    engine = FinalQuestEngine(4, 5, {})
    (seat,) = engine.to_act()
    move = ui.timeout_action(engine, seat)
    assert move.startswith("askq:"), "before the main action: a truthful checked question"
    engine.apply(seat, move)
    assert ui.timeout_action(engine, seat) == "end", "after it: the turn simply ends"
