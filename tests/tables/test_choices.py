"""A prompt's components are written as JSON directly; Discord must receive exactly what discord.py
would have sent for the same buttons and menus, and clicks must reach them by custom id alone."""

from __future__ import annotations

import discord

from bot.core.games import Choice, Menu, Prompt
from bot.core.i18n import Lang
from bot.tables import components
from bot.tables.choices import MAX_BUTTONS, choice_rows
from bot.tables.components import ActButton, ActSelect, DeadButton


def ui_view(table_id: int, version: int, prompt: Prompt, tr: Lang) -> list[dict]:
    """The same prompt built from discord.ui items, as the renderer did before."""
    menus = list(prompt.menus)
    items: list[discord.ui.Item] = []
    if len(prompt.choices) > MAX_BUTTONS:
        menus.insert(0, Menu(tr("prompt.choose"), prompt.choices))
    else:
        for n, c in enumerate(prompt.choices):
            common = {"label": c.label, "emoji": c.emoji, "row": n // 5}
            if c.action is None:
                items.append(DeadButton(table_id, n, style=discord.ButtonStyle.secondary, **common))
            else:
                style = getattr(discord.ButtonStyle, c.style)
                items.append(ActButton(table_id, version, c.action, style=style, **common))
    used = (len(items) + 4) // 5
    for n, menu in enumerate(menus[: 5 - used]):
        playable = [c for c in menu.choices if c.action is not None][:25]
        if playable:
            options = [discord.SelectOption(label=c.label, value=c.action, emoji=c.emoji) for c in playable]
            items.append(ActSelect(table_id, version, n, placeholder=menu.placeholder, options=options, row=used + n))
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view.to_components()


def hand(n: int) -> list[Choice]:
    suits = "♠♥♦♣"
    return [
        Choice(None if i % 4 == 3 else f"play:{i}", f"{i}{suits[i % 4]}", style=("primary", "success")[i % 2],
               emoji=suits[i % 4] if i % 3 == 0 else None)
        for i in range(n)
    ]


def test_buttons_and_menus_are_what_discord_py_sends():
    tr = Lang("ja")
    prompts = [
        Prompt("one card", hand(1)),
        Prompt("a hand", hand(11)),
        Prompt("a full hand", hand(20)),
        Prompt("too many for buttons", hand(23)),
        Prompt("buttons and a menu", hand(7), [Menu("target", [Choice("push:1", "B", emoji="🃏"), Choice(None, "C")])]),
        Prompt("menus only", [], [Menu("a", hand(4)), Menu("none playable", [Choice(None, "x")]), Menu("b", hand(2))]),
    ]
    for prompt in prompts:
        assert choice_rows(42, 17, prompt, tr).to_components() == ui_view(42, 17, prompt, tr), prompt.text


def test_a_long_label_is_cut_where_discord_requires():
    rows = choice_rows(1, 2, Prompt("", [Choice("a", "x" * 120)]), Lang("en")).to_components()
    assert rows[0]["components"][0]["label"] == "x" * 80


async def test_each_custom_id_reaches_the_handler_its_class_is_bound_to():
    seen = []

    class Desk:
        async def on_act(self, interaction, table_id, version, action):
            seen.append((table_id, version, action))

        async def on_stale(self, interaction):
            seen.append("stale")

    class Interaction:
        data = {"values": ["push:2"]}

    items = components.table_items(Desk(), object())

    async def click(custom_id: str) -> bool:
        # What discord.py's dynamic dispatch does: the first template that matches builds the item.
        for cls in items:
            match = cls.__discord_ui_compiled_template__.fullmatch(custom_id)
            if match is not None:
                item = await cls.from_custom_id(Interaction(), None, match)
                await item.callback(Interaction())
                return True
        return False

    assert await click("tt:a:42:17:play:S10")
    assert await click("tt:as:42:18:0")
    assert await click("tt:x:42:3")
    assert not await click("tt:zz:42")
    assert seen == [(42, 17, "play:S10"), (42, 18, "push:2"), "stale"]


def test_a_click_no_item_takes_is_left_to_the_unknown_button_answer():
    items = components.table_items(object(), object())
    row = discord.ActionRow({"type": 1, "components": [{"type": 2, "style": 2, "custom_id": "tt:a:42:17:H3"}]})

    class Message:
        components = [row]

    class Click:
        def __init__(self, custom_id, message=Message, kind=2):
            self.data = {"custom_id": custom_id, "component_type": kind}
            self.message = message

    assert not components.unclaimed(Click("tt:a:42:17:H3"), items)
    assert components.unclaimed(Click("tt:a:42:17:H3", kind=3), items)  # a menu choice with a button's id
    assert components.unclaimed(Click("tt:a:42:17:H4"), items)  # not on the clicked message
    assert components.unclaimed(Click("tt:zz:42"), items)  # no template matches
    assert components.unclaimed(Click("tt:a:42:17:H3", message=None), items)
