"""Persistent components: every custom id carries the table id, so buttons work after a restart.

discord.py routes a click to the item whose template matches (``Client.add_dynamic_items``); the
classes registered are bound to the service that handles them (``bound``), in the composition root.
A click that no registered item takes (a forged id, an id the clicked message does not carry) is
answered by ``unclaimed``.

``tt:<verb>:<table>`` lobby and table buttons; ``tt:bot:<level>:<table>`` a computer level to add;
``tt:a:<table>:<version>:<action>`` a move;
``tt:as:<table>:<version>`` a select menu of moves; ``tt:kick:<table>`` the host's remove menu;
``tt:x:<table>:<n>`` a shown-but-unplayable card; ``tt:ev:<verb>:<tournament>`` tournament buttons.
"""

from __future__ import annotations

import re
import types
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

import discord

from bot.core.interaction import Interaction

if TYPE_CHECKING:
    from bot.tables.desk import Desk

Item = TypeVar("Item", bound=type[discord.ui.DynamicItem[Any]])


def bound(cls: Item, handler: object) -> Item:
    """A subclass of ``cls`` whose clicks go to ``handler`` (its ``handler`` class attribute)."""
    template = cls.__discord_ui_compiled_template__
    return types.new_class(
        cls.__name__, (cls,), {"template": template}, lambda ns: ns.update(handler=handler)
    )


class TableButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"tt:(?P<verb>join|leave|start|cancel|bot|hand):(?P<tid>[0-9]+)",
):
    handler: ClassVar[Desk]

    def __init__(self, verb: str, table_id: int, **button: Any) -> None:
        super().__init__(discord.ui.Button(custom_id=f"tt:{verb}:{table_id}", **button))
        self.verb, self.table_id = verb, table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Button, match: re.Match[str]
    ):
        return cls(match["verb"], int(match["tid"]))

    async def callback(self, interaction: Interaction) -> None:
        await self.handler.on_table_button(interaction, self.verb, self.table_id)


class LevelButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"tt:bot:(?P<level>easy|normal|hard):(?P<tid>[0-9]+)",
):
    """One level in the host's "Add computer" picker: adds a computer of that level."""

    handler: ClassVar[Desk]

    def __init__(self, level: str, table_id: int, **button: Any) -> None:
        super().__init__(discord.ui.Button(custom_id=f"tt:bot:{level}:{table_id}", **button))
        self.level, self.table_id = level, table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Button, match: re.Match[str]
    ):
        return cls(match["level"], int(match["tid"]))

    async def callback(self, interaction: Interaction) -> None:
        from bot.tables.computer_levels import on_level

        await on_level(self.handler, interaction, self.level, self.table_id)


class ActButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"tt:a:(?P<tid>[0-9]+):(?P<ver>[0-9]+):(?P<action>.+)",
):
    handler: ClassVar[Desk]

    def __init__(self, table_id: int, version: int, action: str, **button: Any) -> None:
        super().__init__(discord.ui.Button(custom_id=f"tt:a:{table_id}:{version}:{action}", **button))
        self.table_id, self.version, self.action = table_id, version, action

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Button, match: re.Match[str]
    ):
        return cls(int(match["tid"]), int(match["ver"]), match["action"])

    async def callback(self, interaction: Interaction) -> None:
        await self.handler.on_act(interaction, self.table_id, self.version, self.action)


class ActSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"tt:as:(?P<tid>[0-9]+):(?P<ver>[0-9]+)(?::(?P<n>[0-9]+))?",
):
    """A select of moves; ``n`` tells apart several selects on one message."""

    handler: ClassVar[Desk]

    def __init__(self, table_id: int, version: int, n: int = 0, **select: Any) -> None:
        super().__init__(discord.ui.Select(custom_id=f"tt:as:{table_id}:{version}:{n}", **select))
        self.table_id, self.version, self.n = table_id, version, n

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Select, match: re.Match[str]
    ):
        return cls(int(match["tid"]), int(match["ver"]), int(match["n"] or 0))

    async def callback(self, interaction: Interaction) -> None:
        values = (interaction.data or {}).get("values", [])
        await self.handler.on_act(interaction, self.table_id, self.version, values[0] if values else "")


class KickSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"tt:kick:(?P<tid>[0-9]+)"):
    handler: ClassVar[Desk]

    def __init__(self, table_id: int, **select: Any) -> None:
        super().__init__(discord.ui.Select(custom_id=f"tt:kick:{table_id}", **select))
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Select, match: re.Match[str]
    ):
        return cls(int(match["tid"]))

    async def callback(self, interaction: Interaction) -> None:
        values = (interaction.data or {}).get("values", [])
        await self.handler.on_kick(interaction, self.table_id, int(values[0]) if values else -1)


class SettingSelect(
    discord.ui.DynamicItem[discord.ui.Select], template=r"tt:(?P<what>clock|tmo|lang):(?P<tid>[0-9]+)"
):
    """The host's lobby settings: the move clock and what happens on a timeout."""

    handler: ClassVar[Desk]

    def __init__(self, what: str, table_id: int, **select: Any) -> None:
        super().__init__(discord.ui.Select(custom_id=f"tt:{what}:{table_id}", **select))
        self.what, self.table_id = what, table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Select, match: re.Match[str]
    ):
        return cls(match["what"], int(match["tid"]))

    async def callback(self, interaction: Interaction) -> None:
        values = (interaction.data or {}).get("values", [])
        await self.handler.on_setting(
            interaction, self.table_id, self.what, values[0] if values else ""
        )


class DeadButton(discord.ui.DynamicItem[discord.ui.Button], template=r"tt:x:(?P<tid>[0-9]+):(?P<n>[0-9]+)"):
    handler: ClassVar[Desk]

    def __init__(self, table_id: int, n: int, **button: Any) -> None:
        super().__init__(discord.ui.Button(custom_id=f"tt:x:{table_id}:{n}", disabled=True, **button))

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Button, match: re.Match[str]
    ):
        return cls(int(match["tid"]), int(match["n"]))

    async def callback(self, interaction: Interaction) -> None:
        await self.handler.on_stale(interaction)


ALL = (TableButton, LevelButton, ActButton, ActSelect, KickSelect, SettingSelect, DeadButton)


def static_view(*items: discord.ui.Item) -> discord.ui.View:
    """A view to send, stopped at once so that discord.py never stores it: it would register the
    templates of its items, unbound, over the bound classes that route every click."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()
    return view


def table_items(desk: Desk) -> list[type[discord.ui.DynamicItem[Any]]]:
    """The table components, each bound to the desk that handles its clicks."""
    return [bound(cls, desk) for cls in ALL]


def custom_ids(components: list[discord.Component]) -> Iterator[str]:
    for component in components:
        custom_id = getattr(component, "custom_id", None)
        if custom_id:
            yield custom_id
        yield from custom_ids(getattr(component, "children", []))


def unclaimed(interaction: Interaction, items: list[type[discord.ui.DynamicItem[Any]]]) -> bool:
    """Whether discord.py will route this component click to none of ``items``: no template matches
    its custom id, or the clicked message does not carry it (discord.py then drops the click)."""
    custom_id = str((interaction.data or {}).get("custom_id", ""))
    if not any(cls.__discord_ui_compiled_template__.fullmatch(custom_id) for cls in items):
        return True
    message = interaction.message
    return message is None or custom_id not in set(custom_ids(message.components))
