"""Slash commands for Donguri to Yamaneko; the platform runs the table."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import register
from cogs.donguri.render import DonguriUI


class Donguri(commands.GroupCog, group_name="donguri", group_description="Donguri to Yamaneko (3–5 players)"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="new", description="Open a Donguri to Yamaneko table in this channel")
    @app_commands.describe(players="Table size (3–5)", length="Standard or short game (number of deals)")
    async def new(
        self,
        interaction: discord.Interaction,
        players: app_commands.Range[int, 3, 5] = 4,
        length: Literal["standard", "short"] = "standard",
    ) -> None:
        await self.bot.desk.open_table(interaction, "donguri", players, {"length": length})

    @app_commands.command(name="rules", description="How to play Donguri to Yamaneko")
    async def rules(self, interaction: discord.Interaction) -> None:
        await self.bot.desk.send_rules(interaction, "donguri")


async def setup(bot: commands.Bot) -> None:
    register(DonguriUI())
    await bot.add_cog(Donguri(bot))
