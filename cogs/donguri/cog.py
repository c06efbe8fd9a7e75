"""Slash commands for Donguri to Yamaneko; the platform runs the table."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.games import register
from cogs.donguri.render import DonguriUI

LENGTH_CHOICES = [
    app_commands.Choice(
        name=locale_str("standard (3p: 9 deals, 4p: 8, 5p: 5)", key="donguri.cmd.new.length.standard"),
        value="standard",
    ),
    app_commands.Choice(
        name=locale_str("short (3p: 6 deals, 4p: 4, 5p: 5)", key="donguri.cmd.new.length.short"),
        value="short",
    ),
]


class Donguri(
    commands.GroupCog,
    group_name=locale_str("donguri", key="donguri.cmd.name"),
    group_description=locale_str("Donguri to Yamaneko (3–5 players)", key="donguri.cmd.description"),
):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(
        name=locale_str("new", key="donguri.cmd.new.name"),
        description=locale_str(
            "Open a Donguri to Yamaneko table in this channel", key="donguri.cmd.new.description"
        ),
    )
    @app_commands.rename(
        players=locale_str("players", key="donguri.cmd.new.players.name"),
        length=locale_str("length", key="donguri.cmd.new.length.name"),
        rated=locale_str("rated", key="cmd.new.rated.name"),
    )
    @app_commands.describe(
        players=locale_str("Table size (3–5)", key="donguri.cmd.new.players.description"),
        length=locale_str(
            "Standard or short game (number of deals)", key="donguri.cmd.new.length.description"
        ),
        rated=locale_str(
            "Count this table for the server's ratings and leaderboard", key="cmd.new.rated.description"
        ),
    )
    @app_commands.choices(length=LENGTH_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        players: app_commands.Range[int, 3, 5] = 4,
        length: str = "standard",
        rated: bool = False,
    ) -> None:
        await self.bot.desk.open_table(interaction, "donguri", players, {"length": length}, rated=rated)

    @app_commands.command(
        name=locale_str("rules", key="donguri.cmd.rules.name"),
        description=locale_str("How to play Donguri to Yamaneko", key="donguri.cmd.rules.description"),
    )
    async def rules(self, interaction: discord.Interaction) -> None:
        await self.bot.desk.send_rules(interaction, "donguri")


async def setup(bot: commands.Bot) -> None:
    register(DonguriUI())
    await bot.add_cog(Donguri(bot))
