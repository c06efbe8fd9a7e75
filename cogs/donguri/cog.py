"""Slash commands for Donguri to Yamaneko; the platform runs the table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord.ext import commands

from bot.core.games import register
from bot.tables.game_cog import GameCog, game_group, new_command, rules_command
from cogs.donguri.engine import DonguriEngine
from cogs.donguri.render import DonguriUI

if TYPE_CHECKING:
    from bot.tables.desk import Desk
    from bot.tables.opening import Opening


class Donguri(GameCog, **game_group("donguri", "donguri", "Donguri to Yamaneko (3–5 players)")):
    new = new_command(
        "donguri", DonguriEngine, "Open a Donguri to Yamaneko table in this channel",
        players=(3, 5, "Table size (3–5)"),
    )
    rules = rules_command("donguri", "How to play Donguri to Yamaneko")


def cog(desk: Desk, opening: Opening) -> commands.Cog:
    """The game's commands, and its table views registered with the platform."""
    register(DonguriUI())
    return Donguri(desk, opening)
