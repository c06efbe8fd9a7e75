"""Slash commands for Saizen; the platform runs the table.

``/saizen play`` is a typed alternative to the buttons: a member may type a card in either
language instead of picking it.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING

from discord import app_commands
from discord.ext import commands

from bot.core import cards
from bot.core.games import register
from bot.core.i18n import LANGUAGES, t
from bot.core.interaction import Interaction
from bot.core.translator import command
from bot.tables.game_cog import GameCog, game_group, new_command, rules_command
from bot.tables.member_locale import member_lang
from cogs.saizen.engine import SaizenEngine
from cogs.saizen.render import SUIT, SaizenUI

if TYPE_CHECKING:
    from bot.tables.desk import Desk
    from bot.tables.opening import Opening

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


def typed_action(text: str) -> str:
    """The action a member typed: an action as offered, a bare card, or "Pass" in either language."""
    text = text.strip()
    typed = plain(text)
    if typed in TYPED_PASS:
        return "pass"
    card = TYPED_CARDS.get(typed)
    return f"play:{card}" if card else text


class Saizen(
    GameCog, **game_group("saizen", "saizen", "Saizen — must-win tricks with rule cards (2–6 players)")
):
    new = new_command(
        GAME, SaizenEngine, "Open a Saizen table in this channel",
        players=(2, 6, "Table size (2–6)"),
    )
    rules = rules_command(GAME, "How to play Saizen")

    @command(
        "saizen.cmd.play",
        "Play a card or make your chip move at your Saizen table here",
        move="A card (e.g. ♠Q), a chip move or Pass",
    )
    async def play(self, interaction: Interaction, move: str) -> None:
        await self.desk.play_command(interaction, GAME, typed_action(move))

    @play.autocomplete("move")
    async def play_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
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

        found = await self.desk.autocomplete_actions(interaction, GAME, label)
        wanted = current.strip().lower()
        return [
            app_commands.Choice(name=name, value=action)
            for name, action in found
            if wanted in name.lower() or wanted in action.lower()
        ][:25]


def cog(desk: Desk, opening: Opening) -> commands.Cog:
    """The game's commands, and its table views registered with the platform."""
    register(SaizenUI())
    return Saizen(desk, opening)
