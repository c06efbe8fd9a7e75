"""Clicks whose answer was deferred get their final answer from whichever process finishes them.

A move's click is answered in the interaction's response when the move is done within 2 s;
otherwise the click is acknowledged by a deferred update (``in_time``) and the answer follows as
an edit of the clicked message. The process that deferred it may die before that. So just before
the deferral goes out the click is stored (``deferred_clicks``: what its move and its answer need,
with the interaction's token, good for 15 minutes), and once answered it is deleted. A click still
stored when its claim runs out (the process that deferred it died, or is stuck) is claimed by any
process, which finishes it as the first would have: the move is played with the click's id as its
request, so it is applied once and a move already committed is answered as taken; then the clicked
message is edited, or the refusal said privately. A click whose deferral Discord never got (the
process died between storing it and sending it) was shown to the member as failed: it is dropped,
not played.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import discord

from bot.core import faults
from bot.core.engine import Engine, IllegalAction
from bot.core.errors import UserError
from bot.core.i18n import Lang, language_of
from bot.core.interaction import Interaction
from bot.storage.clicks import DeferredClick
from bot.storage.store import Store, TableRow
from bot.tables import render
from bot.tables.in_time import NETWORK_ERRORS
from bot.tables.notices import jump_url
from bot.tables.tokens import LIFE, Token

if TYPE_CHECKING:
    from bot.tables.delivery import Delivery
    from bot.tables.moves import Moves

log = logging.getLogger(__name__)
OWNER = 6.0  # the process that deferred a click has this long to answer it before another may
CLAIM = 30.0  # a process finishing a click left behind has it this long
EVERY = 2.0  # how often each process looks for clicks left behind
STORE_WITHIN = 0.4  # the longest a deferral waits for its click to be stored


def check_place(guild_id: int | None, user_id: int, table: TableRow) -> None:
    """A click may touch the table from the table's own server, or from the DM of a member seated
    there: a forged id from elsewhere changes nothing."""
    if guild_id is None:
        if table.seat_of(user_id) is None:
            raise UserError("error.not_seated")
    elif table.guild_id is not None and guild_id != table.guild_id:
        raise UserError("error.wrong_server")


class Click:
    """One move's click in the process that took it: stored before its deferral, deleted once
    answered (``Desk.on_act``)."""

    def __init__(self, deferred: Deferred, interaction: Interaction, table_id: int, version: int, action: str) -> None:
        self.deferred = deferred
        self.interaction = interaction
        self.what = (table_id, version, action)
        self.keeping: asyncio.Task[None] | None = None

    async def deferring(self) -> None:
        """Before the deferral goes out (``in_time``): store the click. A database slow to take it
        (SQLite's one writer, busy) does not hold the deferral past Discord's 3 s: the write goes
        on meanwhile, and this process answers the click itself."""
        self.keeping = asyncio.ensure_future(self.deferred.keep(self.interaction, *self.what))
        await asyncio.wait({self.keeping}, timeout=STORE_WITHIN)

    async def answered(self) -> None:
        """The click got its final answer (whatever it was): a stored click is deleted."""
        if self.keeping is None:
            return
        try:
            await self.keeping
        except Exception:
            log.warning("table %s: a deferred click could not be stored", self.what[0], exc_info=True)
            return
        await faults.point("click.after_answer")
        await self.deferred.rows.done(self.interaction.id)


class Deferred:
    def __init__(
        self, store: Store, moves: Moves, delivery: Delivery, is_closed: Callable[[], bool],
        now: Callable[[], float] = time.time,
    ) -> None:
        self.rows = store.clicks
        self.store = store
        self.moves = moves
        self.delivery = delivery  # the click's token, and the DM a click's answer shows
        self.is_closed = is_closed
        self.now = now
        self.task: asyncio.Task[None] | None = None
        self.waking: asyncio.Task[None] | None = None  # ``later``

    def click(self, interaction: Interaction, table_id: int, version: int, action: str) -> Click:
        """A move's click, stored only if its answer has to be deferred."""
        return Click(self, interaction, table_id, version, action)

    async def keep(self, interaction: Interaction, table_id: int, version: int, action: str) -> None:
        assert interaction.message is not None, "a move's button is on a message"
        now = self.now()
        await self.rows.add(
            DeferredClick(
                interaction.id, interaction.token, table_id, interaction.user.id, interaction.guild_id, version,
                action, interaction.message.id, language_of(interaction.locale), now, now + OWNER,
            )
        )
        self.later()

    # ---- clicks left behind -------------------------------------------------------------------
    def start(self) -> None:
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self.run(), name="deferred-clicks")

    async def stop(self) -> None:
        for task in (self.task, self.waking):
            if task is not None:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        self.task = self.waking = None

    async def run(self) -> None:
        """Other processes may leave clicks behind at any time: look every ``EVERY`` seconds. A
        process alone on its database has only the clicks it stored itself (and, at start-up, those
        of the one before it): it looks once now, then only after storing one (``later``), so that an
        idle bot has no timer ticking."""
        if not self.store.db.shared:
            await self.rows.release()  # the one process before this one is gone
            await self.look()
            return
        while not self.is_closed():
            await self.look()
            await asyncio.sleep(EVERY)

    async def look(self) -> None:
        try:
            await self.once()
        except Exception:
            log.exception("finishing deferred clicks failed")

    def later(self) -> None:
        """A click was stored: on a database of its own, this process looks again once its claim
        can have run out, and goes on while any is left."""
        if self.store.db.shared or self.is_closed() or (self.waking is not None and not self.waking.done()):
            return
        self.waking = asyncio.get_running_loop().create_task(self._later(), name="deferred-clicks-later")

    async def _later(self) -> None:
        due: float | None = self.now() + OWNER
        while due is not None and not self.is_closed():
            await asyncio.sleep(max(due - self.now(), 0.0) + 0.1)
            await self.look()
            due = await self.rows.next_claim()

    async def once(self) -> int:
        """Finish the clicks nobody is finishing; how many were claimed."""
        now = self.now()
        claimed = await self.rows.claim(now, now + CLAIM)
        for click in claimed:
            await self.finish(click)
        return len(claimed)

    async def finish(self, click: DeferredClick) -> None:
        """Play the click's move, unless it was played already, and answer it. A failure on the
        way to Discord leaves it claimed, to be tried again when the claim runs out."""
        tokens = self.delivery.tokens
        try:
            if self.now() - click.deferred_at < LIFE:
                try:
                    await tokens.original(click.token)
                except discord.NotFound:
                    log.info("table %s: a click left behind was never deferred; dropped", click.table_id)
                else:
                    await self.answer(click)
                    log.info("table %s: finished a click left behind by another process", click.table_id)
        except (discord.HTTPException, *NETWORK_ERRORS) as exc:
            log.info("table %s: a click left behind will be tried again: %r", click.table_id, exc)
            return
        except Exception:
            log.exception("table %s: finishing a click left behind failed", click.table_id)
            return
        await self.rows.done(click.interaction_id)

    async def answer(self, click: DeferredClick) -> None:
        tr, tokens, delivery = Lang(click.language), self.delivery.tokens, self.delivery
        token = Token(click.token, click.message_id, click.deferred_at + LIFE)
        in_dm = click.guild_id is None
        on_table = False

        async def keep_token(table: TableRow, engine: Engine, seat: int) -> None:
            nonlocal on_table
            on_table = click.message_id == table.message_id
            if not on_table:
                await tokens.keep(token, table, engine, seat, private=not in_dm)

        showing = delivery.answers.answering(click.table_id, click.user_id) if in_dm else contextlib.nullcontext()
        async with showing:
            try:
                played = await self.moves.play(
                    click.table_id, click.user_id, click.version, click.action,
                    check=lambda t: check_place(click.guild_id, click.user_id, t), also=keep_token,
                    request=str(click.interaction_id),
                )
            except (UserError, IllegalAction) as exc:
                await tokens.follow_up(click.token, await self.refusal(click.table_id, exc, tr))
                return
            table, engine, seat = played.table, played.engine, played.seat
            if on_table or click.message_id == table.message_id:
                return  # its deferred update was its answer: the worker redraws the table message
            header = render.dm_header(table, engine, seat, tr, jump_url(table)) if in_dm else ""
            rendered = render.prompt_message(table, engine, seat, tr, header=header)
            answered = False
            try:
                await tokens.edit(table.id, seat, token, **rendered.edit_kwargs())
                answered = True
            finally:
                if in_dm and answered:
                    await delivery.hand_shown(table, engine, seat)
                elif in_dm:
                    await delivery.mark(table.id, seat, None)
                    delivery.request(table.id)

    async def refusal(self, table_id: int, exc: UserError | IllegalAction, tr: Lang) -> str:
        if isinstance(exc, UserError):
            return tr(exc.key, **exc.params)
        table = await self.moves.service.table(table_id)
        return render.refusal(table.game, exc, render.seat_names(table, tr), tr)
