"""Game options are declared once, on the engine: the engine's check, the ``/<game> new`` parameters
and the lobby summary all follow from that declaration (``/tournament create``: tests/events)."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord import app_commands

from bot.core.engine import IllegalAction
from bot.core.i18n import LANGUAGES, Lang, catalog
from bot.core.options import Option
from bot.core.translator import game_options, valid_name
from cogs.arsene.cog import Arsene
from cogs.arsene.engine import ArseneEngine
from cogs.arsene.render import ArseneUI
from cogs.donguri.cog import Donguri
from cogs.donguri.engine import DonguriEngine
from cogs.donguri.render import DonguriUI
from cogs.final_quest.cog import FinalQuest
from cogs.final_quest.engine import FinalQuestEngine
from cogs.final_quest.render import FinalQuestUI
from cogs.othello_torite.cog import OthelloTorite
from cogs.othello_torite.render import OthelloToriteUI
from cogs.saizen.cog import Saizen
from cogs.saizen.engine import SaizenEngine
from cogs.saizen.render import SaizenUI

UIS = {ui.game_id: ui for ui in (DonguriUI(), ArseneUI(), SaizenUI(), FinalQuestUI(), OthelloToriteUI())}
COGS = {
    "donguri": Donguri,
    "arsene": Arsene,
    "saizen": Saizen,
    "final_quest": FinalQuest,
    "othello_torite": OthelloTorite,
}
EN, JA = Lang("en"), Lang("ja")
ROUND_CAP = Option("round_cap", int, None, "final_quest.cmd.new.round_cap", low=1, high=99)


def refusal(call) -> dict[str, Any]:
    with pytest.raises(IllegalAction) as info:
        call()
    assert info.value.code == "bad_option"
    return info.value.params


# ---- the declaration ----------------------------------------------------------------------------


def test_an_option_accepts_only_its_kind_range_and_choices():
    assert ROUND_CAP.check(None) is None and ROUND_CAP.check(1) == 1 and ROUND_CAP.check(99) == 99
    for bad in (0, 100, True, "5", 2.5):
        assert refusal(lambda bad=bad: ROUND_CAP.check(bad)) == {"option": "round_cap", "value": bad}
    length = Option("length", str, "standard", "donguri.cmd.new.length", choices=("standard", "short"))
    for bad in ("endless", None, 1):
        assert refusal(lambda bad=bad: length.check(bad))["option"] == "length"
    advanced = Option("advanced", bool, False, "arsene.cmd.new.advanced")
    for bad in (1, "true", None):
        assert refusal(lambda bad=bad: advanced.check(bad))["option"] == "advanced"


def test_typed_values_are_read_by_kind():
    assert ROUND_CAP.parse(" 7 ") == 7 and ROUND_CAP.parse("none") is None
    assert Option("advanced", bool, False, "k").parse("true") is True
    assert refusal(lambda: ROUND_CAP.parse("seven")) == {"option": "round_cap", "value": "seven"}
    assert [ROUND_CAP.token(v) for v in (None, 7, True, "S:low")] == ["none", "7", "true", "S:low"]


def test_a_declaration_with_an_illegal_default_or_choice_is_refused():
    refusal(lambda: Option("length", str, "endless", "k", choices=("standard", "short")))
    refusal(lambda: Option("cap", int, 5, "k", low=1, high=3))
    with pytest.raises(TypeError):
        Option("speed", float, 1.0, "k")


# ---- the engine checks what it declares ---------------------------------------------------------


@pytest.mark.parametrize("game", sorted(UIS))
def test_every_engine_fills_its_declared_defaults_and_refuses_the_rest(game):
    cls = UIS[game].engine
    n = cls.min_players
    assert cls(n, 1, {}).options == {o.name: o.default for o in cls.declared_options}
    assert refusal(lambda: cls(n, 1, {"speed": "fast"})) == {"option": "speed", "value": "fast"}
    for option in cls.declared_options:
        wrong = {bool: "yes", int: "3", str: 3}[option.kind]
        assert refusal(lambda o=option, w=wrong: cls(n, 1, {o.name: w})) == {
            "option": option.name,
            "value": wrong,
        }


def test_bad_values_are_refused_with_the_declared_key():
    assert refusal(lambda: DonguriEngine(4, 1, {"length": "endless"})) == {
        "option": "length",
        "value": "endless",
    }
    assert refusal(lambda: ArseneEngine(4, 1, {"advanced": "true"}))["option"] == "advanced"
    assert refusal(lambda: FinalQuestEngine(4, 1, {"round_cap": 100}))["option"] == "round_cap"
    assert FinalQuestEngine(4, 1, {"round_cap": 99}).round_cap == 99
    assert refusal(lambda: SaizenEngine(3, 1, {"layout": "S:low H:huge"})) == {
        "option": "layout",
        "value": "H:huge",
    }
    assert refusal(lambda: SaizenEngine(3, 1, {"jokers": 3}))["option"] == "jokers"
    saizen = SaizenEngine(3, 1, {"layout": "♠:小+MAY"})
    assert saizen.options == {"jokers": 0, "layout": "S:low+may"}, "free text is kept in its canonical form"


# ---- /<game> new ----------------------------------------------------------------------------------

OPTION_TYPES = {
    bool: discord.AppCommandOptionType.boolean,
    int: discord.AppCommandOptionType.integer,
    str: discord.AppCommandOptionType.string,
}


@pytest.mark.parametrize("game", sorted(COGS))
def test_new_offers_exactly_the_declared_options(game):
    declared = UIS[game].engine.declared_options
    params = {p.name: p for p in COGS[game].new.parameters}
    invites = {name for name in params if name.startswith("invite")}  # the platform's, one per other seat
    assert set(params) - {"players", "rated"} - invites == {o.name for o in declared}
    assert len(invites) == min(3, UIS[game].engine.max_players - 1)
    order = list(params)
    assert all(order.index(o.name) < order.index("rated") for o in declared), "the game's own options come first"
    assert params["rated"].description == catalog("en")["cmd.new.rated.description"]
    for option in declared:
        param = params[option.name]
        assert param.type is OPTION_TYPES[option.kind] and not param.required
        assert param.default == option.default
        assert [c.value for c in param.choices] == list(option.choices)
        assert (param.min_value, param.max_value) == (option.low, option.high)
        assert param.description == catalog("en")[f"{option.key}.description"]


def test_a_new_declaration_becomes_new_parameters():
    class Variant(DonguriEngine):
        declared_options = (*DonguriEngine.declared_options, ROUND_CAP)

    async def new(interaction: discord.Interaction, rated: bool = False, **options: Any) -> None:
        pass

    command = app_commands.command(name="new", description="d")(game_options(Variant)(new))
    params = {p.name: p for p in command.parameters}
    assert list(params) == ["length", "round_cap", "rated"]
    assert [c.value for c in params["length"].choices] == ["standard", "short"]
    assert [c.name for c in params["length"].choices] == [
        "standard (3p: 9 deals, 4p: 8, 5p: 5)",
        "short (3p: 6 deals, 4p: 4, 5p: 5)",
    ]
    assert (params["round_cap"].min_value, params["round_cap"].max_value, params["round_cap"].default) == (
        1,
        99,
        None,
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_declared_option_has_its_texts(language):
    texts = catalog(language)
    problems = []
    for ui in UIS.values():
        for option in ui.engine.declared_options:
            labels = [option.token(v) for v in ((False, True) if option.kind is bool else option.choices)]
            for part in ("name", "description", "summary", *labels):
                if not isinstance(texts.get(f"{option.key}.{part}"), str):
                    problems.append(f"{option.key}.{part}")
            name = texts.get(f"{option.key}.name", "")
            if not valid_name(name) or (language == "en" and name != option.name):
                problems.append(f"{option.key}.name = {name!r}")
            if any(len(texts.get(f"{option.key}.{part}", "")) > 100 for part in ("description", *labels)):
                problems.append(f"{option.key}: a text longer than Discord allows")
    assert not problems, problems


# ---- the lobby summary ----------------------------------------------------------------------------


def test_the_lobby_summary_reads_every_declared_option():
    fq = UIS["final_quest"]
    assert (
        fq.option_summary({}, 4, EN)
        == "Rebuttal card shown to: everyone (the original rule)\nRound limit: none"
    )
    assert fq.option_summary({"rebuttal": "asker", "round_cap": 7}, 4, JA) == (
        "反証カードを見せる相手: 質問者だけ(DM で)\nラウンド上限: 7ラウンドで引き分け"
    )
    assert (
        UIS["donguri"].option_summary({"length": "short"}, 4, JA)
        == "長さ: 短め(3人: 6ディール、4人: 4、5人: 5)"
    )
    assert UIS["arsene"].option_summary({}, 4, EN) == "Basic rules"
    assert UIS["saizen"].option_summary({"jokers": 2, "layout": ""}, 4, EN) == (
        "Jokers: 2\nStarting layout: standard (every card: 大 high · 後 later · 無視 ignore · MUST follow · 必勝 must win)"
    )
    assert UIS["othello_torite"].option_summary({}, 2, EN) == ""


def test_a_newly_declared_option_shows_in_the_summary(monkeypatch):
    monkeypatch.setattr(DonguriEngine, "declared_options", (*DonguriEngine.declared_options, ROUND_CAP))
    assert UIS["donguri"].option_summary({"round_cap": 3}, 4, EN) == (
        "Length: standard (3p: 9 deals, 4p: 8, 5p: 5)\nRound limit: draw after 3 rounds"
    )
