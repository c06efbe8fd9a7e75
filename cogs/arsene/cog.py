"""Slash commands for Arsène, new edition; the platform runs the table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands
from discord.ext import commands

from bot.core.errors import UserError
from bot.core.games import register
from bot.core.i18n import Lang, language_of
from bot.core.interaction import Interaction
from bot.core.translator import command
from bot.tables import render
from bot.tables.game_cog import GameCog, game_group, new_command, rules_command
from cogs.arsene.engine import ArseneEngine
from cogs.arsene.render import ArseneUI

if TYPE_CHECKING:
    from bot.tables.desk import Desk
    from bot.tables.opening import Opening

UI = ArseneUI()


class Arsene(GameCog, **game_group("arsene", "arsene", "Arsène, new edition (3–4 players)")):
    new = new_command(
        "arsene", ArseneEngine, "Open an Arsène table in this channel",
        players=(3, 4, "Table size (3 or 4; with 3 a dummy player joins)"),
    )
    rules = rules_command("arsene", "How to play Arsène")

    @command("arsene.cmd.play", "Make your move at the Arsène table here", move="Your move (type to search)")
    async def play(self, interaction: Interaction, move: str) -> None:
        await self.desk.play_command(interaction, "arsene", move)

    @play.autocomplete("move")
    async def play_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        tr = Lang(language_of(interaction.locale))
        names = await self._names(interaction)
        found = await self.desk.autocomplete_actions(
            interaction, "arsene", lambda action: UI.action_label(action, names, tr)
        )
        wanted = current.lower()
        return [app_commands.Choice(name=n[:100], value=a) for n, a in found if wanted in n.lower()][:25]

    async def _names(self, interaction: Interaction) -> list[str]:
        """Seat names of the member's table here, for "Push to <name>" labels."""
        try:
            table, _engine, _seat = await self.desk.seat_here(interaction, "arsene")
        except UserError:
            return []
        return render.seat_names(table, Lang(language_of(interaction.locale)))


def cog(desk: Desk, opening: Opening) -> commands.Cog:
    """The game's commands, and its table views registered with the platform."""
    register(UI)
    return Arsene(desk, opening)
