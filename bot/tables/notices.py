"""Turn notices: a "your turn" DM and a mention in the table's thread, for a player who is away.

Nobody is told while they are playing: a notice goes out once a turn has waited the grace period
(``notice_plan``; members choose with /notifications), from the delivery pass, which the clock
asks for when that time comes. Each member has at most one live notice per table and kind, and
the thread at most one mention message: a newer notice (the clock's reminder) replaces the older
one, the old one deleted first. When the turn has passed, or the game ended, the DM is deleted
and the thread's message is deleted, or edited to mention only the members still waited for
(an edit notifies nobody). Each notice's row is written before its message is sent, so after a
crash the message is looked for in the channel rather than sent twice.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.core.i18n import Lang
from bot.storage.notices import DEFAULT_MODE, NoticeRow
from bot.tables import notice_plan as plan
from bot.tables import render
from bot.tables.notice_plan import DM, REMINDER, THREAD, Wait
from bot.tables.outbox import CLOCK_SKEW, says

if TYPE_CHECKING:
    from bot.storage.store import Seat, Store, TableRow
    from bot.tables.budget import Budgets
    from bot.tables.member_locale import MemberLanguages
    from bot.tables.outbox import Outbox
    from bot.tables.server_settings import ServerSettings
    from bot.tables.service import TableService


def jump_url(table: TableRow) -> str:
    guild = table.guild_id or "@me"
    return f"https://discord.com/channels/{guild}/{table.channel_id}/{table.message_id}"


def ping_text(seats: Sequence[Seat], key: str, tr: Lang, when: str) -> str:
    """A mention of the players waited for, one addressee each (「さん」 per name in Japanese)."""
    players = tr.join(tr("clock.addressee", player=f"<@{s.user_id}>") for s in seats)
    return tr(key, players=players, count=len(seats), when=when)


def thread_text(table: TableRow, seats: Sequence[Seat], stage: int, tr: Lang) -> str:
    when = render.timestamp(table.deadline)
    if stage == REMINDER:
        return ping_text(seats, "clock.reminder", tr, when)
    return ping_text(seats, "clock.turn_ping" if table.deadline else "notice.turn_ping", tr, when)


def dm_text(table: TableRow, stage: int, tr: Lang) -> str:
    about = {"game": tr(f"{table.game}.name"), "id": table.id, "url": jump_url(table)}
    when = render.timestamp(table.deadline)
    if stage == REMINDER:
        return tr("clock.reminder_dm", **about, when=when)
    return tr("clock.turn_dm", **about, when=when) if table.deadline else tr("notice.turn_dm", **about)


# A member's DM channel: the cached one, or one known by its id alone.
DMChannel = discord.DMChannel | discord.PartialMessageable


class Channels(Protocol):
    """The channels notices go to, as the delivery worker reaches them (it keeps the DM channels)."""

    def messageable(self, channel_id: int) -> discord.abc.Messageable: ...

    async def dm_channel(self, user_id: int) -> DMChannel: ...

    async def forget_dm(self, user_id: int) -> None: ...

    async def edit_message(self, channel_id: int, message_id: int, **fields: Any) -> None: ...


class TurnNotices:
    """The turn notices of a table, brought up to date by each delivery pass (``sync``)."""

    def __init__(
        self,
        store: Store,
        service: TableService,
        languages: MemberLanguages,
        client: discord.Client,
        budgets: Budgets,
        outbox: Outbox,
        channels: Channels,
        rearm: Callable[[], Awaitable[None]],
        settings: ServerSettings,
    ) -> None:
        self.store = store
        self.service = service  # its clock (``now``) and each table's grace period
        self.languages = languages
        self.client = client
        self.budgets = budgets
        self.outbox = outbox  # finds a message whose send a crash interrupted
        self.channels = channels
        self.rearm = rearm  # asks the clock to look at the next notice time again
        self.settings = settings  # whether a server's turn notices mention players at the table

    async def sync(self, table: TableRow) -> None:
        """Bring the table's notices to what its state wants now, and the time of its next one."""
        store = self.store
        if table.ping_message_id:  # a ping from before notices waited for the grace period
            await self.delete_notice(table.home_channel_id, table.ping_message_id)
            await store.update_table(table.id, ping_message_id=None)
        rows = await store.notices.of_table(table.id)
        rows = await self.find_interrupted(table, rows)
        if table.status != "running":
            await self.withdraw(table, rows, [])
            return
        waits = {w.user_id: w for w in plan.waits(table)}
        live = [r for r in rows if r.user_id in waits and r.turn_no == waits[r.user_id].turn_no]
        await self.withdraw(table, [r for r in rows if r not in live], live)
        now, grace = self.service.now(), self.service.grace(table)
        if not table.paused:
            await self.send_due(table, waits, live, grace, now)
        due = plan.next_due(waits.values(), grace, now)
        if due != table.notify_at and await store.set_notify_at(table.id, table.version, due):
            await self.rearm()

    async def find_interrupted(self, table: TableRow, rows: list[NoticeRow]) -> list[NoticeRow]:
        """Notices whose send a crash interrupted: the message found in its channel is kept (it
        may be taken back below), else the row is dropped and the notice sent again if wanted."""
        pending: dict[tuple[str, int, int, str], list[NoticeRow]] = defaultdict(list)
        for row in rows:
            if row.message_id is None:
                pending[(row.kind, row.channel_id, row.sent_after, row.text)].append(row)
        if not pending:
            return rows
        kept = [r for r in rows if r.message_id is not None]
        for (kind, channel_id, after, text), group in pending.items():
            users = [r.user_id for r in group]
            found = await self.outbox.find(self.channels.messageable(channel_id), after, says(text), ())
            if found is None:
                await self.store.notices.drop(table.id, users, kind)
                continue
            await self.store.notices.sent(table.id, users, kind, found.id)
            kept += [dataclasses.replace(r, message_id=found.id) for r in group]
        return kept

    async def withdraw(self, table: TableRow, rows: list[NoticeRow], staying: list[NoticeRow]) -> None:
        """Take back the notices of turns that have passed: a DM is deleted; the thread's message is
        deleted, or edited to mention only the members in ``staying`` that it names."""
        store = self.store
        for row in rows:
            if row.kind == DM:
                await self.delete_notice(row.channel_id, row.message_id)
                await store.notices.drop(table.id, [row.user_id], DM)
        by_message: dict[int | None, list[NoticeRow]] = defaultdict(list)
        for row in rows:
            if row.kind == THREAD:
                by_message[row.message_id].append(row)
        for message_id, gone in by_message.items():
            left = [r for r in staying if r.kind == THREAD and r.message_id == message_id]
            if not left or not message_id:
                await self.delete_notice(gone[0].channel_id, message_id)
            else:
                tr = Lang(table.language)
                seats = [table.seats[s] for s in table.turn_seats if table.seats[s].user_id in {r.user_id for r in left}]
                text = thread_text(table, seats, max(r.stage for r in left), tr)
                async with self.budgets.spending(gone[0].channel_id):
                    try:
                        await self.channels.edit_message(
                            gone[0].channel_id, message_id, content=text, allowed_mentions=discord.AllowedMentions.none()
                        )
                    except discord.NotFound:
                        pass
                await store.notices.retext(table.id, [r.user_id for r in left], THREAD, text)
            await store.notices.drop(table.id, [r.user_id for r in gone], THREAD)

    async def send_due(
        self, table: TableRow, waits: dict[int, Wait], live: list[NoticeRow], grace: float, now: float
    ) -> None:
        """Send the notices the waits have earned by now and not had: a member's DM, and one
        message in the thread that mentions every member it waits for but notifies only those it
        had not yet told (at this stage)."""
        store = self.store
        remind = plan.reminder_time(table)
        live_dm = {r.user_id: r.stage for r in live if r.kind == DM}
        live_thread = {r.user_id: r for r in live if r.kind == THREAD}

        def earned(w: Wait, kind: str, mode: str) -> int:
            return plan.wanted(w, kind, mode, grace, remind, now)

        # A member's choice is read only when a DM could be due (``always`` is the soonest).
        maybe = [w.user_id for w in waits.values() if earned(w, DM, "always") > live_dm.get(w.user_id, 0)]
        modes = await store.notices.modes(maybe) if maybe else {}
        dms = {
            u: stage for u in maybe if (stage := earned(waits[u], DM, modes.get(u, DEFAULT_MODE))) > live_dm.get(u, 0)
        }
        # The server may want no mentions at the table (``/settings``): then DMs only.
        thread_pings = (await self.settings.of(table.guild_id)).thread_pings
        stages = {u: earned(w, THREAD, DEFAULT_MODE) for u, w in waits.items()} if thread_pings else {}
        told = {u: r.stage for u, r in live_thread.items()}
        tell = [u for u, stage in stages.items() if stage > told.get(u, 0)]
        if not dms and not tell:
            return
        if await store.version(table.id) != table.version:
            return  # a move came meanwhile: the pass it asked for sees who is still waited for
        for user_id, stage in dms.items():
            old = next((r for r in live if r.kind == DM and r.user_id == user_id), None)
            await self.send_dm_notice(table, waits[user_id], stage, old)
        if tell:
            named = {u: max(stages[u], told.get(u, 0)) for u in waits if max(stages[u], told.get(u, 0))}
            await self.send_thread_notice(table, waits, named, tell, {r.message_id for r in live_thread.values()})

    async def send_dm_notice(self, table: TableRow, wait: Wait, stage: int, old: NoticeRow | None) -> None:
        store = self.store
        user_id = wait.user_id
        tr = await self.languages.lang(user_id, table.language)
        text = dm_text(table, stage, tr)
        dm = await self.channels.dm_channel(user_id)
        if old is not None:
            await self.delete_notice(old.channel_id, old.message_id)
        async with self.budgets.spending(dm.id):
            await store.notices.sending(table.id, [user_id], DM, dm.id, {user_id: wait.turn_no}, stage, sent_after(), text)
            try:
                message = await dm.send(text)
            except discord.NotFound:
                await self.channels.forget_dm(user_id)  # a stored DM channel that is gone: opened again next pass
                raise
            except discord.Forbidden:  # closed DMs: the thread's mention is their notice
                await store.notices.sent(table.id, [user_id], DM, 0)
                return
        await store.notices.sent(table.id, [user_id], DM, message.id)

    async def send_thread_notice(
        self, table: TableRow, waits: dict[int, Wait], named: dict[int, int], tell: list[int], old: set[int | None]
    ) -> None:
        store = self.store
        home = self.channels.messageable(table.home_channel_id)
        users = sorted(named, key=lambda u: waits[u].seat)
        stage = max(named.values())
        text = thread_text(table, [table.seats[waits[u].seat] for u in users], stage, Lang(table.language))
        for message_id in old:
            await self.delete_notice(table.home_channel_id, message_id)
        turns = {u: waits[u].turn_no for u in users}
        mentions = discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(u) for u in tell])
        async with self.budgets.spending(table.home_channel_id):
            await store.notices.sending(table.id, users, THREAD, table.home_channel_id, turns, stage, sent_after(), text)
            message = await home.send(text, allowed_mentions=mentions)
        await store.notices.sent(table.id, users, THREAD, message.id)

    async def delete_notice(self, channel_id: int, message_id: int | None) -> None:
        """Delete a notice's message; one already gone, or that can no longer be reached, is left."""
        if not message_id:
            return
        async with self.budgets.spending(channel_id):
            try:
                await self.client.http.delete_message(channel_id, message_id)
            except (discord.NotFound, discord.Forbidden):
                pass


def sent_after() -> int:
    """A snowflake before any message sent from now on (our clock against Discord's)."""
    return discord.utils.time_snowflake(discord.utils.utcnow() - CLOCK_SKEW)

