"""/leaderboard and /profile: ratings per game in this server.

The number shown is conservative (skill minus three times its uncertainty, scaled), so it rises as
the bot becomes sure of a player, and one lucky game does not top the board.
"""

from __future__ import annotations

import io
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.core.errors import UserError
from bot.core.games import REGISTRY
from bot.core.interaction import Interaction
from bot.core.translator import command
from bot.ratings import charts
from bot.ratings import model as ratings
from bot.tables.member_locale import member_lang
from bot.tables.render import IMAGE_NAME

if TYPE_CHECKING:
    from bot.ratings.store import RatingStore
    from bot.tables.desk import Desk

LEADERBOARD_SIZE = 20
RECENT = 5
#: The web page of a server's leaderboard in a game (a member's profile, given one), or None.
RatingPage = Callable[[int, str, int | None], Awaitable[str | None]]


async def no_page(guild_id: int, game: str, user_id: int | None) -> str | None:
    return None


async def autocomplete_game(interaction: Interaction, current: str) -> list[Choice[str]]:
    """The registered games whose name (in the member's language) or id contains what was typed."""
    tr = member_lang(interaction)
    return [
        Choice(name=tr(f"{game}.name"), value=game)
        for game in sorted(REGISTRY)
        if current.lower() in tr(f"{game}.name").lower() or current.lower() in game
    ][:25]


class RatingCommands(commands.Cog):
    def __init__(self, store: RatingStore, desk: Desk, page: RatingPage = no_page) -> None:
        self.store = store
        self.desk = desk  # answers every interaction, whatever happens
        self.page = page  # the embed's title links to the web page (with a public address)

    @command(
        "cmd.leaderboard",
        "The best rated players of a game in this server",
        game="The game",
    )
    @app_commands.autocomplete(game=autocomplete_game)
    async def leaderboard(self, interaction: Interaction, game: str) -> None:
        async def work() -> None:
            tr = member_lang(interaction)
            if interaction.guild is None:
                raise UserError("error.guild_text_only")
            if game not in REGISTRY:
                raise UserError("tournament.error.bad_game")
            players = await self.store.leaderboard(interaction.guild.id, game, LEADERBOARD_SIZE)
            embed = discord.Embed(
                title=tr("rating.leaderboard_title", game=tr(f"{game}.name")), colour=0x2F7D4F,
                url=await self.page(interaction.guild.id, game, None),
            )
            lines = [
                tr("rating.leaderboard_line", rank=i, name=p.name, rating=p.shown, games=p.games, wins=p.wins)
                for i, p in enumerate(players, start=1)
            ]
            embed.description = "\n".join(lines) or tr("rating.nobody")
            embed.set_footer(text=tr("rating.explained"))
            await interaction.response.send_message(embed=embed)

        await self.desk.guarded(interaction, None, work())

    @command(
        "cmd.profile",
        "A member's ratings and recent results",
        member="Whose profile (default: yours)",
        game="The game (default: the one they play most)",
    )
    @app_commands.autocomplete(game=autocomplete_game)
    async def profile(
        self, interaction: Interaction, member: discord.User | None = None, game: str | None = None
    ) -> None:
        async def work() -> None:
            tr = member_lang(interaction)
            if interaction.guild is None:
                raise UserError("error.guild_text_only")
            who = member or interaction.user
            games = await self.store.games_of(interaction.guild.id, who.id)
            if game is not None and game not in REGISTRY:
                raise UserError("tournament.error.bad_game")
            chosen = game or (games[0] if games else None)
            player = await self.store.player(interaction.guild.id, chosen, who.id) if chosen else None
            if player is None or chosen is None:
                await self.desk.reply(interaction, tr("rating.unrated", player=who.mention))
                return
            history = await self.store.history(interaction.guild.id, chosen, who.id)
            values = [ratings.display(ratings.Rating(h["mu"], h["sigma"])) for h in history]
            if len(history) == player.games:
                values.insert(0, ratings.display(ratings.fresh()))  # where everyone starts
            embed = discord.Embed(
                title=tr("rating.profile_title", name=player.name, game=tr(f"{chosen}.name")), colour=0x2F7D4F,
                url=await self.page(interaction.guild.id, chosen, who.id),
            )
            embed.add_field(name=tr("rating.rating"), value=str(player.shown))
            embed.add_field(name=tr("rating.games"), value=str(player.games))
            embed.add_field(name=tr("rating.wins"), value=str(player.wins))
            recent = [
                tr("rating.recent_line", place=h["place"], places=h["places"], table=h["table_id"])
                for h in history[-RECENT:][::-1]
            ]
            embed.add_field(name=tr("rating.recent"), value="\n".join(recent) or "—", inline=False)
            others = [tr(f"{g}.name") for g in games if g != chosen]
            if others:
                embed.add_field(name=tr("rating.other_games"), value=tr.join(others, conjunction=False), inline=False)
            embed.set_footer(text=tr("rating.explained"))
            embed.set_image(url=f"attachment://{IMAGE_NAME}")
            image = charts.rating_history_image(values)
            file = discord.File(io.BytesIO(image), filename=IMAGE_NAME)
            await interaction.response.send_message(embed=embed, file=file)

        await self.desk.guarded(interaction, None, work())

