"""/tournament: organizers create and run events; anyone can read standings and the rules of play."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str
from discord.ext import commands

from bot.core.errors import UserError
from bot.core.games import REGISTRY
from bot.core.i18n import language_of
from bot.core.options import find
from bot.core.translator import command
from bot.events import render as view
from bot.events.standings import TIE_BREAKS
from bot.events.store import Tournament
from bot.ratings.commands import autocomplete_game
from bot.tables.clock import now
from bot.tables.desk import checked_options, display, member_lang
from bot.tables.speech import speech_mode

if TYPE_CHECKING:
    from bot.app import TabletopBot

FORMAT_CHOICES = [
    Choice(name=locale_str("Swiss", key="cmd.tournament.format.swiss"), value="swiss"),
    Choice(name=locale_str("Round robin", key="cmd.tournament.format.round_robin"), value="round_robin"),
    Choice(name=locale_str("Elimination", key="cmd.tournament.format.elimination"), value="elimination"),
]
POLICY_CHOICES = [
    Choice(
        name=locale_str("A computer plays that move", key="cmd.tournament.policy.computer_turn"),
        value="computer_turn",
    ),
    Choice(
        name=locale_str("A computer takes the seat after 3", key="cmd.tournament.policy.computer_seat"),
        value="computer_seat",
    ),
    Choice(
        name=locale_str("The table ends; the absent player ranks last", key="cmd.tournament.policy.end"),
        value="end",
    ),
]
TEAM_CHOICES = [
    Choice(name=locale_str("Fixed pairs", key="cmd.tournament.teams.fixed"), value="fixed"),
    Choice(name=locale_str("New partners each round", key="cmd.tournament.teams.redraw"), value="redraw"),
]
CLOCK_CHOICES = [
    Choice(name=locale_str("1 minute", key="cmd.clock.c60"), value=60),
    Choice(name=locale_str("5 minutes", key="cmd.clock.c300"), value=300),
    Choice(name=locale_str("15 minutes", key="cmd.clock.c900"), value=900),
    Choice(name=locale_str("1 hour", key="cmd.clock.c3600"), value=3600),
    Choice(name=locale_str("4 hours", key="cmd.clock.c14400"), value=14400),
    Choice(name=locale_str("12 hours", key="cmd.clock.c43200"), value=43200),
    Choice(name=locale_str("1 day", key="cmd.clock.c86400"), value=86400),
    Choice(name=locale_str("3 days", key="cmd.clock.c259200"), value=259200),
    Choice(name=locale_str("7 days", key="cmd.clock.c604800"), value=604800),
]
PAIRING_CHOICES = [
    Choice(name=locale_str("Group by standings", key="cmd.tournament.pairing.standings"), value="standings"),
    Choice(
        name=locale_str("Avoid repeat tablemates first", key="cmd.tournament.pairing.repeats"),
        value="repeats",
    ),
]
FILL_CHOICES = [
    Choice(name=locale_str("Byes", key="cmd.tournament.fill.byes"), value="byes"),
    Choice(name=locale_str("Computer players", key="cmd.tournament.fill.computers"), value="computers"),
]
LEVEL_CHOICES = [
    Choice(name=locale_str("Easy (random moves)", key="cmd.tournament.level.easy"), value="easy"),
    Choice(name=locale_str("Normal", key="cmd.tournament.level.normal"), value="normal"),
    Choice(name=locale_str("Hard", key="cmd.tournament.level.hard"), value="hard"),
]
EXPORT_CHOICES = [
    Choice(name=locale_str("CSV (spreadsheet)", key="cmd.tournament.kind.csv"), value="csv"),
    Choice(name=locale_str("JSON (everything)", key="cmd.tournament.kind.json"), value="json"),
    Choice(
        name=locale_str(
            "Challonge participants and matches (2 players)", key="cmd.tournament.kind.challonge"
        ),
        value="challonge",
    ),
]


def parse_points(text: str | None) -> list[float] | None:
    if not text:
        return None
    try:
        return [float(part) for part in text.replace(";", ",").replace(" ", ",").split(",") if part]
    except ValueError:
        raise UserError("tournament.error.bad_points_text", value=text[:50]) from None


#: The ``/tournament create`` fields for game options, each offering the chosen game's options.
OPTION_SLOTS = ("option1", "option2", "option3")
MAX_CHOICE = 100


async def autocomplete_option(
    interaction: discord.Interaction[TabletopBot], current: str
) -> list[Choice[str]]:
    """The chosen game's options not picked in another field, each value worded as the lobby shows
    it ("Length: short (…)"); the choice's value is ``name=value``."""
    ui = REGISTRY.get(str(getattr(interaction.namespace, "game", None) or ""))
    if ui is None:
        return []
    others = [str(getattr(interaction.namespace, slot, None) or "") for slot in OPTION_SLOTS]
    taken = {text.partition("=")[0] for text in others if text and text != current}
    pairs = ui.option_choices(current, taken, member_lang(interaction))
    # A value longer than a choice may carry cannot be offered.
    return [Choice(name=words[:MAX_CHOICE], value=v) for words, v in pairs if len(v) <= MAX_CHOICE][:25]


def chosen_options(game: str, picked: list[str | None]) -> dict[str, Any]:
    """The options picked in the option fields (``name=value``, as the suggestions send them),
    checked against the game's declaration."""
    declared = REGISTRY[game].engine.declared_options
    options: dict[str, Any] = {}
    for text in filter(None, picked):
        name, sep, token = text.partition("=")
        option = find(declared, name.strip())
        if not sep or option is None or option.name in options:
            raise UserError("tournament.error.bad_options", option=text[:40])
        options[option.name] = option.read(token)
    return checked_options(game, options)


async def autocomplete_event(interaction: discord.Interaction[TabletopBot], current: str) -> list[Choice[int]]:
    """This server's tournaments whose number or name contains what was typed."""
    if interaction.guild is None:
        return []
    store = interaction.client.tournaments.service.store
    found = await store.in_guild(interaction.guild.id, ("signup", "running", "finished"))
    return [
        Choice(name=f"#{t.id} {t.name}"[:100], value=t.id)
        for t in found
        if current.lower() in f"#{t.id} {t.name}".lower()
    ][:25]


def names_an_event(func):
    """The optional ``tournament`` parameter every organizer and standings command shares."""
    func = app_commands.autocomplete(tournament=autocomplete_event)(func)
    description = locale_str(
        "Which tournament (default: the newest here)", key="cmd.tournament.opt.tournament.description"
    )
    func = app_commands.describe(tournament=description)(func)
    return app_commands.rename(tournament=locale_str("tournament", key="cmd.tournament.opt.tournament.name"))(
        func
    )


class TournamentCommands(
    commands.GroupCog,
    group_name=locale_str("tournament", key="cmd.tournament.name"),
    group_description=locale_str("Run and follow tournaments", key="cmd.tournament.description"),
):
    def __init__(self, bot: TabletopBot) -> None:
        self.bot = bot

    @property
    def desk(self):
        return self.bot.tournaments

    async def pick(
        self, interaction: discord.Interaction[TabletopBot], number: int | None, open_only: bool = True
    ) -> Tournament:
        """The event named by id, or the newest one of this server (this channel's first)."""
        if interaction.guild is None:
            raise UserError("error.guild_text_only")
        if number is not None:
            tournament = await self.desk.service.get(number)
            if tournament.guild_id != interaction.guild.id:
                raise UserError("tournament.error.none")
            return tournament
        statuses = ("signup", "running") if open_only else ("signup", "running", "finished")
        found = await self.desk.service.store.in_guild(interaction.guild.id, statuses)
        here = [t for t in found if t.channel_id == interaction.channel_id]
        if not (here or found):
            raise UserError("tournament.error.none")
        return (here or found)[0]

    async def run(self, interaction: discord.Interaction[TabletopBot], work) -> None:
        await self.bot.desk.guarded(interaction, None, work)

    # ---- organizers ---------------------------------------------------------------------------
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
        confirm_pairings="Show each round's seating first; the organizer may swap players, then confirms",
        checkin_minutes="With signup_hours: check-in opens this long before the start; no-shows are removed",
        computer_level="How strong computers are when they fill seats or play for absent players (default hard)",
    )
    @app_commands.choices(
        format=FORMAT_CHOICES,
        clock=CLOCK_CHOICES,
        on_timeout=POLICY_CHOICES,
        teams=TEAM_CHOICES,
        pairing=PAIRING_CHOICES,
        fill=FILL_CHOICES,
        computer_level=LEVEL_CHOICES,
    )
    @app_commands.autocomplete(game=autocomplete_game, **dict.fromkeys(OPTION_SLOTS, autocomplete_option))
    async def create(
        self,
        interaction: discord.Interaction[TabletopBot],
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
        async def work():
            tr = member_lang(interaction)
            if interaction.guild is None or not isinstance(interaction.channel, discord.TextChannel):
                raise UserError("tournament.error.text_channel")
            self.desk.require_organizer(interaction)
            if game not in REGISTRY:
                raise UserError("tournament.error.bad_game")
            if (
                REGISTRY[game].channel_mode == "channel"
                and speech_mode(interaction.guild.me.guild_permissions) is None
            ):
                # Such games get a channel per table, opened by the bot for every round.
                self.bot.desk.require(
                    tr, interaction.guild.me.guild_permissions, ("manage_channels", "manage_roles")
                )
            perms = interaction.channel.permissions_for(interaction.guild.me)
            self.bot.desk.require(
                tr,
                perms,
                (
                    "view_channel",
                    "send_messages",
                    "embed_links",
                    "attach_files",
                    "create_public_threads",
                    "send_messages_in_threads",
                ),
            )
            language = language_of(interaction.guild_locale or self.bot.config.default_language)
            tournament = await self.desk.service.create(
                guild_id=interaction.guild.id,
                channel_id=interaction.channel.id,
                organizer_id=interaction.user.id,
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
                seed=self.desk.new_seed(),
                options=chosen_options(game, [option1, option2, option3]),
                pairing_mode=pairing,
                fill=fill,
                round_hours=round_hours,
                confirm_pairings=confirm_pairings,
                checkin_minutes=checkin_minutes,
                computer_level=computer_level,
            )
            await interaction.response.defer(ephemeral=True, thinking=True)
            await self.desk.post(tournament)
            await self.bot.scheduler.rearm()
            await interaction.followup.send(tr("tournament.created", id=tournament.id), ephemeral=True)

        await self.run(interaction, work())

    @command(
        "cmd.tournament.start",
        "Organizer: close sign-up and seat round 1",
    )
    @names_an_event
    async def start(self, interaction: discord.Interaction[TabletopBot], tournament: int | None = None) -> None:
        async def work():
            event = await self.pick(interaction, tournament)
            self.desk.require_organizer(interaction, event)
            await interaction.response.defer(ephemeral=True, thinking=True)
            await self.desk.start(event.id)
            await self.desk.refresh(event.id)
            await interaction.followup.send(member_lang(interaction)("tournament.done.start"), ephemeral=True)

        await self.run(interaction, work())

    @command(
        "cmd.tournament.next",
        "Organizer: seat the next round",
    )
    @names_an_event
    async def next(self, interaction: discord.Interaction[TabletopBot], tournament: int | None = None) -> None:
        async def work():
            event = await self.pick(interaction, tournament)
            self.desk.require_organizer(interaction, event)
            await interaction.response.defer(ephemeral=True, thinking=True)
            await self.desk.next_round(event.id)
            await interaction.followup.send(member_lang(interaction)("tournament.done.next"), ephemeral=True)

        await self.run(interaction, work())

    @command(
        "cmd.tournament.add",
        "Organizer: sign a member up",
        options_key="cmd.tournament.opt",
        member="The member",
    )
    @names_an_event
    async def add(
        self, interaction: discord.Interaction[TabletopBot], member: discord.Member, tournament: int | None = None
    ) -> None:
        async def work():
            event = await self.pick(interaction, tournament)
            self.desk.require_organizer(interaction, event)
            if member.bot:
                raise UserError("tournament.error.bot_member")
            await self.desk.service.sign_up(event.id, (member.id, display(member)), late=True)
            await self.bot.desk.reply(
                interaction, member_lang(interaction)("tournament.done.add", player=member.mention)
            )
            await self.desk.refresh(event.id)

        await self.run(interaction, work())

    @command(
        "cmd.tournament.remove",
        "Organizer: take a player out (results so far are kept)",
        options_key="cmd.tournament.opt",
        member="The member",
    )
    @names_an_event
    async def remove(
        self, interaction: discord.Interaction[TabletopBot], member: discord.User, tournament: int | None = None
    ) -> None:
        async def work():
            event = await self.pick(interaction, tournament)
            self.desk.require_organizer(interaction, event)
            _event, changed = await self.desk.service.drop(event.id, member.id)
            await self.bot.desk.reply(
                interaction, member_lang(interaction)("tournament.done.remove", player=member.mention)
            )
            for table_id in changed:
                await self.bot.delivery.refresh(table_id)
            await self.desk.refresh(event.id)

        await self.run(interaction, work())

    @command(
        "cmd.tournament.replace",
        "Organizer: a new member takes over a player's entry and seats",
        options_key="cmd.tournament.opt",
        member=("The player leaving", "cmd.tournament.opt.leaving"),
        new_member="Who takes over",
    )
    @names_an_event
    async def replace(
        self,
        interaction: discord.Interaction[TabletopBot],
        member: discord.User,
        new_member: discord.Member,
        tournament: int | None = None,
    ) -> None:
        async def work():
            event = await self.pick(interaction, tournament)
            self.desk.require_organizer(interaction, event)
            if new_member.bot:
                raise UserError("tournament.error.bot_member")
            _event, changed = await self.desk.service.replace(
                event.id, member.id, (new_member.id, display(new_member))
            )
            text = member_lang(interaction)(
                "tournament.done.replace", old=member.mention, new=new_member.mention
            )
            await self.bot.desk.reply(interaction, text)
            for table_id in changed:
                await self.bot.delivery.refresh(table_id)
            await self.desk.refresh(event.id)

        await self.run(interaction, work())

    @command(
        "cmd.tournament.swap",
        "Organizer: two players trade places in a round's seating before it is confirmed",
        options_key="cmd.tournament.opt",
        member="The member",
        other="The other member",
    )
    @names_an_event
    async def swap(
        self,
        interaction: discord.Interaction,
        member: discord.User,
        other: discord.User,
        tournament: int | None = None,
    ) -> None:
        async def work():
            event = await self.pick(interaction, tournament)
            self.desk.require_organizer(interaction, event)
            await self.desk.service.swap(event.id, member.id, other.id)
            text = member_lang(interaction)("tournament.done.swap", a=member.mention, b=other.mention)
            await self.bot.desk.reply(interaction, text)
            await self.desk.refresh(event.id)

        await self.run(interaction, work())

    @command(
        "cmd.tournament.cancel",
        "Organizer: cancel the tournament (open tables play on, unrated by it)",
    )
    @names_an_event
    async def cancel(self, interaction: discord.Interaction[TabletopBot], tournament: int | None = None) -> None:
        async def work():
            event = await self.pick(interaction, tournament)
            self.desk.require_organizer(interaction, event)
            await self.desk.service.cancel(event.id)
            await self.bot.desk.reply(interaction, member_lang(interaction)("tournament.done.cancel"))
            await self.desk.refresh(event.id)

        await self.run(interaction, work())

    # ---- everyone -----------------------------------------------------------------------------
    @command(
        "cmd.tournament.standings",
        "Current standings, with the tie-breaks",
    )
    @names_an_event
    async def standings(self, interaction: discord.Interaction[TabletopBot], tournament: int | None = None) -> None:
        async def work():
            event = await self.pick(interaction, tournament, open_only=False)
            rows = await self.desk.service.standings(event)
            teams = await self.desk.service.team_standings(event)
            results = await self.desk.service.store.results(event.id)
            rendered = view.standings_message(
                event, rows, results, member_lang(interaction), event.status == "finished", event.round, teams
            )
            await interaction.response.send_message(ephemeral=True, **rendered.send_kwargs())

        await self.run(interaction, work())

    @command(
        "cmd.tournament.export",
        "Download the whole event as CSV or JSON",
        options_key="cmd.tournament.opt",
        kind="File format",
    )
    @app_commands.choices(kind=EXPORT_CHOICES)
    @names_an_event
    async def export(
        self, interaction: discord.Interaction[TabletopBot], kind: str = "csv", tournament: int | None = None
    ) -> None:
        async def work():
            event = await self.pick(interaction, tournament, open_only=False)
            files = await self.desk.export(event, kind)
            await interaction.response.send_message(files=files, ephemeral=True)

        await self.run(interaction, work())

    @command(
        "cmd.tournament.help",
        "How tournaments are seated and ranked",
    )
    async def help(self, interaction: discord.Interaction[TabletopBot]) -> None:
        tr = member_lang(interaction)
        embed = discord.Embed(title=tr("tournament.help.title"), colour=view.COLOUR)
        for section in ("formats", "seating", "points", "options", "tie_breaks", "drops", "timeouts", "ratings"):
            embed.add_field(
                name=tr(f"tournament.help.{section}.title"),
                value=tr(
                    f"tournament.help.{section}.text",
                    order=" › ".join(tr(f"tournament.tie_break.{k}") for k in TIE_BREAKS),
                ),
                inline=False,
            )
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot) -> None:
    await bot.add_cog(TournamentCommands(bot))
