"""/tournament: organizers create and run events; anyone can read standings and the rules of play."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.core.errors import UserError
from bot.core.interaction import Interaction
from bot.core.translator import command
from bot.events import render as view
from bot.events.command_options import EXPORT_CHOICES, names_an_event
from bot.events.create_command import create_command
from bot.events.standings import TIE_BREAKS
from bot.storage.events import Tournament
from bot.tables.in_time import send_private
from bot.tables.member_locale import member_lang
from bot.tables.opening import display

if TYPE_CHECKING:
    from bot.events.desk import TournamentDesk
    from bot.tables.delivery import Delivery
    from bot.tables.desk import Desk
    from bot.tables.server_settings import ServerSettings


class TournamentCommands(
    commands.GroupCog,
    group_name=locale_str("tournament", key="cmd.tournament.name"),
    group_description=locale_str("Run and follow tournaments", key="cmd.tournament.description"),
):
    def __init__(
        self,
        tournaments: TournamentDesk,
        table_desk: Desk,
        delivery: Delivery,
        settings: ServerSettings,
        rearm: Callable[[], Awaitable[None]],
    ) -> None:
        self.desk = tournaments
        self.table_desk = table_desk  # answers every interaction, whatever happens
        self.delivery = delivery
        # /tournament create: declared and done in its own module, with what it uses (the server's
        # settings; ``rearm``, as a new event may have set a sign-up deadline).
        group = self.app_command
        assert group is not None  # a GroupCog's commands are its group's
        group.add_command(create_command(tournaments, table_desk, settings, rearm))

    async def event_choices(self, interaction: Interaction, current: str) -> list[app_commands.Choice[int]]:
        """This server's tournaments whose number or name contains what was typed."""
        if interaction.guild is None:
            return []
        found = await self.desk.service.store.in_guild(interaction.guild.id, ("signup", "running", "finished"))
        return [
            app_commands.Choice(name=f"#{t.id} {t.name}"[:100], value=t.id)
            for t in found
            if current.lower() in f"#{t.id} {t.name}".lower()
        ][:25]

    async def pick(
        self, interaction: Interaction, number: int | None, open_only: bool = True
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

    async def run(self, interaction: Interaction, work: Awaitable[None]) -> None:
        await self.table_desk.guarded(interaction, None, work)

    # ---- organizers ---------------------------------------------------------------------------
    @command(
        "cmd.tournament.start",
        "Organizer: close sign-up and seat round 1",
    )
    @names_an_event(event_choices)
    async def start(self, interaction: Interaction, tournament: int | None = None) -> None:
        async def work() -> None:
            event = await self.pick(interaction, tournament)
            await self.desk.require_organizer(interaction, event)
            await interaction.response.defer(ephemeral=True, thinking=True)
            tr = member_lang(interaction)
            started = await self.desk.start(event.id, tr)
            await self.desk.refresh(event.id)
            if started:
                await self.desk.answer_seated(interaction, event.id, tr("tournament.done.start"))
            else:
                await self.desk.answer_checkin(interaction, event.id, tr)

        await self.run(interaction, work())

    @command(
        "cmd.tournament.next",
        "Organizer: seat the next round",
    )
    @names_an_event(event_choices)
    async def next(self, interaction: Interaction, tournament: int | None = None) -> None:
        async def work() -> None:
            event = await self.pick(interaction, tournament)
            await self.desk.require_organizer(interaction, event)
            await interaction.response.defer(ephemeral=True, thinking=True)
            await self.desk.next_round(event.id, member_lang(interaction))
            await self.desk.answer_seated(interaction, event.id, member_lang(interaction)("tournament.done.next"))

        await self.run(interaction, work())

    @command(
        "cmd.tournament.add",
        "Organizer: sign a member up",
        options_key="cmd.tournament.opt",
        member="The member",
    )
    @names_an_event(event_choices)
    async def add(
        self, interaction: Interaction, member: discord.Member, tournament: int | None = None
    ) -> None:
        async def work() -> None:
            event = await self.pick(interaction, tournament)
            await self.desk.require_organizer(interaction, event)
            if member.bot:
                raise UserError("tournament.error.bot_member")
            await self.desk.service.entrants.sign_up(event.id, (member.id, display(member)), late=True)
            await self.table_desk.reply(
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
    @names_an_event(event_choices)
    async def remove(
        self, interaction: Interaction, member: discord.User, tournament: int | None = None
    ) -> None:
        async def work() -> None:
            event = await self.pick(interaction, tournament)
            await self.desk.require_organizer(interaction, event)
            _event, changed = await self.desk.service.entrants.drop(event.id, member.id)
            await self.table_desk.reply(
                interaction, member_lang(interaction)("tournament.done.remove", player=member.mention)
            )
            for table_id in changed:
                await self.delivery.refresh(table_id)
            await self.desk.refresh(event.id)

        await self.run(interaction, work())

    @command(
        "cmd.tournament.replace",
        "Organizer: a new member takes over a player's entry and seats",
        options_key="cmd.tournament.opt",
        member=("The player leaving", "cmd.tournament.opt.leaving"),
        new_member="Who takes over",
    )
    @names_an_event(event_choices)
    async def replace(
        self,
        interaction: Interaction,
        member: discord.User,
        new_member: discord.Member,
        tournament: int | None = None,
    ) -> None:
        async def work() -> None:
            event = await self.pick(interaction, tournament)
            await self.desk.require_organizer(interaction, event)
            if new_member.bot:
                raise UserError("tournament.error.bot_member")
            _event, changed = await self.desk.service.entrants.replace(
                event.id, member.id, (new_member.id, display(new_member))
            )
            text = member_lang(interaction)(
                "tournament.done.replace", old=member.mention, new=new_member.mention
            )
            await self.table_desk.reply(interaction, text)
            for table_id in changed:
                await self.delivery.refresh(table_id)
            await self.desk.refresh(event.id)

        await self.run(interaction, work())

    @command(
        "cmd.tournament.swap",
        "Organizer: two players trade places in a round's seating before it is confirmed",
        options_key="cmd.tournament.opt",
        member="The member",
        other="The other member",
    )
    @names_an_event(event_choices)
    async def swap(
        self,
        interaction: discord.Interaction,
        member: discord.User,
        other: discord.User,
        tournament: int | None = None,
    ) -> None:
        async def work() -> None:
            event = await self.pick(interaction, tournament)
            await self.desk.require_organizer(interaction, event)
            await self.desk.service.controls.swap(event.id, member.id, other.id, interaction.user.id)
            tr = member_lang(interaction)
            # The seating as it now stands, for the organizer alone, with its buttons.
            shown = (await self.desk.pairings(event.id, tr)).send_kwargs()
            shown["content"] = tr("tournament.done.swap", a=member.mention, b=other.mention)
            await send_private(interaction, **shown)
            await self.desk.refresh(event.id)

        await self.run(interaction, work())

    @command(
        "cmd.tournament.correct",
        "Organizer: correct a finished table's result (the places, with a reason)",
        options_key="cmd.tournament.opt",
        round="The round",
        table="The table's number in that round",
        places="Each seat's place in seat order, e.g. 2,1,3 (teams: each team's)",
        reason="Why (kept in the event's log and exports)",
    )
    @names_an_event(event_choices)
    async def correct(
        self,
        interaction: Interaction,
        round: app_commands.Range[int, 1, 99],
        table: app_commands.Range[int, 1, 99],
        places: str,
        reason: str,
        tournament: int | None = None,
    ) -> None:
        async def work() -> None:
            event = await self.pick(interaction, tournament, open_only=False)
            await self.desk.require_organizer(interaction, event)
            try:
                given = [int(p) for p in places.replace(" ", "").split(",") if p]
            except ValueError:
                raise UserError("tournament.error.correct_places", count=len(places.split(","))) from None
            done = await self.desk.service.corrections.correct(
                event.id, round, table, given, reason, interaction.user.id
            )
            tr = member_lang(interaction)
            text = tr("tournament.done.correct", round=round, n=table, places=view.correction_text(done, tr))
            text += "\n" + tr("tournament.done.correct_rated" if done.rated else "tournament.done.correct_unrated")
            await self.table_desk.reply(interaction, text)
            await self.desk.corrected(done, round, table, reason)

        await self.run(interaction, work())

    @command(
        "cmd.tournament.cancel",
        "Organizer: cancel the tournament (open tables play on, unrated by it)",
    )
    @names_an_event(event_choices)
    async def cancel(self, interaction: Interaction, tournament: int | None = None) -> None:
        async def work() -> None:
            event = await self.pick(interaction, tournament)
            await self.desk.require_organizer(interaction, event)
            await self.desk.service.cancel(event.id)
            await self.table_desk.reply(interaction, member_lang(interaction)("tournament.done.cancel"))
            await self.desk.refresh(event.id)

        await self.run(interaction, work())

    # ---- everyone -----------------------------------------------------------------------------
    @command(
        "cmd.tournament.standings",
        "Current standings, with the tie-breaks",
    )
    @names_an_event(event_choices)
    async def standings(self, interaction: Interaction, tournament: int | None = None) -> None:
        async def work() -> None:
            event = await self.pick(interaction, tournament, open_only=False)
            # Every player is findable: the first page, the asker's own place, buttons to the
            # other pages and the event's web page.
            tr = member_lang(interaction)
            rendered = await self.desk.pages.render(event, tr, you=interaction.user.id)
            # The organizer's corrections of finished tables, with their reasons, under the standings.
            corrected = view.correction_lines(event, await self.desk.service.store.log(event.id), tr)
            if corrected:
                rendered.content = "\n".join(filter(None, [rendered.content, *corrected]))[:2000]
            await interaction.response.send_message(ephemeral=True, **rendered.send_kwargs())

        await self.run(interaction, work())

    @command(
        "cmd.tournament.export",
        "Download the whole event as CSV or JSON",
        options_key="cmd.tournament.opt",
        kind="File format",
    )
    @app_commands.choices(kind=EXPORT_CHOICES)
    @names_an_event(event_choices)
    async def export(
        self, interaction: Interaction, kind: str = "csv", tournament: int | None = None
    ) -> None:
        async def work() -> None:
            event = await self.pick(interaction, tournament, open_only=False)
            files = await self.desk.export(event, kind)
            await interaction.response.send_message(files=files, ephemeral=True)

        await self.run(interaction, work())

    @command(
        "cmd.tournament.help",
        "How tournaments are seated and ranked",
    )
    async def help(self, interaction: Interaction) -> None:
        tr = member_lang(interaction)
        embed = discord.Embed(title=tr("tournament.help.title"), colour=view.COLOUR)
        sections = ("formats", "seating", "points", "options", "tie_breaks", "drops", "entries", "corrections")
        for section in (*sections, "checkin", "timeouts", "ratings"):
            embed.add_field(
                name=tr(f"tournament.help.{section}.title"),
                value=tr(
                    f"tournament.help.{section}.text",
                    order=" › ".join(tr(f"tournament.tie_break.{k}") for k in TIE_BREAKS),
                ),
                inline=False,
            )
        await interaction.response.send_message(embed=embed, ephemeral=True)

