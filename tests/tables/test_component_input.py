"""The strict reading of custom ids and menu values (bot/tables/component_input.py), and the items
discord.py's dynamic dispatch builds from them, refused or not."""

from __future__ import annotations

from types import SimpleNamespace

import discord
import pytest

from bot.events.buttons import EventButton
from bot.tables import component_input as strict
from bot.tables.component_input import Refused
from bot.tables.components import ActButton, ActSelect, KickSelect, SettingSelect, TableButton


def test_numbers_are_read_as_the_bot_writes_them_within_64_bits():
    assert [strict.number(t) for t in ("0", "7", str(2**63 - 1))] == [0, 7, 2**63 - 1]
    for text in (str(2**63), "9" * 20, "1" * 5000, "007", "-1", "+1", "", " 1", "1.0", "١", None):
        with pytest.raises(Refused):
            strict.number(text)


def test_actions_are_short_and_made_of_the_characters_moves_use():
    for action in ("play:S12", "place:r:d3", "askq:1:atleast:2:9", "fq:1:2.5.7", "chip:S:strength", "x"):
        assert strict.action(action) == action
    for text in ("", "a" * 61, "play S1", "play:S1\n", "<@1>", "**", "play:♠1", None):
        with pytest.raises(Refused):
            strict.action(text)


def test_menu_values_are_one_of_what_the_menu_offered():
    assert strict.position({"values": ["2"]}) == 2
    assert strict.setting("clock", {"values": ["3600"]}) == "3600"
    assert strict.setting("tmo", {"values": ["end"]}) == "end"
    assert strict.setting("lang", {"values": ["ja"]}) == "ja"
    refused = (
        lambda: strict.position({"values": ["x"]}),
        lambda: strict.position({"values": ["100"]}),
        lambda: strict.position({"values": ["1", "2"]}),
        lambda: strict.position({"values": []}),
        lambda: strict.position({"values": "1"}),
        lambda: strict.position(None),
        lambda: strict.setting("clock", {"values": ["61"]}),
        lambda: strict.setting("lang", {"values": ["fr"]}),
        lambda: strict.setting("tmo", {"values": [7]}),
    )
    for read in refused:
        with pytest.raises(Refused):
            read()


@pytest.mark.parametrize(
    ("cls", "custom_id", "values"),
    [
        (TableButton, f"tt:join:{2**63}", None),
        (ActButton, "tt:a:1:2:play S1", None),
        (ActSelect, "tt:as:1:2:0", ["<@1>"]),
        (KickSelect, "tt:kick:1", ["x"]),
        (SettingSelect, "tt:clock:1", ["61"]),
        (EventButton, f"tt:ev:join:{10**30}", None),
    ],
)
async def test_a_refused_click_still_makes_its_item(cls, custom_id, values):
    """discord.py logs and drops an exception from ``from_custom_id``: the click would go unanswered."""
    match = cls.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None
    base = discord.ui.Select(custom_id=custom_id) if values is not None else discord.ui.Button(custom_id=custom_id)
    interaction = SimpleNamespace(data={"custom_id": custom_id, "values": values or []})
    item = await cls.from_custom_id(interaction, base, match)
    assert isinstance(item, cls) and item.refused and item.custom_id == custom_id


async def test_a_click_as_the_bot_drew_it_is_read_whole():
    match = ActSelect.__discord_ui_compiled_template__.fullmatch("tt:as:4:17:1")
    item = await ActSelect.from_custom_id(SimpleNamespace(data={"values": ["place:b:e3"]}), None, match)
    assert (item.refused, item.table_id, item.version, item.n, item.action) == (None, 4, 17, 1, "place:b:e3")
