"""Tournaments in Discord: the event message, opening each round's tables, standings posts.

Whatever happens here can happen again after a restart: tables are opened from the stored
seating, a round's standings are posted once (``round_done``), and sign-up deadlines are stored.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord

from bot.core.errors import UserError
from bot.core.i18n import Lang
from bot.core.interaction import Interaction
from bot.core.mentions import pinging
from bot.events import export
from bot.events import render as view
from bot.events.correction import Correction
from bot.events.entrants import takes_late_entries
from bot.events.links import EventPage, linked, no_page
from bot.events.render_preview import pairings_message
from bot.events.round_checks import RoundChecks
from bot.events.seating import awaiting_confirmation
from bot.events.standings_pages import StandingsPages
from bot.storage.events import Tournament
from bot.storage.locks import EVENT_DESK, EVENT_LIVE, TIMERS, KeyedLocks
from bot.storage.store import TableRow
from bot.tables.budget import paced_calls
from bot.tables.clock import now as clock_now
from bot.tables.delivery import fingerprint
from bot.tables.in_time import send_private
from bot.tables.member_locale import member_lang
from bot.tables.notices import jump_url
from bot.tables.opening import display
from bot.tables.permissions import MissingPermissions
from bot.tables.render import Rendered, timestamp

if TYPE_CHECKING:
    from bot.events.service import TournamentService
    from bot.storage.store import Store
    from bot.tables.delivery import Delivery
    from bot.tables.desk import Desk
    from bot.tables.opening import Opening
    from bot.tables.seat_ops import SeatOps
    from bot.tables.server_settings import ServerSettings
    from bot.tables.service import TableService

log = logging.getLogger(__name__)

#: The channels that hold messages: what ``Delivery.messageable`` finds for an event's channel id.
MESSAGE_CHANNELS = (
    discord.TextChannel,
    discord.VoiceChannel,
    discord.StageChannel,
    discord.Thread,
    discord.DMChannel,
    discord.PartialMessageable,
)


async def no_rearm() -> None:
    """No timers to re-arm (a desk built without the scheduler, as some tests do)."""


def message_in(channel: discord.abc.Messageable, message_id: int) -> discord.PartialMessage:
    if not isinstance(channel, MESSAGE_CHANNELS):
        raise TypeError(f"{channel!r} holds no messages")
    return channel.get_partial_message(message_id)


class TournamentDesk:
    def __init__(
        self,
        client: discord.Client,
        settings: ServerSettings,
        store: Store,
        service: TournamentService,
        tables: TableService,
        seat_ops: SeatOps,
        delivery: Delivery,
        desk: Desk,
        opening: Opening,
        event_page: EventPage | None = None,
    ) -> None:
        self.client = client
        #: The event's web page, which its messages link to (``bot/web`` with a public address).
        self.event_page: EventPage = event_page or no_page
        self.settings = settings  # each server's organizer role, and where its tables' channels go
        self.store = store
        self.service = service
        self.tables = tables
        self.seat_ops = seat_ops  # a computer takes the seats of players gone when a round runs out
        self.delivery = delivery
        self.desk = desk  # answers interactions
        self.opening = opening  # places each round's tables
        self.checks = RoundChecks(client, opening, delivery, desk)  # the permissions a round needs first
        # Taken before the service's own lock of the same event, never after it.
        self.locks = KeyedLocks(store.db, EVENT_DESK)
        # Tables finish concurrently (delivery and computer workers): one live message per event.
        self.live_locks = KeyedLocks(store.db, EVENT_LIVE)
        self.shown: dict[int, str] = {}  # what each event message shows, so it is not edited unchanged
        self.pages = StandingsPages(service, desk, self.event_page)  # standings past one page
        #: Re-arms the timers after a deadline is set here (the composition root gives the scheduler's).
        self.rearm: Callable[[], Awaitable[None]] = no_rearm

    # ---- who may organize ---------------------------------------------------------------------
    async def is_organizer(self, interaction: Interaction, tournament: Tournament | None = None) -> bool:
        """The event's organizer, a member with Manage Server, or one with the server's organizer
        role (``/settings``; config's ``organizer_role`` when the server chose none)."""
        user = interaction.user
        if tournament is not None and user.id == tournament.organizer_id:
            return True
        perms = getattr(user, "guild_permissions", None)
        if perms is not None and perms.manage_guild:
            return True
        guild = interaction.guild
        if guild is None or not isinstance(user, discord.Member):
            return False
        role = self.settings.organizer_role(guild, await self.settings.of(guild.id)).value
        return role is not None and any(r.id == role.id for r in user.roles)

    async def require_organizer(
        self, interaction: Interaction, tournament: Tournament | None = None
    ) -> None:
        if not await self.is_organizer(interaction, tournament):
            raise UserError("tournament.error.organizer_only")

    # ---- the event message --------------------------------------------------------------------
    async def refresh(self, tournament_id: int) -> None:
        tournament = await self.service.get(tournament_id)
        if tournament.message_id is None:
            return
        rows = (
            await self.service.store.round_tables(tournament.id, tournament.round) if tournament.round else []
        )
        urls, done = {}, await self.service.store.recorded_tables(tournament.id)
        for row in rows:
            if row.table_id:
                table = await self.store.get_table(row.table_id)
                if table is not None and table.message_id:
                    urls[row.table_id] = jump_url(table)
        can_advance = (
            tournament.status == "running"
            and tournament.round_done >= tournament.round
            and not tournament.auto_next
        )
        pending = awaiting_confirmation(tournament)
        winner: list[str] = []
        if tournament.status == "finished":
            teams = await self.service.ranking.team_standings(tournament)
            ranked = teams if teams is not None else await self.service.ranking.standings(tournament)
            winner = view.winners(tournament, ranked, teams is not None)
        rendered = await linked(self.event_page, tournament, view.event_message(
            tournament, rows, urls, done, Lang(tournament.language), can_advance, winner, pending
        ))
        key = fingerprint(rendered)
        if self.shown.get(tournament.id) == key:
            return
        channel = self.delivery.messageable(tournament.channel_id)
        try:
            with paced_calls():  # under load, hands and pings go first
                await message_in(channel, tournament.message_id).edit(**rendered.edit_kwargs())
        except discord.NotFound:
            log.warning("tournament %s: its message is gone", tournament.id)
            return
        self.shown[tournament.id] = key

    async def post(self, tournament: Tournament) -> None:
        rendered = await linked(
            self.event_page, tournament, view.event_message(tournament, [], {}, set(), Lang(tournament.language), False)
        )
        channel = self.delivery.messageable(tournament.channel_id)
        message = await channel.send(**rendered.send_kwargs())
        await self.service.store.update(tournament.id, message_id=message.id)

    # ---- buttons ------------------------------------------------------------------------------
    async def on_button(self, interaction: Interaction, verb: str, tournament_id: int) -> None:
        await self.desk.guarded(interaction, None, self._button(interaction, verb, tournament_id))

    async def on_refused(self, interaction: Interaction, why: str) -> None:
        await self.desk.on_refused(interaction, why)

    async def _button(self, interaction: Interaction, verb: str, tournament_id: int) -> None:
        tr = member_lang(interaction)
        user = interaction.user
        if (await self.service.get(tournament_id)).guild_id != interaction.guild_id:
            # A forged id from another server or a DM (the event message lives in its server),
            # refused as the slash commands refuse it: a member's rights elsewhere count nothing here.
            raise UserError("tournament.error.none")
        if verb == "join":
            # A running event takes a latecomer only while a round is still to seat (a stale
            # button pressed during the last round is refused as a closed sign-up).
            late = takes_late_entries(await self.service.get(tournament_id))
            await self.service.entrants.sign_up(tournament_id, (user.id, display(user)), late=late)
            await self.desk.reply(interaction, tr("tournament.done.join_late" if late else "tournament.done.join"))
        elif verb == "checkin":
            await self.service.controls.check_in(tournament_id, user.id)
            await self.desk.reply(interaction, tr("tournament.done.checkin"))
        elif verb == "drop":
            _tournament, changed = await self.service.entrants.drop(tournament_id, user.id)
            await self.desk.reply(interaction, tr("tournament.done.drop"))
            for table_id in changed:
                await self.delivery.refresh(table_id)
        elif verb == "start":
            await self.require_organizer(interaction, await self.service.get(tournament_id))
            await interaction.response.defer(ephemeral=True, thinking=True)
            if await self.start(tournament_id, tr):
                await self.answer_seated(interaction, tournament_id, tr("tournament.done.start"))
            else:
                await self.answer_checkin(interaction, tournament_id, tr)
        elif verb == "next":
            await self.require_organizer(interaction, await self.service.get(tournament_id))
            await interaction.response.defer(ephemeral=True, thinking=True)
            await self.next_round(tournament_id, tr)
            await self.answer_seated(interaction, tournament_id, tr("tournament.done.next"))
        elif verb == "pairings":
            await self.require_organizer(interaction, await self.service.get(tournament_id))
            await send_private(interaction, **(await self.pairings(tournament_id, tr)).send_kwargs())
        elif verb in ("confirm", "repair"):
            tournament = await self.service.get(tournament_id)
            await self.require_organizer(interaction, tournament)
            await self.checks.require(tournament, tr)
            await interaction.response.defer(ephemeral=True, thinking=True)
            if verb == "confirm":
                await self.service.controls.confirm(tournament_id)
            else:
                await self.service.controls.repair(tournament_id)
            await self.open_round(tournament_id)
            await self.answer_seated(interaction, tournament_id, tr(f"tournament.done.{verb}"))
        await self.refresh(tournament_id)

    # ---- the organizer's look at a seating ----------------------------------------------------
    async def pairings(self, tournament_id: int, tr: Lang) -> Rendered:
        """The round's seating as the organizer reviews it, in their language."""
        return pairings_message(await self.service.controls.pairings(tournament_id), tr)

    async def answer_checkin(self, interaction: Interaction, tournament_id: int, tr: Lang) -> None:
        """The organizer's start opened check-in: when the event now starts."""
        tournament = await self.service.get(tournament_id)
        when = timestamp(tournament.signup_deadline or 0)
        await send_private(interaction, content=tr("tournament.done.checkin_called", when=when))

    async def answer_seated(self, interaction: Interaction, tournament_id: int, done: str) -> None:
        """Answer the organizer who seated a round: with the seating to review when it waits for
        their confirmation (they alone see it), else that it is done."""
        if awaiting_confirmation(await self.service.get(tournament_id)):
            shown = await self.pairings(tournament_id, member_lang(interaction))
            await send_private(interaction, **shown.send_kwargs())
        else:
            await send_private(interaction, content=done)

    async def tell_pending(self, tournament_id: int) -> None:
        """A round seated without the organizer (a sign-up deadline, the next round of an event
        that advances by itself) waits for them: say so by DM, with the way to the seating."""
        tournament = await self.service.get(tournament_id)
        if not awaiting_confirmation(tournament) or tournament.message_id is None:
            return
        tr = await self.desk.lang_of(tournament.organizer_id, tournament.language)
        link = f"https://discord.com/channels/{tournament.guild_id}/{tournament.channel_id}/{tournament.message_id}"
        text = tr("tournament.pairings_waiting", n=tournament.round, name=tournament.name, link=link)
        try:
            await (await self.delivery.dm_channel(tournament.organizer_id)).send(text)
        except discord.HTTPException:
            log.info("tournament %s: could not tell the organizer by DM", tournament.id)

    # ---- rounds -------------------------------------------------------------------------------
    async def start(self, tournament_id: int, tr: Lang | None = None) -> bool:
        """Close sign-up and open round 1; refused first (``MissingPermissions``, in ``tr``'s
        language) when the bot could not open its tables. An event with check-in and no sign-up
        deadline opens check-in instead, and starts when it closes: False then."""
        tournament = await self.service.get(tournament_id)
        await self.checks.require(tournament, tr)
        minutes = tournament.checkin_minutes or 0
        called = await self.service.controls.call_checkin(tournament_id, clock_now() + minutes * 60)
        if called is not None:
            await self.open_checkin(called)
            await self.rearm()  # the start at the new deadline
            return False
        await self.service.start(tournament_id)
        await self.open_round(tournament_id)
        return True

    async def next_round(self, tournament_id: int, tr: Lang | None = None) -> None:
        """Seat and open the next round; or, when the current round is seated but its tables could
        not open (the bot lacked a permission then), open them now."""
        tournament = await self.service.get(tournament_id)
        await self.checks.require(tournament, tr)
        if await self.unopened(tournament):
            await self.open_round(tournament_id)
            return
        await self.service.next_round(tournament_id)
        await self.open_round(tournament_id)

    async def unopened(self, tournament: Tournament) -> bool:
        """The current round is seated, and some of its tables are not shown yet."""
        if tournament.status != "running" or not tournament.round or awaiting_confirmation(tournament):
            return False
        for row in await self.service.store.round_tables(tournament.id, tournament.round):
            if not row.number:
                continue
            if row.table_id is None or (await self.tables.table(row.table_id)).message_id is None:
                return True
        return False

    async def open_round(self, tournament_id: int) -> None:
        """Open, seat and show every table of the current round, then announce it with pings; when
        the organizer confirms seatings, first show the seating and wait for the confirmation."""
        tournament = await self.service.get(tournament_id)
        if awaiting_confirmation(tournament):
            await self.refresh(tournament_id)
            return
        guild = self.client.get_guild(tournament.guild_id)
        channel = guild.get_channel(tournament.channel_id) if guild else None
        if guild is None or not isinstance(channel, discord.TextChannel):  # events are made in one
            log.warning("tournament %s: its channel is gone", tournament.id)
            return
        missing = await self.checks.missing(tournament)
        if missing:  # seated, not opened: /tournament next opens it once the permissions are back
            await self.checks.tell_organizer(tournament, missing, "tournament.cannot_open_round")
            return
        fresh = False
        for table_id in await self.service.seating.open_tables(tournament):
            table = await self.tables.table(table_id)
            if table.message_id is None:
                await self.opening.place_table(guild, channel, table)
                fresh = True
            else:
                await self.delivery.refresh(table_id)
        if fresh:
            rows = await self.service.store.round_tables(tournament.id, tournament.round)
            homes = {}
            for row in rows:
                if row.table_id:
                    homes[row.table_id] = f"<#{(await self.tables.table(row.table_id)).home_channel_id}>"
            entries = await self.service.store.log(tournament.id)
            text = view.round_announcement(tournament, rows, homes, Lang(tournament.language), entries)
            await channel.send(text[:2000], allowed_mentions=pinging(p for row in rows for p in row.players))
        await self.refresh(tournament_id)
        # Tables finished while the bot was away (or at once) still need their results recorded.
        await self.after_round_change(tournament_id)

    async def on_table_finished(self, table: TableRow) -> None:
        """A listener of ``TableHooks.finished``: only tournament tables concern the events."""
        if table.tournament_id is not None:
            await self.table_finished(table)

    async def table_finished(self, table: TableRow) -> None:
        """A tournament table ended: record it, and close the round when it was the last one."""
        tournament = await self.service.record(table)
        if tournament is None:
            return
        await self.refresh(tournament.id)
        await self.update_live(tournament.id)
        await self.after_round_change(tournament.id)

    async def update_live(self, tournament_id: int) -> None:
        """Edit the event channel's standings message (post and pin it the first time), so everyone
        sees the standings move as each table ends."""
        async with self.live_locks(tournament_id):
            await self._update_live(tournament_id)

    async def _update_live(self, tournament_id: int) -> None:
        tournament = await self.service.get(tournament_id)
        if tournament.status not in ("running", "finished") or not tournament.round:
            return
        rows = await self.service.ranking.standings(tournament)
        teams = await self.service.ranking.team_standings(tournament)
        results = await self.service.store.results(tournament.id)
        tables = [
            r for r in await self.service.store.round_tables(tournament.id, tournament.round) if r.number
        ]
        recorded = await self.service.store.recorded_tables(tournament.id)
        done = sum(1 for r in tables if r.table_id in recorded)
        tr = Lang(tournament.language)
        live = view.live_message(tournament, rows, results, tr, teams, done, len(tables))
        rendered = await self.pages.finish(live, tournament, teams if teams is not None else rows, 0, tr)
        channel = self.delivery.messageable(tournament.channel_id)
        if tournament.standings_message_id:
            try:
                with paced_calls():
                    await message_in(channel, tournament.standings_message_id).edit(
                        **rendered.edit_kwargs()
                    )
                return
            except discord.NotFound:
                pass  # deleted: post a new one
        message = await channel.send(**rendered.send_kwargs())
        await self.service.store.update(tournament.id, standings_message_id=message.id)
        try:
            await message.pin()
        except discord.HTTPException:
            log.info("tournament %s: could not pin the standings", tournament.id)

    async def after_round_change(self, tournament_id: int) -> None:
        async with self.locks(tournament_id):
            tournament = await self.service.get(tournament_id)
            if tournament.status not in ("running", "finished") or tournament.round_done >= tournament.round:
                return
            if not await self.service.round_complete(tournament):
                return
            tournament = await self.service.close_round(tournament_id)
            await self.post_standings(tournament, final=tournament.status == "finished")
            await self.service.store.update(tournament.id, round_done=tournament.round)
        tournament = await self.service.get(tournament_id)
        if tournament.status == "running" and tournament.auto_next:
            try:
                await self.next_round(tournament_id)
            except MissingPermissions as exc:
                await self.checks.tell_organizer(tournament, exc.missing, "tournament.cannot_open_round")
                await self.refresh(tournament_id)
            else:
                await self.tell_pending(tournament_id)
        else:
            await self.refresh(tournament_id)

    async def corrected(self, done: Correction, round_no: int, number: int, reason: str) -> None:
        """Say a correction in the event's channel, and show the standings as they now are."""
        t = done.tournament
        tr = Lang(t.language)
        text = tr("tournament.correction.posted", round=round_no, n=number, moves=view.correction_text(done, tr), reason=reason)
        await self.delivery.messageable(t.channel_id).send(text[:2000], allowed_mentions=discord.AllowedMentions.none())
        await self.update_live(t.id)
        await self.refresh(t.id)

    async def post_standings(self, tournament: Tournament, final: bool) -> None:
        tr = Lang(tournament.language)
        rows = await self.service.ranking.standings(tournament)
        teams = await self.service.ranking.team_standings(tournament)
        results = await self.service.store.results(tournament.id)
        channel = self.delivery.messageable(tournament.channel_id)
        shown = view.standings_message(tournament, rows, results, tr, final, tournament.round, teams)
        rendered = await self.pages.finish(shown, tournament, teams if teams is not None else rows, 0, tr)
        await channel.send(**rendered.send_kwargs())
        if final:
            podium = view.podium_message(
                tournament, teams if teams is not None else rows, tr, teams is not None
            )
            await channel.send(**podium.send_kwargs())  # its names are in the embed: they ping nobody

    # ---- timers and restarts ------------------------------------------------------------------
    async def next_due(self) -> float | None:
        return await self.service.store.next_deadline()

    async def run_due(self, now: float) -> None:
        """Sign-up deadlines: start the event, or cancel it when too few signed up. Round deadlines:
        remind the players still playing, then let computers finish their tables. Of several
        processes sharing the database, one at a time does this; the others find it done."""
        async with self.store.db.lease(TIMERS, 0) as mine:
            if mine:
                await self._run_due(now)

    async def _run_due(self, now: float) -> None:
        for tournament in await self.service.store.with_status("running"):
            if tournament.round_deadline is None:
                continue
            if tournament.round_deadline <= now:
                await self.round_expired(tournament)
            elif (
                not tournament.round_reminded
                and tournament.round_hours is not None  # the round clock runs only when it is set
                and tournament.round_deadline - tournament.round_hours * 720 <= now
            ):
                await self.round_reminder(tournament)
        for tournament in await self.service.store.with_status("signup"):
            if tournament.signup_deadline is None:
                continue
            opens = tournament.signup_deadline - (tournament.checkin_minutes or 0) * 60
            if tournament.checkin_minutes and not tournament.checkin_open and opens <= now:
                await self.open_checkin(tournament)
            if tournament.signup_deadline > now:
                continue
            try:
                await self.start(tournament.id)
                await self.tell_pending(tournament.id)
            except MissingPermissions as exc:
                # Not the players' fault: the event waits for its organizer to start it by hand.
                await self.service.store.update(tournament.id, signup_deadline=None)
                await self.checks.tell_organizer(tournament, exc.missing, "tournament.cannot_start")
            except UserError as exc:
                await self.service.cancel(tournament.id)
                tr = Lang(tournament.language)
                channel = self.delivery.messageable(tournament.channel_id)
                await channel.send(
                    tr(
                        "tournament.cancelled_at_deadline",
                        name=tournament.name,
                        reason=tr(exc.key, **exc.params),
                    )
                )
            await self.refresh(tournament.id)

    async def open_checkin(self, tournament: Tournament) -> None:
        """Check-in opens: everyone signed up is pinged to confirm they will play."""
        tournament = await self.service.controls.open_checkin(tournament.id)
        tr = Lang(tournament.language)
        text = tr(
            "tournament.checkin_opens",
            name=tournament.name,
            when=timestamp(tournament.signup_deadline),
            players=" ".join(f"<@{e.user_id}>" for e in tournament.entrants),
        )
        channel = self.delivery.messageable(tournament.channel_id)
        await channel.send(text[:2000], allowed_mentions=pinging(e.user_id for e in tournament.entrants))
        await self.refresh(tournament.id)

    async def open_tables_of_round(self, tournament: Tournament) -> list:
        recorded = await self.service.store.recorded_tables(tournament.id)
        rows = await self.service.store.round_tables(tournament.id, tournament.round)
        return [r for r in rows if r.number and r.table_id and r.table_id not in recorded]

    async def round_reminder(self, tournament: Tournament) -> None:
        await self.service.store.update(tournament.id, round_reminded=1)
        players = [p for r in await self.open_tables_of_round(tournament) for p in r.players if p is not None]
        if not players:
            return
        tr = Lang(tournament.language)
        text = tr(
            "tournament.round_reminder",
            n=tournament.round,
            name=tournament.name,
            when=timestamp(tournament.round_deadline),
            players=" ".join(f"<@{p}>" for p in players),
        )
        channel = self.delivery.messageable(tournament.channel_id)
        await channel.send(text[:2000], allowed_mentions=pinging(players))

    async def round_expired(self, tournament: Tournament) -> None:
        """The round's time is up: computers take every seat still open, so its tables end now."""
        await self.service.store.update(tournament.id, round_deadline=None)
        late = await self.open_tables_of_round(tournament)
        if not late:
            return
        tr = Lang(tournament.language)
        channel = self.delivery.messageable(tournament.channel_id)
        await channel.send(tr("tournament.round_expired", n=tournament.round, name=tournament.name))
        for row in late:
            for player in row.players:
                if player is not None:
                    await self.seat_ops.hand_to_computer(row.table_id, player, tournament.computer_level)
            await self.delivery.refresh(row.table_id)

    async def recover(self) -> None:
        for tournament in await self.service.store.with_status("running", "finished"):
            try:
                if tournament.status == "running":
                    await self.open_round(tournament.id)
                else:
                    await self.after_round_change(tournament.id)
            except Exception:
                log.exception("tournament %s: recovery failed", tournament.id)

    # ---- export -------------------------------------------------------------------------------
    async def export(self, tournament: Tournament, kind: str) -> list[discord.File]:
        return await export.files(self.service, tournament, kind)

    def new_seed(self) -> int:
        return secrets.randbits(62)
