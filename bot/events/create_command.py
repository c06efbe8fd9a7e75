"""/tournament create: every option of a new event, checked and stored before sign-up opens.

A command of the ``/tournament`` group, built here with what it uses and added to the group by
``TournamentCommands``: its declaration (two dozen options) and its work are kept together, and
the cog's own file stays readable. discord.py calls a command made from a plain function without
a cog, so nothing here reaches into the cog.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.core.errors import UserError
from bot.core.games import REGISTRY
from bot.core.interaction import Interaction
from bot.core.translator import command
from bot.events.command_options import (
    CLOCK_CHOICES,
    FILL_CHOICES,
    FORMAT_CHOICES,
    LEVEL_CHOICES,
    OPTION_SLOTS,
    PAIRING_CHOICES,
    POLICY_CHOICES,
    TEAM_CHOICES,
    autocomplete_option,
    chosen_options,
    parse_points,
)
from bot.ratings.commands import autocomplete_game
from bot.tables.clock import now
from bot.tables.member_locale import member_lang
from bot.tables.opening import display
from bot.tables.permissions import granted, require_for_table

if TYPE_CHECKING:
    from bot.events.desk import TournamentDesk
    from bot.tables.desk import Desk
    from bot.tables.server_settings import ServerSettings


def create_command(
    tournaments: TournamentDesk,
    table_desk: Desk,
    settings: ServerSettings,
    rearm: Callable[[], Awaitable[None]],
) -> app_commands.Command[Any, ..., None]:
    """``/tournament create``: ``table_desk`` answers the interaction whatever happens, ``settings``
    are the server's (the channels for tables, the language), and ``rearm`` tells the scheduler
    that a sign-up deadline may have been set."""

    @command(
        "cmd.tournament.create",
        "Organizer: open sign-up for a tournament here",
        options_key="cmd.tournament.opt",
        game="The game",
        name="The tournament's name",
        format="Swiss, round robin in groups, or elimination",
        rounds="Rounds (Swiss: default 3; round robin: default as many as the groups need)",
        table_size="Players per table (default: the game's largest)",
        points="Points per finishing place, e.g. 3,1,0 (default depends on the table size)",
        clock="Time per move (default 1 day)",
        on_timeout="When a player runs out of time (default: a computer takes over after 3)",
        signup_hours="Close sign-up and start after this many hours (default: the organizer starts)",
        auto_next="Start the next round as soon as a round ends (default yes)",
        advance="Elimination: players per table who go through (default 1)",
        group_size="Round robin: players per group (default twice the table size)",
        teams="Team games: fixed pairs, or new partners each round",
        option1="A game option, as in the game's /new: pick the game first, then type to see its choices",
        option2="Another game option (from the chosen game's choices)",
        option3="A third game option (from the chosen game's choices)",
        pairing="Swiss: group by standings, or avoid repeat tablemates first (default depends on table size)",
        fill="Swiss: when players do not fill the tables, byes or computer players (default byes)",
        round_hours="Hours each round may last; then computers finish the open tables (default: no limit)",
        confirm_pairings="Show each round's seating before the tables open; the organizer may swap two players, then confirms",
        checkin_minutes="Check-in: minutes before signup_hours ends, or after the organizer starts; no-shows are removed",
        computer_level="How strong computers are when they fill seats or play for absent players (default hard)",
    )
    @app_commands.choices(clock=CLOCK_CHOICES)  # whole seconds; the others are text
    @app_commands.choices(
        format=FORMAT_CHOICES,
        on_timeout=POLICY_CHOICES,
        teams=TEAM_CHOICES,
        pairing=PAIRING_CHOICES,
        fill=FILL_CHOICES,
        computer_level=LEVEL_CHOICES,
    )
    @app_commands.autocomplete(game=autocomplete_game, **dict.fromkeys(OPTION_SLOTS, autocomplete_option))
    async def create(
        interaction: Interaction,
        game: str,
        name: app_commands.Range[str, 1, 80],
        format: str = "swiss",
        rounds: app_commands.Range[int, 1, 20] | None = None,
        table_size: app_commands.Range[int, 2, 6] | None = None,
        points: str | None = None,
        clock: int = 86400,
        on_timeout: str = "computer_seat",
        signup_hours: app_commands.Range[int, 1, 24 * 30] | None = None,
        auto_next: bool = True,
        advance: app_commands.Range[int, 1, 5] = 1,
        group_size: app_commands.Range[int, 2, 64] | None = None,
        teams: str | None = None,
        option1: str | None = None,
        option2: str | None = None,
        option3: str | None = None,
        pairing: str | None = None,
        fill: str = "byes",
        round_hours: app_commands.Range[int, 1, 24 * 14] | None = None,
        confirm_pairings: bool = False,
        checkin_minutes: app_commands.Range[int, 5, 24 * 60] | None = None,
        computer_level: str = "hard",
    ) -> None:
        async def work() -> None:
            tr = member_lang(interaction)
            if interaction.guild is None or not isinstance(interaction.channel, discord.TextChannel):
                raise UserError("tournament.error.text_channel")
            await tournaments.require_organizer(interaction)
            if game not in REGISTRY:
                raise UserError("tournament.error.bad_game")
            guild, channel = interaction.guild, interaction.channel
            chosen = await settings.of(guild.id)
            elsewhere = settings.elsewhere(channel, chosen)
            if elsewhere:
                raise UserError("error.not_a_table_channel", channels=tr.join(c.mention for c in elsewhere))
            # The event's tables open in this channel, each round: the bot must be able to do it.
            own_channel = REGISTRY[game].channel_mode == "channel"
            category = settings.category(guild, chosen, game).value if own_channel else None
            require_for_table(tr, guild.me, channel, own_channel, category)
            pinned = granted(guild.me, channel).pin_messages  # the live standings, pinned when it may
            language = settings.language(chosen, interaction.guild_locale)
            tournament = await tournaments.service.create(
                guild_id=interaction.guild.id,
                channel_id=interaction.channel.id,
                organizer_id=interaction.user.id,
                organizer_name=display(interaction.user),
                game=game,
                name=name,
                format=format,
                rounds=rounds,
                table_size=table_size,
                points=parse_points(points),
                clock=clock,
                on_timeout=on_timeout,
                signup_deadline=now() + signup_hours * 3600 if signup_hours else None,
                auto_next=auto_next,
                advance=advance,
                group_size=group_size,
                teams=teams,
                language=language,
                seed=tournaments.new_seed(),
                options=chosen_options(game, [option1, option2, option3]),
                pairing_mode=pairing,
                fill=fill,
                round_hours=round_hours,
                confirm_pairings=confirm_pairings,
                checkin_minutes=checkin_minutes,
                computer_level=computer_level,
            )
            await interaction.response.defer(ephemeral=True, thinking=True)
            await tournaments.post(tournament)
            await rearm()
            told = [tr("tournament.created", id=tournament.id)]
            if not pinned:
                told.append(tr("tournament.created_unpinned", permission=tr("permission.pin_messages")))
            await interaction.followup.send("\n".join(told), ephemeral=True)

        await table_desk.guarded(interaction, None, work())

    return create
