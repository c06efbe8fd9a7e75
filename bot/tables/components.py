"""Persistent components: every custom id carries the table id, so buttons work after a restart.

``tt:<verb>:<table>`` lobby and table buttons; ``tt:bot:<level>:<table>`` a computer level to add;
``tt:a:<table>:<version>:<action>`` a move;
``tt:as:<table>:<version>`` a select menu of moves; ``tt:kick:<table>`` the host's remove menu;
``tt:x:<table>:<n>`` a shown-but-unplayable card; ``tt:ev:<verb>:<tournament>`` tournament buttons.

A client may send any id and any menu value: each item reads its own strictly
(``component_input``), and answers one that no message of ours could have sent without acting.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, ClassVar

import discord

from bot.tables import component_input as strict
from bot.tables.component_input import Refused

if TYPE_CHECKING:
    from bot.tables.desk import Desk

Interaction = discord.Interaction["TabletopBot"]


def _desk(interaction: Interaction) -> Desk:
    return interaction.client.desk


class Checked:
    """Our dynamic items read their custom id (and a menu its values) strictly, in ``parse``: a
    click that no message of ours could have sent still makes an item, whose callback answers
    "not valid any more" and changes nothing. Whoever dispatches (``dispatch`` below, or
    discord.py's own dynamic items) gets an answer for every click and never an exception."""

    base: ClassVar[type[discord.ui.Item]] = discord.ui.Button
    refused: str | None = None

    @classmethod
    def parse(cls, match: re.Match[str], data: Any) -> Any:
        raise NotImplementedError

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: Any, match: re.Match[str]):
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
            await _desk(interaction).on_refused(interaction, self.refused)
        else:
            await self.run(interaction)

    async def run(self, interaction: Interaction) -> None:
        raise NotImplementedError


class TableButton(
    Checked,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"tt:(?P<verb>join|leave|start|cancel|bot|hand):(?P<tid>[0-9]+)",
):
    def __init__(self, verb: str, table_id: int, **button: Any) -> None:
        super().__init__(discord.ui.Button(custom_id=f"tt:{verb}:{table_id}", **button))
        self.verb, self.table_id = verb, table_id

    @classmethod
    def parse(cls, match: re.Match[str], data: Any):
        return cls(match["verb"], strict.number(match["tid"]))

    async def run(self, interaction: Interaction) -> None:
        await _desk(interaction).on_table_button(interaction, self.verb, self.table_id)


class LevelButton(
    Checked,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"tt:bot:(?P<level>easy|normal|hard):(?P<tid>[0-9]+)",
):
    """One level in the host's "Add computer" picker: adds a computer of that level."""

    def __init__(self, level: str, table_id: int, **button: Any) -> None:
        super().__init__(discord.ui.Button(custom_id=f"tt:bot:{level}:{table_id}", **button))
        self.level, self.table_id = level, table_id

    @classmethod
    def parse(cls, match: re.Match[str], data: Any):
        return cls(match["level"], strict.number(match["tid"]))

    async def run(self, interaction: Interaction) -> None:
        from bot.tables.computer_levels import on_level

        await on_level(_desk(interaction), interaction, self.level, self.table_id)


class ActButton(
    Checked,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"tt:a:(?P<tid>[0-9]+):(?P<ver>[0-9]+):(?P<action>.+)",
):
    def __init__(self, table_id: int, version: int, action: str, **button: Any) -> None:
        super().__init__(discord.ui.Button(custom_id=f"tt:a:{table_id}:{version}:{action}", **button))
        self.table_id, self.version, self.action = table_id, version, action

    @classmethod
    def parse(cls, match: re.Match[str], data: Any):
        table_id, version = strict.number(match["tid"]), strict.number(match["ver"], "version")
        return cls(table_id, version, strict.action(match["action"]))

    async def run(self, interaction: Interaction) -> None:
        await _desk(interaction).on_act(interaction, self.table_id, self.version, self.action)


class ActSelect(
    Checked,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"tt:as:(?P<tid>[0-9]+):(?P<ver>[0-9]+)(?::(?P<n>[0-9]+))?",
):
    """A select of moves; ``n`` tells apart several selects on one message."""

    base = discord.ui.Select

    def __init__(self, table_id: int, version: int, n: int = 0, **select: Any) -> None:
        super().__init__(discord.ui.Select(custom_id=f"tt:as:{table_id}:{version}:{n}", **select))
        self.table_id, self.version, self.n = table_id, version, n
        self.action = ""

    @classmethod
    def parse(cls, match: re.Match[str], data: Any):
        n = strict.number(match["n"] or "0", "menu")
        item = cls(strict.number(match["tid"]), strict.number(match["ver"], "version"), n)
        item.action = strict.action(strict.one_value(data))
        return item

    async def run(self, interaction: Interaction) -> None:
        await _desk(interaction).on_act(interaction, self.table_id, self.version, self.action)


class KickSelect(Checked, discord.ui.DynamicItem[discord.ui.Select], template=r"tt:kick:(?P<tid>[0-9]+)"):
    base = discord.ui.Select

    def __init__(self, table_id: int, **select: Any) -> None:
        super().__init__(discord.ui.Select(custom_id=f"tt:kick:{table_id}", **select))
        self.table_id = table_id
        self.position = -1

    @classmethod
    def parse(cls, match: re.Match[str], data: Any):
        item = cls(strict.number(match["tid"]))
        item.position = strict.position(data)
        return item

    async def run(self, interaction: Interaction) -> None:
        await _desk(interaction).on_kick(interaction, self.table_id, self.position)


class SettingSelect(
    Checked,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"tt:(?P<what>clock|tmo|lang):(?P<tid>[0-9]+)",
):
    """The host's lobby settings: the move clock and what happens on a timeout."""

    base = discord.ui.Select

    def __init__(self, what: str, table_id: int, **select: Any) -> None:
        super().__init__(discord.ui.Select(custom_id=f"tt:{what}:{table_id}", **select))
        self.what, self.table_id = what, table_id
        self.value = ""

    @classmethod
    def parse(cls, match: re.Match[str], data: Any):
        item = cls(match["what"], strict.number(match["tid"]))
        item.value = strict.setting(match["what"], data)
        return item

    async def run(self, interaction: Interaction) -> None:
        await _desk(interaction).on_setting(interaction, self.table_id, self.what, self.value)


class DeadButton(
    Checked, discord.ui.DynamicItem[discord.ui.Button], template=r"tt:x:(?P<tid>[0-9]+):(?P<n>[0-9]+)"
):
    def __init__(self, table_id: int, n: int, **button: Any) -> None:
        super().__init__(discord.ui.Button(custom_id=f"tt:x:{table_id}:{n}", disabled=True, **button))

    @classmethod
    def parse(cls, match: re.Match[str], data: Any):
        return cls(strict.number(match["tid"]), strict.number(match["n"], "index"))

    async def run(self, interaction: Interaction) -> None:
        await _desk(interaction).on_stale(interaction)


class EventButton(
    Checked,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"tt:ev:(?P<verb>join|drop|checkin|start|next|confirm|repair):(?P<eid>[0-9]+)",
):
    """A tournament's buttons: sign up, drop out, and the organizer's start, next round, and
    confirming or redoing a round's seating."""

    def __init__(self, verb: str, event_id: int, **button: Any) -> None:
        super().__init__(discord.ui.Button(custom_id=f"tt:ev:{verb}:{event_id}", **button))
        self.verb, self.event_id = verb, event_id

    @classmethod
    def parse(cls, match: re.Match[str], data: Any):
        return cls(match["verb"], strict.number(match["eid"], "tournament id"))

    async def run(self, interaction: Interaction) -> None:
        await interaction.client.tournaments.on_button(interaction, self.verb, self.event_id)


ALL = (TableButton, LevelButton, ActButton, ActSelect, KickSelect, SettingSelect, DeadButton, EventButton)


def static_view(*items: discord.ui.Item) -> discord.ui.View:
    """A view to send, stopped at once so that discord.py never stores it (nor registers its
    templates): ``dispatch`` finds every item again by its custom id."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()
    return view


async def dispatch(interaction: Interaction, custom_id: str) -> bool:
    """Run the component whose template matches ``custom_id``; False when none does.

    discord.py's own dynamic-item dispatch rebuilds a whole view from the clicked message before it
    finds the item (about a third of a millisecond a click, for a hand of buttons); every item here
    reads only its custom id, so it is built from the match alone.
    """
    for cls in ALL:
        match = cls.__discord_ui_compiled_template__.fullmatch(custom_id)
        if match is not None:
            item = await cls.from_custom_id(interaction, None, match)  # type: ignore[arg-type]
            await item.callback(interaction)
            return True
    return False


def live(client: discord.Client, custom_id: str) -> bool:
    """Whether a live view of discord.py's (a confirmation waiting for its answer) has ``custom_id``."""
    store = getattr(client._connection, "_view_store", None)
    views = getattr(store, "_views", {}) if store is not None else {}
    return any(key[1] == custom_id for items in views.values() for key in items)
