"""Slash commands for Othello de Torite (``/othello``); the platform runs the table.

Moves come from the DM menus or from ``/othello play``, whose square field suggests the member's
legal squares; ``/othello record`` shows the game record of the table in this channel.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.core.errors import UserError
from bot.core.games import register
from bot.core.interaction import Interaction
from bot.core.translator import command
from bot.tables.game_cog import GameCog, game_group, new_command, rules_command
from bot.tables.member_locale import member_lang
from bot.tables.render import seat_names
from cogs.othello_torite.engine import OthelloToriteEngine
from cogs.othello_torite.render import OthelloToriteUI, action_of, record_lines, square_label
from cogs.othello_torite.rules_board import SQUARE_INDEX

if TYPE_CHECKING:
    from bot.tables.desk import Desk
    from bot.tables.opening import Opening

GAME = "othello_torite"

SUIT_CHOICES = [
    app_commands.Choice(name=locale_str("red", key="othello_torite.cmd.play.suit.red"), value="red"),
    app_commands.Choice(name=locale_str("blue", key="othello_torite.cmd.play.suit.blue"), value="blue"),
]


class OthelloTorite(GameCog, **game_group("othello_torite", "othello", "Othello de Torite (2 players)")):
    new = new_command(GAME, OthelloToriteEngine, "Open an Othello de Torite table in this channel", players=2)
    rules = rules_command(GAME, "How to play Othello de Torite")

    @command(
        "othello_torite.cmd.play",
        "Place a disc at your Othello de Torite table here",
        suit="The suit of the disc",
        square="The square, like d3 (suggestions are legal)",
    )
    @app_commands.choices(suit=SUIT_CHOICES)
    async def play(self, interaction: Interaction, suit: str, square: str) -> None:
        square = square.strip().lower()
        if square not in SQUARE_INDEX:
            tr = member_lang(interaction)
            await self.desk.reply(interaction, tr(f"{GAME}.error.bad_square", square=square[:10]))
            return
        await self.desk.play_command(interaction, GAME, action_of(suit, square))

    @play.autocomplete("square")
    async def square_choices(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        tr = member_lang(interaction)
        suit = getattr(interaction.namespace, "suit", None)
        letter = suit[0] if suit in ("red", "blue") else None
        pairs = await self.desk.autocomplete_actions(interaction, GAME, lambda a: square_label(a, tr))
        typed = current.strip().lower()
        choices = []
        for label, action in pairs:
            _, suit_letter, sq = action.split(":")
            if (letter is None or suit_letter == letter) and sq.startswith(typed):
                choices.append(app_commands.Choice(name=label, value=sq))
        return choices[:25]

    @command("othello_torite.cmd.record", "Show the game record of the Othello de Torite table here")
    async def record(self, interaction: Interaction) -> None:
        await self.desk.guarded(interaction, None, self._record(interaction))

    async def _record(self, interaction: Interaction) -> None:
        tables = await self.desk.service.store.running_tables_at(GAME, interaction.channel_id or 0)
        if not tables:
            raise UserError(f"{GAME}.record.none")
        mine = [t for t in tables if t.seat_of(interaction.user.id) is not None]
        table = (mine or tables)[-1]
        engine = await self.desk.service.engine(table)
        assert isinstance(engine, OthelloToriteEngine)  # a table of this game
        tr = member_lang(interaction)
        names = seat_names(table, tr)
        text = record_lines(engine.record_text()) or tr(f"{GAME}.record.empty")
        reply = tr(f"{GAME}.record.reply", id=table.id, black=names[0], white=names[1], record=text)
        await self.desk.reply(interaction, reply)


def cog(desk: Desk, opening: Opening) -> commands.Cog:
    """The game's commands, and its table views registered with the platform."""
    register(OthelloToriteUI())
    return OthelloTorite(desk, opening)
