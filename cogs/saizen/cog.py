"""Slash commands for Saizen; the platform runs the table.

``/saizen new`` checks the starting layout before a table opens, so a typo gets a precise answer
instead of a table that cannot start. ``/saizen play`` is a typed alternative to the buttons.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.core import cards
from bot.core.engine import IllegalAction
from bot.core.games import register
from bot.core.i18n import LANGUAGES, t
from bot.core.translator import command
from bot.tables.desk import member_lang
from cogs.saizen.engine import OPTION_JOKERS, OPTION_LAYOUT
from cogs.saizen.render import SUIT, SaizenUI
from cogs.saizen.rules_core import format_layout, parse_layout

if TYPE_CHECKING:
    from bot.app import TabletopBot

GAME = "saizen"


def plain(text: str) -> str:
    """Typed text compared loosely: full-width forms folded (NFKC), no variation selectors or spaces."""
    text = unicodedata.normalize("NFKC", text)
    return "".join(c for c in text if c not in "\ufe0e\ufe0f" and not c.isspace()).lower()


#: A typed card ("♠Q", "SQ", "s12", "🃏") → its code, so a player may type a card instead of picking.
TYPED_CARDS = {
    **{plain(cards.label(c)): c for c in cards.standard_deck()},
    **{plain(f"{c[0]}{cards.label(c)[len(cards.SUIT_SYMBOLS[c[0]]) :]}"): c for c in cards.standard_deck()},
    **{plain(c): c for c in cards.standard_deck()},
}
#: "Pass" typed in either language.
TYPED_PASS = {plain(t("saizen.action.pass", language)) for language in LANGUAGES}

JOKER_CHOICES = [
    app_commands.Choice(name=locale_str("none", key="saizen.cmd.new.jokers.none"), value=0),
    app_commands.Choice(name=locale_str("1 joker", key="saizen.cmd.new.jokers.one"), value=1),
    app_commands.Choice(name=locale_str("2 jokers", key="saizen.cmd.new.jokers.two"), value=2),
]


def typed_action(text: str) -> str:
    """The action a member typed: an action as offered, a bare card, or "Pass" in either language."""
    text = text.strip()
    typed = plain(text)
    if typed in TYPED_PASS:
        return "pass"
    card = TYPED_CARDS.get(typed)
    return f"play:{card}" if card else text


class Saizen(
    commands.GroupCog,
    group_name=locale_str("saizen", key="saizen.cmd.name"),
    group_description=locale_str(
        "Saizen — must-win tricks with rule cards (2–6 players)", key="saizen.cmd.description"
    ),
):
    def __init__(self, bot: TabletopBot) -> None:
        self.bot = bot

    @command(
        "saizen.cmd.new",
        "Open a Saizen table in this channel",
        players="Table size (2–6)",
        jokers="Jokers in play (0, 1 or 2)",
        layout="Switches starting on their second side, e.g. S:low+may H:playoff *:free (empty = standard)",
        rated=("Count this table for the server's ratings and leaderboard", "cmd.new.rated"),
    )
    @app_commands.choices(jokers=JOKER_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction[TabletopBot],
        players: app_commands.Range[int, 2, 6] = 4,
        jokers: int = 0,
        layout: str = "",
        rated: bool = False,
    ) -> None:
        try:
            second = parse_layout(layout.strip())
        except IllegalAction as exc:
            text = member_lang(interaction)("saizen.error.bad_layout", value=exc.params.get("value", layout))
            await self.bot.desk.reply(interaction, text)
            return
        options = {OPTION_JOKERS: int(jokers), OPTION_LAYOUT: format_layout(second)}
        await self.bot.desk.open_table(interaction, GAME, players, options, rated=rated)

    @command("saizen.cmd.rules", "How to play Saizen")
    async def rules(self, interaction: discord.Interaction[TabletopBot]) -> None:
        await self.bot.desk.send_rules(interaction, GAME)

    @command(
        "saizen.cmd.play",
        "Play a card or make your chip move at your Saizen table here",
        move="A card (e.g. ♠Q), a chip move or Pass",
    )
    async def play(self, interaction: discord.Interaction[TabletopBot], move: str) -> None:
        await self.bot.desk.play_command(interaction, GAME, typed_action(move))

    @play.autocomplete("move")
    async def play_autocomplete(self, interaction: discord.Interaction[TabletopBot], current: str):
        tr = member_lang(interaction)

        def label(action: str) -> str:
            parts = action.split(":")
            if parts[0] == "pass":
                return tr("saizen.action.pass")
            if parts[0] == "chip":
                return f"{SUIT[parts[1]]} {tr(f'saizen.switch_name.{parts[2]}')}"
            if len(parts) == 3:
                return tr("saizen.prompt.joker_as", suit=SUIT[parts[2]])
            return cards.label(parts[1])

        found = await self.bot.desk.autocomplete_actions(interaction, GAME, label)
        wanted = current.strip().lower()
        return [
            app_commands.Choice(name=name, value=action)
            for name, action in found
            if wanted in name.lower() or wanted in action.lower()
        ][:25]


async def setup(bot: TabletopBot) -> None:
    register(SaizenUI())
    await bot.add_cog(Saizen(bot))
