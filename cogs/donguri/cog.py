"""Slash commands for Donguri to Yamaneko; the platform runs the table."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.core.games import register
from bot.core.interaction import Interaction
from bot.core.translator import command, game_options
from cogs.donguri.engine import DonguriEngine
from cogs.donguri.render import DonguriUI

if TYPE_CHECKING:
    from bot.tables.desk import Desk
    from bot.tables.opening import Opening


class Donguri(
    commands.GroupCog,
    group_name=locale_str("donguri", key="donguri.cmd.name"),
    group_description=locale_str("Donguri to Yamaneko (3–5 players)", key="donguri.cmd.description"),
):
    def __init__(self, desk: Desk, opening: Opening) -> None:
        self.desk = desk
        self.opening = opening

    @command(
        "donguri.cmd.new",
        "Open a Donguri to Yamaneko table in this channel",
        players="Table size (3–5)",
    )
    @game_options(DonguriEngine)
    async def new(
        self,
        interaction: Interaction,
        players: app_commands.Range[int, 3, 5] = 4,
        rated: bool = False,
        **options: Any,
    ) -> None:
        await self.opening.open_table(interaction, "donguri", players, options, rated=rated)

    @command("donguri.cmd.rules", "How to play Donguri to Yamaneko")
    async def rules(self, interaction: Interaction) -> None:
        await self.desk.send_rules(interaction, "donguri")


def cog(desk: Desk, opening: Opening) -> commands.Cog:
    """The game's commands, and its table views registered with the platform."""
    register(DonguriUI())
    return Donguri(desk, opening)
