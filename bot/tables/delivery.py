"""Showing committed state in Discord: the table message, the public record, hands by DM, turn notices.

Discord shows what is committed, never the other way round. A worker brings every surface of a
table up to the stored version; it can run again at any point after a crash without repeating
anything. A surface that fails (429, 5xx, a timeout) is retried with backoff while the others go on;
a closed DM gets its one notice; a deleted table message is posted again. The table is marked
shown only for the version that was rendered, so a move committed during a pass is never missed.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.core.config import Config
from bot.core.engine import Engine
from bot.core.i18n import Lang
from bot.core.mentions import message_parameters, pinging
from bot.core.meters import NO_METERS, Meters
from bot.storage.outbox import SendIntents
from bot.storage.store import Store, TableRow
from bot.tables import rematch, render
from bot.tables.answers import Answers
from bot.tables.budget import CHANNEL_SLACK, CHANNEL_WINDOW, Budgets, Later, paced_calls  # noqa: F401  (re-exported)
from bot.tables.courier import Courier
from bot.tables.deal_close import close_earlier_deal
from bot.tables.hand_lane import HandLane
from bot.tables.hooks import TableHooks
from bot.tables.invite_dms import InviteDMs
from bot.tables.lfg import DueCalls
from bot.tables.lobby_posts import LobbyPosts, ThreadLines
from bot.tables.member_locale import MemberLanguages
from bot.tables.notices import DMChannel, TurnNotices, jump_url
from bot.tables.outbox import Outbox, mentions_url
from bot.tables.pace import Pace
from bot.tables.placement import Placement
from bot.tables.record import Record
from bot.tables.rematch_offer import RematchOffer
from bot.tables.render import relevance
from bot.tables.result_dms import ResultDMs
from bot.tables.tokens import Tokens
from bot.tables.worker import Worker

if TYPE_CHECKING:
    from bot.tables.server_settings import ServerSettings
    from bot.tables.service import TableService
    from bot.tables.speech import Speech

log = logging.getLogger(__name__)
TABLE_MESSAGE = -1  # key of the table message in ``shown`` (seats are 0..n-1)
ANSWERED = "answered"  # marks a hand shown by a click's own answer, in whichever DM was clicked
DM_CLOSED = 50007
BACKOFF = (1.0, 2.0, 5.0, 15.0, 60.0)
DMS = 4096  # members whose DM channel id is kept
# Tables whose hands are drawn at once after their moves (``HandLane``). Enough to keep up with 100
# moves/s when the database is slow to answer (1,000 tables in play); more make the moves' answers wait.
HANDS_AT_ONCE = 16


def fingerprint(rendered: render.Rendered) -> str:
    embed = rendered.embed.to_dict() if rendered.embed else {}
    view = rendered.view.to_components() if rendered.view else []
    image = hashlib.sha1(rendered.image).hexdigest() if rendered.image else None
    return hashlib.sha1(
        json.dumps([rendered.content, embed, view, image], sort_keys=True).encode()
    ).hexdigest()


def retryable(exc: BaseException) -> bool:
    """Rate limits, server errors and timeouts pass; so may a missing permission, once a moderator
    restores it. A message that is gone (404) is handled where it happens."""
    if isinstance(exc, (asyncio.TimeoutError, OSError)):
        return True
    return isinstance(exc, discord.HTTPException) and (exc.status in (403, 429) or exc.status >= 500)


class Delivery:
    def __init__(
        self,
        client: discord.Client,
        config: Config,
        store: Store,
        service: TableService,
        settings: ServerSettings,
        budgets: Budgets,
        languages: MemberLanguages,
        speech: Speech,
        hooks: TableHooks,
        rearm: Callable[[], Awaitable[None]],
        session: aiohttp.ClientSession,
        soon: Callable[[float], bool] | None = None,
        meters: Meters = NO_METERS,
    ) -> None:
        self.client = client
        self.meters = meters  # commit -> every surface shown
        self.committed: dict[int, float] = {}  # table id -> when its oldest move not yet shown was committed
        self.config = config
        self.launch = config.activity  # lobby and table messages offer **Play in Discord**
        self.store = store
        self.service = service
        self.settings = settings  # whether a server's turn notices mention players at the table
        self.budgets = budgets
        self.languages = languages
        self.speech = speech
        self.hooks = hooks
        #: Asks the clock to re-read the next due time (a move may have set a deadline).
        self.rearm = rearm
        self.soon = soon  # tells the clock a due time, without a read (``Scheduler.soon``)
        self.shown: dict[tuple[int, int], Any] = {}
        self.attempts: dict[int, int] = {}
        #: table id -> what its table message was last rendered from (see ``message_state``).
        self.message_states: dict[int, tuple[Any, ...]] = {}
        self.dms: OrderedDict[int, int] = OrderedDict()  # member id -> their DM channel's id
        self.answers = Answers()  # a click's own answer that shows a surface: the worker waits for it
        self.hand_lane = HandLane(service, self.deliver_hand)
        self.courier = Courier(self, self._refresh, self._hands)
        # With processes sharing the database, a table's delivery lease is the process's for a whole
        # pass: a move's hands wait for the pass to end.
        self.worker = Worker(
            "delivery", self.courier, limit=8, first=self.courier.first, first_limit=HANDS_AT_ONCE,
            alongside=not store.db.shared,
        )
        self.outbox = Outbox(SendIntents(store.db), client)
        self.placement = Placement(
            client, settings, store, self.outbox, lambda table: self.hooks.table_page(table), self.launch
        )
        self.tokens = Tokens(store, client, session)
        self.notices = TurnNotices(store, service, languages, client, budgets, self.outbox, self, rearm, settings)
        self.pace = Pace(store, config)  # how often the table message and the record change
        self.record = Record(store, service, self.outbox, budgets, self.pace, self)
        # A finished table's own messages: each member's result by DM, the rematch offer at the table.
        self.result_dms = ResultDMs(
            store, languages, budgets, self.outbox, self, lambda table: self.hooks.table_page(table), service.now
        )
        self.offer = RematchOffer(store, budgets, self.outbox, self)
        # A lobby's own messages: its guests' invitation DMs and the lines about them, a call for players.
        lines = ThreadLines(store, budgets, self.outbox, self.messageable)
        invites = InviteDMs(store, languages, budgets, self.outbox, self, lines, self.server_name)
        self.lobby_posts = LobbyPosts(store, lines, invites, DueCalls(store, budgets, self.outbox, self.messageable))

    def server_name(self, table: TableRow) -> str:
        guild = self.client.get_guild(table.guild_id) if table.guild_id else None
        return guild.name if guild is not None else ""

    def messageable(self, channel_id: int) -> discord.abc.Messageable:
        channel = self.client.get_channel(channel_id)
        if isinstance(channel, discord.abc.Messageable):
            return channel
        return self.client.get_partial_messageable(channel_id)

    def request(self, table_id: int) -> None:
        """Bring the table's surfaces up to date in the background (coalesced per table)."""
        self.worker.request(table_id)
        self.hooks.table_changed(table_id)

    def moved(self, table_id: int) -> None:
        """A move was committed: the hands at once (the next player waits for theirs), then the
        rest of the table's surfaces in turn with the other tables'."""
        self.worker.request(table_id, urgent=True)
        self.committed.setdefault(table_id, time.perf_counter())
        self.hooks.table_changed(table_id)

    async def refresh(self, table_id: int) -> None:
        """The same as ``request``: one pass per table at a time, whoever asks."""
        self.request(table_id)

    # ---- one pass ---------------------------------------------------------------------------------
    async def _hands(self, table_id: int) -> None:
        """The urgent part of a pass, after a move (``HandLane``); the whole pass follows."""
        await self.hand_lane.after_move(table_id)

    async def _refresh(self, table_id: int) -> None:
        """Bring every Discord view of the table up to the stored state."""
        await self.answers.settled(table_id, TABLE_MESSAGE)
        table = await self.service.table(table_id)
        delays: list[float] = []

        async def surface(work: Awaitable[None]) -> None:
            try:
                await work
            except Later as later:
                delays.append(later.delay)
            except Exception as exc:
                if not retryable(exc):
                    log.warning("table %s: a surface failed for good: %r", table.id, exc)
                    return
                log.info("table %s: will retry after %r", table.id, exc)
                delays.append(BACKOFF[min(self.attempts.get(table.id, 0), len(BACKOFF) - 1)])

        tr = Lang(table.language)
        engine = None
        if table.status in ("cancelled", "lobby"):
            rendered = render.closed(table, tr) if table.status == "cancelled" else render.lobby(table, tr, self.launch)
            self.presume_shown(table, None, rendered)
            await surface(self.edit_table_message(table, rendered))
        else:
            engine = await self.service.engine(table)
            if self.placement.pending(table):  # a rematch: its message and thread first
                await surface(self.placement.place(table, engine))
                table = await self.service.table(table_id)
                if self.placement.pending(table) or table.status == "cancelled":  # cancelled: its channel is gone
                    self.attempts[table.id] = self.attempts.get(table.id, 0) + 1
                    wait = 0.05 if table.status == "cancelled" else min(delays, default=BACKOFF[-1])
                    self.worker.request(table.id, delay=max(wait, 0.05))
                    return
            self.presume_shown(table, engine)
            # Hands first: the player whose turn just started is waiting for theirs.
            await self.hand_lane.draw(table, engine, surface)
            await surface(self.update_table_message(table, engine, tr))
            await surface(self.record.append(table, tr))
            if table.status == "finished":  # read only once the game is over
                ending = await rematch.ending(self.store, table)
                await surface(self.result_dms.sync(table, engine, ending))
                await surface(self.offer.sync(table, ending))
        if table.posts:
            await surface(self.lobby_posts.sync(table))
        if table.speech:
            await surface(self.speech.sync(table, engine.public_view() if engine else None))
        if table.status != "lobby":
            await surface(self.notices.sync(table))
        recorded = self.record.take_later(table.id)
        if delays:
            if recorded is not None:
                await self.store.update_table(table.id, recorded=recorded)
            self.attempts[table.id] = self.attempts.get(table.id, 0) + 1
            self.worker.request(table.id, delay=max(min(delays), 0.05))
            return
        self.attempts.pop(table.id, None)
        committed = self.committed.pop(table.id, None)
        if committed is not None:
            self.meters.shown(time.perf_counter() - committed)
        # An ended table's last turn notices, too young to delete: it stays marked until they go.
        linger = self.notices.lingering.pop(table.id, None)
        if linger is not None:
            self.worker.request(table.id, delay=linger)
            if recorded is not None or not table.dirty:
                await self.store.update_table(table.id, dirty=1, **({} if recorded is None else {"recorded": recorded}))
        elif table.dirty or recorded is not None:
            await self.store.clear_dirty(table.id, table.version, recorded=recorded)
        if table.status in ("finished", "cancelled"):
            if not table.settled:
                await self.settle(table)
                await self.outbox.forget(table.id)
                await self.tokens.forget(table.id)
            if linger is None:
                self.forget(table.id)
        if table.clock or table.deadline is not None or table.remind_at is not None or table.notify_at is not None:
            # A table without a clock or a notice to come changes no due time. One process alone on
            # its database set this table's times itself: the clock is told them, without a read.
            due = [t for t in (table.deadline, table.remind_at, table.notify_at) if t is not None]
            if self.store.db.shared or self.soon is None or not due or not self.soon(min(due)):
                await self.rearm()

    def forget(self, table_id: int) -> None:
        self.committed.pop(table_id, None)
        for key in [k for k in self.shown if k[0] == table_id]:
            del self.shown[key]
        self.hand_lane.forget(table_id)
        self.answers.forget(table_id)
        self.message_states.pop(table_id, None)
        self.pace.forget(table_id)
        self.record.forget(table_id)

    async def edit_message(self, channel_id: int, message_id: int, **fields: Any) -> None:
        """Edit a message by its ids. Unlike ``PartialMessage.edit`` this neither builds the Message
        Discord answers with (nothing reads it) nor keeps the view in discord.py's view store: every
        button here is a dynamic item, found again by its custom id."""
        with message_parameters(**fields) as params:
            await self.client.http.edit_message(channel_id, message_id, params=params)

    async def dm_channel(self, user_id: int) -> DMChannel:
        """A member's DM channel, opened once: discord.py keeps only the latest 128 private channels,
        and a busy bot would open them again at every deal, or for every member after a restart
        (``deliver_hand`` stores it once a hand has reached it)."""
        channel_id = self.dms.get(user_id)
        if channel_id is None:
            store = self.store
            channel_id = await store.surfaces.dm_channel(user_id)
            if channel_id is None:
                user = self.client.get_user(user_id)
                if user is None:
                    user = await self.client.fetch_user(user_id)
                dm = user.dm_channel or await user.create_dm()
                channel_id = dm.id  # stored once a hand has been sent there
            self.dms[user_id] = channel_id
            while len(self.dms) > DMS:
                self.dms.popitem(last=False)
        self.dms.move_to_end(user_id)
        channel = self.client.get_channel(channel_id)
        return channel if isinstance(channel, discord.DMChannel) else self.client.get_partial_messageable(channel_id)

    async def forget_dm(self, user_id: int) -> None:
        self.dms.pop(user_id, None)
        await self.store.surfaces.forget_dm_channel(user_id)

    async def settle(self, table: TableRow) -> None:
        """After a table ends: whatever listens for it (its rating, its tournament result) runs."""
        await self.hooks.table_finished(table)

    # ---- the table message ------------------------------------------------------------------------
    @staticmethod
    def message_state(table: TableRow, engine: Engine) -> tuple[Any, ...]:
        """What the table message is rendered from, besides its language: a pass that finds it
        unchanged renders nothing."""
        return (table.version, len(engine.history), table.status, table.talk, table.message_id, table.language)

    async def update_table_message(self, table: TableRow, engine: Engine, tr: Lang) -> None:
        """The table message of a running or finished table, rendered only when what it shows may
        have changed and the channel's budget allows an edit now."""
        state = self.message_state(table, engine)
        if not table.message_id or (self.message_states.get(table.id) == state and not table.redraw):
            return
        rendered = None
        ending = await rematch.ending(self.store, table) if table.status == "finished" else None
        page = await self.hooks.table_page(table)
        if table.id not in self.message_states and not table.redraw:
            # Just after a start-up, or once another process delivered the table, what the message
            # shows is known only by its fingerprint: a message that shows this already is not
            # held back by the pace of its last edit.
            rendered = render.table_message(table, engine, tr, ending, page=page, launch=self.launch)
            if self.shown.get((table.id, TABLE_MESSAGE)) == fingerprint(rendered):
                self.message_states[table.id] = state
                return
        self.pace.check(table, "message")
        self.budgets.spend(table.channel_id, peek=True, paced=True)
        await self.edit_table_message(table, rendered or render.table_message(table, engine, tr, ending, page=page, launch=self.launch))
        self.message_states[table.id] = state
        await self.pace.edited(table.id, "message")

    async def edit_table_message(self, table: TableRow, rendered: render.Rendered) -> None:
        """Edit the table message, unless it already shows exactly this; post it again if deleted."""
        key = fingerprint(rendered)
        if not table.message_id or (self.shown.get((table.id, TABLE_MESSAGE)) == key and not table.redraw):
            return
        channel = self.messageable(table.channel_id)
        async with self.budgets.spending(table.channel_id, paced=True):
            try:
                await self.edit_message(table.channel_id, table.message_id, **rendered.edit_kwargs())
            except discord.NotFound:
                log.warning("table %s: its message is gone; posting it again", table.id)
                message = await channel.send(**rendered.send_kwargs())
                await self.store.update_table(table.id, message_id=message.id)
        await self.mark(table.id, TABLE_MESSAGE, key)
        if table.redraw:
            await self.store.redrawn(table.id, table.redraw)
        await self.drawn(table)

    async def drawn(self, table: TableRow) -> None:
        """The table message, drawn from ``table``, reached Discord. A drawing from a later version
        (a click's answer, or another process's pass) may have reached it first and be covered now:
        if the table moved on, the next pass draws it again whatever the fingerprints say."""
        if await self.store.redraw_if_moved(table.id, table.version):
            self.request(table.id)

    # ---- hands by DM --------------------------------------------------------------------------------
    async def deliver_hand(self, table: TableRow, engine: Engine, seat: int) -> None:
        """One DM per deal per player, edited when what they can do changes."""
        user_id = table.seats[seat].user_id
        assert user_id is not None  # a member's seat: computers have no hand to show
        await self.answers.settled(table.id, user_id)
        deal = engine.deal_number
        store = self.store
        key = relevance(table, engine, seat)
        shown = self.shown.get((table.id, seat))
        if shown == key:
            return  # shown: its DM exists (a deleted one is forgotten below, a new deal changes key)
        row = await store.surfaces.delivery(table.id, seat, deal)
        if row is not None and row["failed"]:
            await self.private_hand(table, engine, seat, key)
            return
        if row is not None and shown == (ANSWERED, key):
            await self.mark(table.id, seat, key)  # the click's own answer showed it in this deal's DM
            return
        # The member's last click on this DM may edit it again: a call on that interaction's webhook,
        # which neither the channel's budget nor Discord's global limit counts.
        token = self.tokens.for_dm(row)
        if token is None:
            self.budgets.spend(row["channel_id"] if row is not None else None, peek=True)  # no render to waste
        tr = await self.languages.lang(user_id, table.language)
        header = render.dm_header(table, engine, seat, tr, jump_url(table))
        rendered = render.prompt_message(table, engine, seat, tr, header=header)
        if row is not None and self.answers.overtaken(table.id, user_id, table.version):
            raise Later(0.05)  # a click's answer shows a later state: a pass from a fresh read follows
        begun = self.answers.begun(table.id, user_id)
        try:
            if token is not None:
                try:
                    await self.tokens.edit(table.id, seat, token, **rendered.edit_kwargs())
                except discord.HTTPException:  # expired, or refused: the bot's own edit follows
                    raise Later(0.05) from None
            elif row is not None:
                async with self.budgets.spending(row["channel_id"]):
                    await self.edit_message(row["channel_id"], row["message_id"], **rendered.edit_kwargs())
            else:
                dm = await self.dm_channel(user_id)
                surface = f"dm:{seat}:{deal}"
                async with self.budgets.spending(dm.id):  # a new deal's DM counts in its channel's budget
                    message, sent = await self.outbox.send_once(
                        table.id, surface, dm, dm.id, mentions_url(jump_url(table)),
                        lambda: dm.send(**rendered.send_kwargs()), known=await store.surfaces.dm_ids(table.id, seat),
                    )
                async with store.transaction():
                    await store.surfaces.set_delivery(table.id, seat, deal, dm.id, message.id, False)
                    await store.surfaces.set_dm_channel(user_id, dm.id)
                    await self.outbox.done(table.id, surface)
                if not sent:
                    raise Later(0.05)  # an earlier attempt's message, found: edited to this state next
                await close_earlier_deal(store, self.budgets, self.edit_message, table, seat, deal, tr)
        except discord.NotFound:
            if row is None:
                if await store.surfaces.dm_channel(user_id) is None:
                    raise
                await self.forget_dm(user_id)  # a stored DM channel that is gone: open it again
                raise Later(0.05) from None
            await self.mark(table.id, seat, None)
            await store.surfaces.clear_deliveries(table.id, seat)  # the DM was deleted: send a fresh one next pass
            raise Later(0.05) from None
        except discord.HTTPException as exc:
            if row is None and (exc.code == DM_CLOSED or isinstance(exc, discord.Forbidden)):
                await self.dm_failed(table, seat, deal, Lang(table.language))
                await self.private_hand(table, engine, seat, key)  # a new deal, shown where they play
                return
            raise
        if self.answers.begun(table.id, user_id) != begun:
            # A click's answer raced this edit: which one Discord kept is not known, so it is drawn again.
            await self.answers.settled(table.id, user_id)
            await self.mark(table.id, seat, None)
            raise Later(0.05)
        await self.mark(table.id, seat, key)

    async def private_hand(self, table: TableRow, engine: Engine, seat: int, key: str) -> None:
        """A member whose DMs are closed plays from **My hand**: the token of their last card pressed
        there redraws it, while it can (``tokens``); otherwise **My hand** shows it again."""
        token = await self.tokens.for_private_hand(table.id, seat)
        if token is None or token.shows == key:
            return
        tr = await self.languages.lang(table.seats[seat].user_id, table.language)
        try:
            await self.tokens.edit(table.id, seat, token, **render.prompt_message(table, engine, seat, tr).edit_kwargs())
        except discord.HTTPException:  # dismissed, or the token expired
            return
        await self.tokens.shown(table.id, seat, token, key)

    async def hand_shown(self, table: TableRow, engine: Engine, seat: int) -> None:
        """The clicker's DM was already updated in the interaction response itself."""
        # Only in this deal's DM: a click that ended a deal redrew the old deal's DM, and the new
        # deal still gets a DM of its own.
        user_id = table.seats[seat].user_id
        if user_id is not None:
            self.answers.showed(table.id, user_id, table.version)
        await self.mark(table.id, seat, (ANSWERED, relevance(table, engine, seat)), clicked=True)

    async def mark(self, table_id: int, surface: int, key: Any, clicked: bool = False) -> None:
        """Remember what a surface shows (None: not known). With processes sharing the database it
        is stored too, for whichever delivers the table next; ``clicked``: shown by a click's answer
        here, while another process may be delivering the table."""
        if key is None:
            self.shown.pop((table_id, surface), None)
        else:
            self.shown[(table_id, surface)] = key
        store = self.store
        if store.db.shared:
            stored = f"{ANSWERED}:{key[1]}" if isinstance(key, tuple) else key
            await store.shared_work.set_shown(table_id, surface, stored, self.courier.me if clicked else None)

    def presume_shown(self, table: TableRow, engine: Engine | None, message: render.Rendered | None = None) -> None:
        """A table this process knows nothing of what its surfaces show (after a start-up) that is
        still at the version the last whole pass showed everywhere: it is shown, and a pass asked
        for it (a notice that came due while the bot was down) calls Discord only for what changed.
        With processes sharing the database, what is shown is stored instead (``load_shown``)."""
        if self.store.db.shared or table.shown_version != table.version or table.redraw:
            return
        if (table.id, TABLE_MESSAGE) in self.shown or table.id in self.message_states:
            return
        if message is not None:
            self.shown[(table.id, TABLE_MESSAGE)] = fingerprint(message)
        if engine is not None:
            self.message_states[table.id] = self.message_state(table, engine)
            for seat in table.seats:
                if not seat.is_computer:  # every member's hand, as the hand lane draws them
                    self.shown[(table.id, seat.position)] = relevance(table, engine, seat.position)

    async def load_shown(self, table_id: int) -> None:
        """What the table's surfaces show, and when its paced ones last changed, as the process that
        delivered them last stored it."""
        self.forget(table_id)
        store = self.store
        for surface, stored in (await store.shared_work.shown(table_id)).items():
            answered = stored.startswith(f"{ANSWERED}:")
            key = (ANSWERED, stored.split(":", 1)[1]) if answered else stored
            self.shown[(table_id, surface)] = key
        self.pace.restore(table_id, await store.shared_work.paces(table_id))

    async def dm_failed(self, table: TableRow, seat: int, deal: int, tr: Lang) -> None:
        store = self.store
        told_before = await store.surfaces.any_failed_delivery(table.id, seat)
        await store.surfaces.set_delivery(table.id, seat, deal, None, None, True)
        if not told_before:
            mention = f"<@{table.seats[seat].user_id}>"
            await self.messageable(table.home_channel_id).send(
                tr("dm.closed", player=mention, button=tr("button.my_hand")),
                allowed_mentions=pinging([table.seats[seat].user_id]),
            )

    # ---- start-up ------------------------------------------------------------------------------------
    async def recover(self) -> None:
        """After a start-up: every table whose last change may not have reached Discord is queued;
        the worker redraws them a few at a time while new clicks are served."""
        for table_id in await self.store.dirty_ids():
            self.request(table_id)

    def describe(self) -> dict[str, Any]:
        return {"queued": len(self.worker.queue), "running": len(self.worker.running)}
