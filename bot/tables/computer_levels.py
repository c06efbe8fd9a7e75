"""The level of a computer seat, chosen when the host adds it: "Add computer" answers the host
alone with one button per level, and each press adds one computer at that level (so a host can
add several). The lobby has no free row for a level menu, hence the private picker.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.core.errors import UserError
from bot.core.i18n import Lang
from bot.core.interaction import Interaction
from bot.tables.components import LevelButton, static_view
from bot.tables.in_time import send_private
from bot.tables.member_locale import member_lang
from bot.tables.service import LEVELS

if TYPE_CHECKING:
    from bot.storage.store import TableRow
    from bot.tables.desk import Desk

STYLES = {"easy": discord.ButtonStyle.success, "normal": discord.ButtonStyle.primary, "hard": discord.ButtonStyle.danger}


def picker(table: TableRow, tr: Lang) -> tuple[str, discord.ui.View]:
    buttons = [LevelButton(level, table.id, label=tr(f"level.button.{level}"), style=STYLES[level]) for level in LEVELS]
    return tr("lobby.level_prompt"), static_view(*buttons)


async def ask_level(desk: Desk, interaction: Interaction, table: TableRow) -> None:
    """The host pressed "Add computer": offer the levels, privately, in the host's language."""
    if table.status != "lobby":
        raise UserError("error.not_in_lobby")
    if interaction.user.id != table.host_id:
        raise UserError("error.host_only")
    if len(table.seats) >= table.size:
        raise UserError("error.table_full")
    text, view = picker(table, member_lang(interaction))
    await send_private(interaction, content=text, view=view)  # a follow-up if the click was deferred


async def on_level(desk: Desk, interaction: Interaction, level: str, table_id: int) -> None:
    """A level was picked: one computer of that level takes a seat (the table starts when full)."""

    async def work() -> None:
        table = await desk.checked(interaction, table_id)
        async with desk.showing_table(interaction, table):
            changed = await desk.moves.add_computer(table_id, interaction.user.id, level)
            await desk.answer_lobby(interaction, changed, f"bot_{level}")

    await desk.guarded(interaction, table_id, work())
