"""Persistent components: every custom id carries the table id, so buttons work after a restart.

discord.py routes a click to the item whose template matches (``Client.add_dynamic_items``); the
classes registered are bound to the service that handles them (``bound``), in the composition root.
A click that no registered item takes (a forged id, an id the clicked message does not carry) is
answered by ``unclaimed``.

``tt:<verb>:<table>`` lobby and table buttons, and the final table's (``rematch``, ``decline``, ``rules``); ``tt:bot:<level>:<table>`` a computer level to add;
``tt:a:<table>:<version>:<action>`` a move;
``tt:as:<table>:<version>`` a select menu of moves; ``tt:kick:<table>`` the host's remove menu;
``tt:x:<table>:<n>`` a shown-but-unplayable card; ``tt:help:<table>`` the table's **?**;
``tt:play:<table>`` **Play in Discord** (the Activity, ``launch.py``);
``tt:ev:<verb>:<tournament>`` tournament buttons; ``tt:inv:accept:<table>`` and
``tt:inv:decline:<table>`` an invitation DM's answers.

A client may send any menu value (and a modified client any id): each item reads its own
strictly (``component_input``), and answers a click that no message of ours could have sent
without acting.
"""

from __future__ import annotations

import re
import types
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Self, TypeVar

import discord

from bot.core.interaction import Interaction
from bot.tables import component_input as strict
from bot.tables.component_input import Refused

if TYPE_CHECKING:
    from bot.tables.desk import Desk
    from bot.tables.ending import EndDesk
    from bot.tables.invite_desk import InviteDesk
    from bot.tables.launch import Launcher
    from bot.tables.legend import Legend

Item = TypeVar("Item", bound=type[discord.ui.DynamicItem[Any]])


def bound(cls: Item, handler: object) -> Item:
    """A subclass of ``cls`` whose clicks go to ``handler`` (its ``handler`` class attribute)."""
    template = cls.__discord_ui_compiled_template__
    subclass: Any = types.new_class(
        cls.__name__, (cls,), {"template": template}, lambda ns: ns.update(handler=handler)
    )
    bound_class: Item = subclass
    return bound_class


class Checked(ABC):
    """Our dynamic items read their custom id (and a menu its values) strictly, in ``parse``: a
    click that no message of ours could have sent still makes an item, whose callback answers
    "not valid any more" (the handler's ``on_refused``) and changes nothing. discord.py logs and
    drops an exception raised in ``from_custom_id``: the click would go unanswered."""

    base: ClassVar[type[discord.ui.Item[Any]]] = discord.ui.Button
    handler: ClassVar[Any]
    refused: str | None = None

    @classmethod
    @abstractmethod
    def parse(cls, match: re.Match[str], data: Any) -> Self:
        """The item a click makes, read from its custom id's ``match`` and its ``data`` (a menu's
        values), or ``Refused``."""

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: Any, match: re.Match[str]) -> Self:
        try:
            return cls.parse(match, interaction.data)
        except Refused as exc:
            refused = cls.__new__(cls)
            base = item if item is not None else cls.base(custom_id=match.string)  # type: ignore[call-arg]
            discord.ui.DynamicItem.__init__(refused, base)  # type: ignore[arg-type]
            refused.refused = exc.why
            return refused

    async def callback(self, interaction: Interaction) -> None:
        if self.refused is not None:
            await self.handler.on_refused(interaction, self.refused)
        else:
            await self.run(interaction)

    @abstractmethod
    async def run(self, interaction: Interaction) -> None:
        """The click, read whole: hand it to the handler."""


class VerbButton(
    Checked,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tt:(?P<verb>[a-z]+):(?P<id>[0-9]+)",
):
    """A button ``<prefix><verb>:<id>``: a verb on one table (or tournament). Each kind takes its
    own verbs (its template, with the groups ``verb`` and ``id``) to its own handler."""

    prefix: ClassVar[str] = "tt:"
    #: What the id names, in the refusal of a forged one.
    names: ClassVar[str] = "id"

    def __init__(self, verb: str, target: int, **button: Any) -> None:
        super().__init__(discord.ui.Button(custom_id=f"{self.prefix}{verb}:{target}", **button))
        self.verb, self.target = verb, target

    @classmethod
    def parse(cls, match: re.Match[str], data: Any) -> Self:
        return cls(match["verb"], strict.number(match["id"], cls.names))


class TableButton(VerbButton, template=r"tt:(?P<verb>join|leave|start|cancel|bot|hand):(?P<id>[0-9]+)"):
    handler: ClassVar[Desk]

    async def run(self, interaction: Interaction) -> None:
        await self.handler.on_table_button(interaction, self.verb, self.target)


class EndButton(VerbButton, template=r"tt:(?P<verb>rematch|decline|rules):(?P<id>[0-9]+)"):
    """The final table's **Rematch**, **Decline** and **Rules**."""

    handler: ClassVar[EndDesk]

    async def run(self, interaction: Interaction) -> None:
        await self.handler.on_end_button(interaction, self.verb, self.target)


class InviteButton(VerbButton, template=r"tt:inv:(?P<verb>accept|decline):(?P<id>[0-9]+)"):
    """An invitation DM's **Accept** and **Decline** (``invite_desk.py``)."""

    prefix = "tt:inv:"
    handler: ClassVar[InviteDesk]

    async def run(self, interaction: Interaction) -> None:
        await self.handler.on_invite_button(interaction, self.verb, self.target)


class PlayButton(VerbButton, template=r"tt:(?P<verb>play):(?P<id>[0-9]+)"):
    """A table message's **Play in Discord**: the Activity, opened at this table (``launch.py``)."""

    handler: ClassVar[Launcher]

    async def run(self, interaction: Interaction) -> None:
        await self.handler.on_play(interaction, self.target)


class LevelButton(
    Checked,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"tt:bot:(?P<level>easy|normal|hard):(?P<tid>[0-9]+)",
):
    """One level in the host's "Add computer" picker: adds a computer of that level."""

    handler: ClassVar[Desk]

    def __init__(self, level: str, table_id: int, **button: Any) -> None:
        super().__init__(discord.ui.Button(custom_id=f"tt:bot:{level}:{table_id}", **button))
        self.level, self.table_id = level, table_id

    @classmethod
    def parse(cls, match: re.Match[str], data: Any) -> Self:
        return cls(match["level"], strict.number(match["tid"]))

    async def run(self, interaction: Interaction) -> None:
        from bot.tables.computer_levels import on_level

        await on_level(self.handler, interaction, self.level, self.table_id)


class ActButton(
    Checked,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"tt:a:(?P<tid>[0-9]+):(?P<ver>[0-9]+):(?P<action>.+)",
):
    handler: ClassVar[Desk]

    def __init__(self, table_id: int, version: int, action: str, **button: Any) -> None:
        super().__init__(discord.ui.Button(custom_id=f"tt:a:{table_id}:{version}:{action}", **button))
        self.table_id, self.version, self.action = table_id, version, action

    @classmethod
    def parse(cls, match: re.Match[str], data: Any) -> Self:
        table_id, version = strict.number(match["tid"]), strict.number(match["ver"], "version")
        return cls(table_id, version, strict.action(match["action"]))

    async def run(self, interaction: Interaction) -> None:
        await self.handler.on_act(interaction, self.table_id, self.version, self.action)


class ActSelect(
    Checked,
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"tt:as:(?P<tid>[0-9]+):(?P<ver>[0-9]+)(?::(?P<n>[0-9]+))?",
):
    """A select of moves; ``n`` tells apart several selects on one message."""

    base = discord.ui.Select
    handler: ClassVar[Desk]

    def __init__(self, table_id: int, version: int, n: int = 0, **select: Any) -> None:
        super().__init__(discord.ui.Select(custom_id=f"tt:as:{table_id}:{version}:{n}", **select))
        self.table_id, self.version, self.n = table_id, version, n
        self.action = ""

    @classmethod
    def parse(cls, match: re.Match[str], data: Any) -> Self:
        n = strict.number(match["n"] or "0", "menu")
        item = cls(strict.number(match["tid"]), strict.number(match["ver"], "version"), n)
        item.action = strict.action(strict.one_value(data))
        return item

    async def run(self, interaction: Interaction) -> None:
        await self.handler.on_act(interaction, self.table_id, self.version, self.action)


class KickSelect(Checked, discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]], template=r"tt:kick:(?P<tid>[0-9]+)"):
    base = discord.ui.Select
    handler: ClassVar[Desk]

    def __init__(self, table_id: int, **select: Any) -> None:
        super().__init__(discord.ui.Select(custom_id=f"tt:kick:{table_id}", **select))
        self.table_id = table_id
        self.position = -1

    @classmethod
    def parse(cls, match: re.Match[str], data: Any) -> Self:
        item = cls(strict.number(match["tid"]))
        item.position = strict.position(data)
        return item

    async def run(self, interaction: Interaction) -> None:
        await self.handler.on_kick(interaction, self.table_id, self.position)


class SettingSelect(
    Checked,
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"tt:(?P<what>clock|tmo|lang):(?P<tid>[0-9]+)",
):
    """The host's lobby settings: the move clock and what happens on a timeout."""

    base = discord.ui.Select
    handler: ClassVar[Desk]

    def __init__(self, what: str, table_id: int, **select: Any) -> None:
        super().__init__(discord.ui.Select(custom_id=f"tt:{what}:{table_id}", **select))
        self.what, self.table_id = what, table_id
        self.value = ""

    @classmethod
    def parse(cls, match: re.Match[str], data: Any) -> Self:
        item = cls(match["what"], strict.number(match["tid"]))
        item.value = strict.setting(match["what"], data)
        return item

    async def run(self, interaction: Interaction) -> None:
        await self.handler.on_setting(interaction, self.table_id, self.what, self.value)


class DeadButton(
    Checked, discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"tt:x:(?P<tid>[0-9]+):(?P<n>[0-9]+)"
):
    handler: ClassVar[Desk]

    def __init__(self, table_id: int, n: int, **button: Any) -> None:
        super().__init__(discord.ui.Button(custom_id=f"tt:x:{table_id}:{n}", disabled=True, **button))

    @classmethod
    def parse(cls, match: re.Match[str], data: Any) -> Self:
        return cls(strict.number(match["tid"]), strict.number(match["n"], "index"))

    async def run(self, interaction: Interaction) -> None:
        await self.handler.on_stale(interaction)


class HelpButton(Checked, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tt:help:(?P<tid>[0-9]+)"):
    """The table's **?**: what its marks mean and why a card is greyed, answered privately."""

    handler: ClassVar[Legend]

    def __init__(self, table_id: int, **button: Any) -> None:
        super().__init__(discord.ui.Button(custom_id=f"tt:help:{table_id}", **button))
        self.table_id = table_id

    @classmethod
    def parse(cls, match: re.Match[str], data: Any) -> Self:
        return cls(strict.number(match["tid"]))

    async def run(self, interaction: Interaction) -> None:
        await self.handler.on_help(interaction, self.table_id)


ALL = (TableButton, LevelButton, ActButton, ActSelect, KickSelect, SettingSelect, DeadButton)


def static_view(*items: discord.ui.Item[Any]) -> discord.ui.View:
    """A view to send, stopped at once so that discord.py never stores it: it would register the
    templates of its items, unbound, over the bound classes that route every click."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()
    return view


def table_items(desk: Desk, ending: EndDesk) -> list[type[discord.ui.DynamicItem[Any]]]:
    """The table components, each bound to the desk that handles its clicks."""
    return [bound(cls, desk) for cls in ALL] + [bound(EndButton, ending)]


def invite_items(invites: InviteDesk) -> list[type[discord.ui.DynamicItem[Any]]]:
    """An invitation DM's answers, bound to what handles them."""
    return [bound(InviteButton, invites)]


def launch_items(launcher: Launcher) -> list[type[discord.ui.DynamicItem[Any]]]:
    """**Play in Discord**, bound to what launches the Activity. Registered with Activities off
    too: a message drawn while they were on is answered, not refused as out of date."""
    return [bound(PlayButton, launcher)]


def legend_items(legend: Legend) -> list[type[discord.ui.DynamicItem[Any]]]:
    """The table's **?**, bound to what answers it."""
    return [bound(HelpButton, legend)]


def custom_ids(components: list[discord.Component]) -> Iterator[tuple[int, str]]:
    """(kind, custom id) of every component of a message: discord.py finds the clicked item by both."""
    for component in components:
        custom_id = getattr(component, "custom_id", None)
        if custom_id:
            yield component.type.value, custom_id
        yield from custom_ids(getattr(component, "children", []))


def unclaimed(interaction: Interaction, items: list[type[discord.ui.DynamicItem[Any]]]) -> bool:
    """Whether discord.py will route this component click to none of ``items``: no template matches
    its custom id, or the clicked message does not carry a component of that id and kind (a menu
    choice sent with a button's id: discord.py then drops the click)."""
    data: Mapping[str, Any] = interaction.data or {}
    custom_id = str(data.get("custom_id", ""))
    if not any(cls.__discord_ui_compiled_template__.fullmatch(custom_id) for cls in items):
        return True
    message = interaction.message
    return message is None or (data.get("component_type"), custom_id) not in set(custom_ids(message.components))
