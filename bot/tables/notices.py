"""Turn notices: a "your turn" DM, or a mention in the table's thread, for a player who is away.

Nobody is told while they are playing: a notice goes out once a turn has waited the player's grace
period (``notice_plan``; members choose with /notifications), from the delivery pass, which the
clock asks for when that time comes. Each away player gets one live notice per table, and one
ping: the DM, unless they chose ``never`` or their DMs are closed; then the thread's mention, if
the server wants mentions there (``thread_pings``). A newer notice (the clock's reminder)
replaces the older one.

A notice is never deleted within ``MIN_LIFE`` of being posted: a player its ping called must find
it. When its turn has passed it is edited to say so ("✓ played"; an edit notifies nobody) and
deleted later, at the member's next notice at the table or after the game; a reminder due too
soon after the notice is an edit of it. A thread message that named several members is edited to
name only those still waited for. Each notice's row is written before its message is sent, so
after a crash the message is looked for in the channel rather than sent twice.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.core.i18n import Lang
from bot.core.mentions import pinging
from bot.storage.notices import DEFAULT_MODE, NoticeRow, SpentRow
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


def spent_text(table: TableRow, seats: Sequence[Seat], kind: str, tr: Lang) -> str:
    """A notice whose turn has passed: the members it named have played, or the game is over."""
    about = {"game": tr(f"{table.game}.name"), "id": table.id, "url": jump_url(table)}
    if table.status != "running":
        return tr("notice.over_dm", **about) if kind == DM else tr("notice.over")
    if kind == DM:
        return tr("notice.played_dm", **about)
    names = tr.join(tr("clock.addressee", player=render.seat_name(s, tr)) for s in seats)
    return tr("notice.played", players=names, count=len(seats))


def posted_at(message_id: int) -> float:
    """When Discord says a message was posted (its snowflake's time)."""
    return discord.utils.snowflake_time(message_id).timestamp()


def dm_text(table: TableRow, stage: int, tr: Lang) -> str:
    about = {"game": tr(f"{table.game}.name"), "id": table.id, "url": jump_url(table)}
    when = render.timestamp(table.deadline)
    if stage == REMINDER:
        return tr("clock.reminder_dm", **about, when=when)
    return tr("clock.turn_dm", **about, when=when) if table.deadline else tr("notice.turn_dm", **about)


#: A notice is never deleted sooner after it was posted: its ping may just have called the player.
MIN_LIFE = 60.0
NO_MENTIONS = discord.AllowedMentions.none()

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
        #: An ended table -> seconds until its last notices may be deleted (the delivery pass comes
        #: back then, and keeps the table marked for a pass until they are).
        self.lingering: dict[int, float] = {}

    async def sync(self, table: TableRow) -> None:
        """Bring the table's notices to what its state wants now, and the time of its next one."""
        store = self.store
        if table.ping_message_id:  # a ping from before notices waited for the grace period
            await self.delete_notice(table.home_channel_id, table.ping_message_id)
            await store.update_table(table.id, ping_message_id=None)
        rows = await store.notices.of_table(table.id)
        rows = await self.find_interrupted(table, rows)
        now = self.service.now()
        if table.status != "running":
            await self.close(table, rows, now)
            return
        waits = {w.user_id: w for w in plan.waits(table, self.service.grace(table))}
        live = [r for r in rows if r.user_id in waits and r.turn_no == waits[r.user_id].turn_no]
        await self.withdraw(table, [r for r in rows if r not in live], live)
        if not table.paused:
            await self.send_due(table, waits, live, now)
        due = plan.next_due(waits.values(), now)
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

    # ---- turns that have passed ------------------------------------------------------------------
    async def withdraw(self, table: TableRow, rows: list[NoticeRow], staying: list[NoticeRow]) -> None:
        """The notices of turns that have passed are spent: edited to say so, their messages kept
        until later (``spend``); a thread message is edited to name only the members in
        ``staying`` that it names, while there are any."""
        for row in rows:
            if row.kind == DM:
                await self.spend(table, [row])
        by_message: dict[int | None, list[NoticeRow]] = defaultdict(list)
        for row in rows:
            if row.kind == THREAD:
                by_message[row.message_id].append(row)
        for message_id, gone in by_message.items():
            left = [r for r in staying if r.kind == THREAD and r.message_id == message_id]
            if not left or not message_id:
                await self.spend(table, gone)
                continue
            seats = self.seats_of(table, {r.user_id for r in left})
            text = thread_text(table, seats, max(r.stage for r in left), Lang(table.language))
            await self.edit_notice(gone[0].channel_id, message_id, text)
            await self.store.notices.retext(table.id, [r.user_id for r in left], THREAD, text)
            await self.store.notices.drop(table.id, [r.user_id for r in gone], THREAD)

    async def spend(self, table: TableRow, rows: list[NoticeRow]) -> None:
        """One message's notices (a DM, or a thread message and the members it names) are done:
        it is edited to say so and kept, or deleted when it is old enough and the game is over."""
        first = rows[0]
        users = [r.user_id for r in rows]
        spent = None
        if first.message_id:
            if table.status != "running" and self.age(first.message_id) >= MIN_LIFE:
                await self.delete_notice(first.channel_id, first.message_id)
            else:
                lang = Lang(table.language) if first.kind == THREAD else await self.languages.lang(first.user_id, table.language)
                text = spent_text(table, self.seats_of(table, set(users)), first.kind, lang)
                if await self.edit_notice(first.channel_id, first.message_id, text):
                    spent = SpentRow(first.message_id, first.channel_id, first.user_id, first.kind)
        await self.store.notices.spend(table.id, users, first.kind, spent)

    async def close(self, table: TableRow, rows: list[NoticeRow], now: float) -> None:
        """The game is over: every notice goes, each once it has lived ``MIN_LIFE``; until then it
        says the game is over, and the pass comes back for it (``lingering``)."""
        by_message: dict[tuple[str, int | None], list[NoticeRow]] = defaultdict(list)
        for row in rows:
            by_message[(row.kind, row.message_id if row.kind == THREAD else row.user_id)].append(row)
        for group in by_message.values():
            await self.spend(table, group)
        wait = await self.clear_spent(table.id, lambda spent: True)
        if wait:
            self.lingering[table.id] = wait
        else:
            self.lingering.pop(table.id, None)

    async def clear_spent(self, table_id: int, which: Callable[[SpentRow], bool]) -> float:
        """Delete the table's spent notices that ``which`` picks and that are old enough; returns
        how long until the youngest left of them is (0: none left)."""
        wait = 0.0
        for spent in await self.store.notices.spent(table_id):
            if not which(spent):
                continue
            age = self.age(spent.message_id)
            if age < MIN_LIFE:
                wait = max(wait, MIN_LIFE - age + 1.0)
                continue
            await self.delete_notice(spent.channel_id, spent.message_id)
            await self.store.notices.drop_spent(table_id, spent.message_id)
        return wait

    # ---- notices due -------------------------------------------------------------------------------
    async def send_due(self, table: TableRow, waits: dict[int, Wait], live: list[NoticeRow], now: float) -> None:
        """Send the notices the waits have earned by now and not had, each member's on one
        channel: their DM, or (for a member who wants no DMs, or whose DMs are closed) one message
        in the thread that names every member it tells but notifies only those it had not yet
        told (at this stage)."""
        store = self.store
        remind = plan.reminder_time(table)
        live_dm = {r.user_id: r for r in live if r.kind == DM}
        live_thread = {r.user_id: r for r in live if r.kind == THREAD}
        thread_pings = (await self.settings.of(table.guild_id)).thread_pings

        def earned(w: Wait, kind: str, mode: str) -> int:
            return plan.wanted(w, kind, mode, remind, now)

        def stage(rows: dict[int, NoticeRow], user_id: int) -> int:
            row = rows.get(user_id)
            return row.stage if row is not None else 0

        # A member's choice is read only when a notice could be due (``always``'s DM is the soonest).
        maybe = [
            u for u, w in waits.items()
            if earned(w, DM, "always") > stage(live_dm, u)
            or (thread_pings and earned(w, THREAD, DEFAULT_MODE) > stage(live_thread, u))
        ]
        if not maybe:
            return
        modes = await store.notices.modes(maybe)
        dms = {
            u: st for u in maybe
            if (st := earned(waits[u], DM, modes.get(u, DEFAULT_MODE))) > stage(live_dm, u)
        }
        closed = {u for u, r in live_dm.items() if r.message_id == 0 and u not in dms}
        by_thread = {u for u in maybe if modes.get(u) == "never"} | closed
        if not dms and not (thread_pings and by_thread):
            return
        if await store.version(table.id) != table.version:
            return  # a move came meanwhile: the pass it asked for sees who is still waited for
        for user_id, st in dms.items():
            if not await self.send_dm_notice(table, waits[user_id], st, live_dm.get(user_id)):
                by_thread.add(user_id)  # closed DMs: the thread's mention is their notice
        if not thread_pings:
            return
        stages = {u: earned(waits[u], THREAD, DEFAULT_MODE) for u in by_thread}
        tell = [u for u, st in stages.items() if st > stage(live_thread, u)]
        if tell:
            await self.send_thread_notice(table, waits, {u: stages[u] for u in tell}, live_thread)

    async def send_dm_notice(self, table: TableRow, wait: Wait, stage: int, old: NoticeRow | None) -> bool:
        """The member's DM notice at this stage; False when their DMs are closed."""
        store = self.store
        user_id = wait.user_id
        tr = await self.languages.lang(user_id, table.language)
        text = dm_text(table, stage, tr)
        if old is not None and old.message_id and self.age(old.message_id) < MIN_LIFE:
            # The reminder, too soon after the notice to replace it: the notice says it instead.
            if await self.edit_notice(old.channel_id, old.message_id, text):
                await store.notices.restage(table.id, [user_id], DM, stage, text)
                return True
        dm = await self.channels.dm_channel(user_id)
        if old is not None:
            await self.delete_notice(old.channel_id, old.message_id)
        await self.clear_spent(table.id, lambda spent: spent.kind == DM and spent.user_id == user_id)
        async with self.budgets.spending(dm.id):
            await store.notices.sending(table.id, [user_id], DM, dm.id, {user_id: wait.turn_no}, stage, sent_after(), text)
            try:
                message = await dm.send(text)
            except discord.NotFound:
                await self.channels.forget_dm(user_id)  # a stored DM channel that is gone: opened again next pass
                raise
            except discord.Forbidden:
                await store.notices.sent(table.id, [user_id], DM, 0)
                return False
        await store.notices.sent(table.id, [user_id], DM, message.id)
        return True

    async def send_thread_notice(
        self, table: TableRow, waits: dict[int, Wait], tell: dict[int, int], live: dict[int, NoticeRow]
    ) -> None:
        """Mention the members in ``tell`` (member -> stage) in the thread. The live message there,
        once old enough, is replaced by one that names its members too (notifying only ``tell``);
        a younger one stays, and the new message names only ``tell``."""
        store = self.store
        old = {r.message_id for r in live.values() if r.message_id}
        named = dict(tell)
        if all(self.age(m) >= MIN_LIFE for m in old):
            named.update((u, max(r.stage, tell.get(u, 0))) for u, r in live.items())
            for message_id in old:
                await self.delete_notice(table.home_channel_id, message_id)
            await self.clear_spent(table.id, lambda spent: spent.kind == THREAD)
        users = sorted(named, key=lambda u: waits[u].seat)
        stage = max(named.values())
        text = thread_text(table, [table.seats[waits[u].seat] for u in users], stage, Lang(table.language))
        turns = {u: waits[u].turn_no for u in users}
        mentions = pinging(tell)
        home = self.channels.messageable(table.home_channel_id)
        async with self.budgets.spending(table.home_channel_id):
            await store.notices.sending(table.id, users, THREAD, table.home_channel_id, turns, stage, sent_after(), text)
            message = await home.send(text, allowed_mentions=mentions)
        await store.notices.sent(table.id, users, THREAD, message.id)

    # ---- messages ------------------------------------------------------------------------------------
    def age(self, message_id: int) -> float:
        return self.service.now() - posted_at(message_id)

    @staticmethod
    def seats_of(table: TableRow, users: set[int]) -> list[Seat]:
        return [s for s in table.seats if s.user_id in users]

    async def edit_notice(self, channel_id: int, message_id: int, text: str) -> bool:
        """Edit a notice's text, notifying nobody; False when it is gone or out of reach."""
        async with self.budgets.spending(channel_id):
            try:
                await self.channels.edit_message(channel_id, message_id, content=text, allowed_mentions=NO_MENTIONS)
            except (discord.NotFound, discord.Forbidden):
                return False
        return True

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

