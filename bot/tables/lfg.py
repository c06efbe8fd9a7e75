"""A call for players, as a ``Scheduler`` source: a lobby still short of players five minutes after
it opened has the server's role (``/settings lfg_role``) mentioned once, in the lobby's channel.

At most one call per channel every ``GAP`` seconds, whichever process makes it: the last call of
each channel is stored, and a process takes a call only where none was made within the gap (one
statement, so two processes cannot both). Lobbies due meanwhile wait for the gap to pass and are
named together in one call. Each lobby is called for once; an invite-only lobby never. The
mention pings that role and nobody else (``allowed_mentions``); members opt in by taking it.

The clock only decides the call: taking the channel's turn, the lobbies' and the call due (a row
of the first lobby's, ``lobby_posts``) commit together, and that lobby's delivery pass sends it,
once across a crash and retried when Discord fails, naming the lobbies still short of players.
"""

from __future__ import annotations

import json
import logging
from collections import defaultdict
from collections.abc import Callable
from typing import TYPE_CHECKING

import discord

from bot.core.i18n import Lang
from bot.storage.lobby_posts import Post
from bot.tables.notices import jump_url

if TYPE_CHECKING:
    from bot.storage.store import Store, TableRow
    from bot.tables.budget import Budgets
    from bot.tables.delivery import Delivery
    from bot.tables.outbox import Outbox

log = logging.getLogger(__name__)
GAP = 15 * 60.0  # at most one call per channel this often
CALL = "call"  # the call's row and send intent, of the first lobby called


def call_text(tables: list[TableRow], role_id: int, tr: Lang) -> str:
    """The call: the role, then each lobby with its seats and link."""
    listed = tr.join(
        tr("lfg.table", game=tr(f"{t.game}.name"), id=t.id, url=jump_url(t), seated=len(t.seats), size=t.size)
        for t in tables
    )
    return tr("lfg.call", role=f"<@&{role_id}>", tables=listed, count=len(tables))


def role_only(role_id: int) -> discord.AllowedMentions:
    """The call pings its role, and no member, @everyone or other role its text may name."""
    return discord.AllowedMentions(everyone=False, users=False, roles=[discord.Object(role_id)], replied_user=False)


class LfgCalls:
    def __init__(self, store: Store, delivery: Delivery) -> None:
        self.store = store
        self.delivery = delivery  # the server's settings and guild, the channel and its budget

    async def next_due(self) -> float | None:
        return await self.store.lobbies.next_call()

    async def run_due(self, now: float) -> None:
        by_channel: dict[int, list[TableRow]] = defaultdict(list)
        for table_id in await self.store.lobbies.calling(now):
            table = await self.store.get_table(table_id)
            if table is not None and table.status == "lobby" and table.guild_id is not None:
                by_channel[table.channel_id].append(table)
        for channel_id, tables in by_channel.items():
            try:
                await self.call(channel_id, tables, now)
            except Exception:
                log.exception("channel %s: the call for players failed", channel_id)

    async def call(self, channel_id: int, tables: list[TableRow], now: float) -> None:
        ids = [t.id for t in tables]
        guild_id = tables[0].guild_id
        assert guild_id is not None
        role = await self.role(guild_id)
        if role is None:  # none chosen, or deleted: nobody to call, now or later
            await self.store.lobbies.set_call(ids, None)
            return
        store = self.store
        last = await store.lobbies.last_call(channel_id)
        owner = tables[0].id
        async with store.transaction():
            if last is not None and now - last < GAP or not await store.lobbies.claim_call(channel_id, guild_id, now, GAP):
                later = (last if last is not None else now) + GAP
                await store.lobbies.set_call(ids, later)  # after the channel's gap, if still short
                return
            await store.lobbies.set_call(ids, None)
            await store.lobby_posts.set(owner, Post(CALL, channel_id, None, json.dumps({"role": role.id, "tables": ids})))
            await store.update_table(owner, posts=1, dirty=1)
        self.delivery.request(owner)

    async def role(self, guild_id: int) -> discord.Role | None:
        guild = self.delivery.client.get_guild(guild_id)
        if guild is None:
            return None
        settings = self.delivery.settings
        return settings.lfg_role(guild, await settings.of(guild_id)).value


def is_call(role_id: int) -> Callable[[discord.Message], bool]:
    """The bot's call for this role, as an interrupted attempt sent it (the lobbies it names, or
    their seats, may have changed since)."""
    return lambda message: (message.content or "").startswith("📣") and f"<@&{role_id}>" in message.content


class DueCalls:
    """The calls due, sent by the delivery pass of the first lobby each names."""

    def __init__(
        self, store: Store, budgets: Budgets, outbox: Outbox, channel: Callable[[int], discord.abc.Messageable]
    ) -> None:
        self.store = store
        self.budgets = budgets
        self.outbox = outbox
        self.channel = channel

    async def sync(self, table: TableRow, posts: dict[str, Post]) -> None:
        post = posts.get(CALL)
        if post is None or post.message_id is not None or post.channel_id is None:
            return
        due = json.loads(post.shows)
        role_id, channel_id = due["role"], post.channel_id
        called = [await self.store.get_table(i) for i in due["tables"]]
        short = [t for t in called if t is not None and t.status == "lobby" and len(t.seats) < t.size]
        message_id = 0  # every lobby filled or closed meanwhile: nobody to call
        if short:
            text = call_text(short, role_id, Lang(short[0].language))
            channel = self.channel(channel_id)
            async with self.budgets.spending(channel_id):
                message, _ = await self.outbox.send_once(
                    table.id, CALL, channel, channel_id, is_call(role_id),
                    lambda: channel.send(text, allowed_mentions=role_only(role_id)),
                )
            message_id = message.id
        posts[CALL] = Post(CALL, channel_id, message_id, post.shows)
        async with self.store.transaction():
            await self.store.lobby_posts.set(table.id, posts[CALL])
            await self.outbox.done(table.id, CALL)
