"""A call for players, as a ``Scheduler`` source: a lobby still short of players five minutes after
it opened has the server's role (``/settings lfg_role``) mentioned once, in the lobby's channel.

At most one call per channel every ``GAP`` seconds, whichever process makes it: the last call of
each channel is stored, and a process takes a call only where none was made within the gap (one
statement, so two processes cannot both). Lobbies due meanwhile wait for the gap to pass and are
named together in one call. Each lobby is called for once; an invite-only lobby never. The
mention pings that role and nobody else (``allowed_mentions``); members opt in by taking it.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from typing import TYPE_CHECKING

import discord

from bot.core.i18n import Lang
from bot.tables.notices import jump_url

if TYPE_CHECKING:
    from bot.storage.store import Store, TableRow
    from bot.tables.delivery import Delivery

log = logging.getLogger(__name__)
GAP = 15 * 60.0  # at most one call per channel this often


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
        last = await self.store.lobbies.last_call(channel_id)
        if last is not None and now - last < GAP or not await self.store.lobbies.claim_call(channel_id, guild_id, now, GAP):
            later = (last if last is not None else now) + GAP
            await self.store.lobbies.set_call(ids, later)  # after the channel's gap, if still short
            return
        await self.store.lobbies.set_call(ids, None)
        tr = Lang(tables[0].language)
        text = call_text(tables, role.id, tr)
        async with self.delivery.budgets.spending(channel_id):
            await self.delivery.messageable(channel_id).send(text, allowed_mentions=role_only(role.id))

    async def role(self, guild_id: int) -> discord.Role | None:
        guild = self.delivery.client.get_guild(guild_id)
        if guild is None:
            return None
        settings = self.delivery.settings
        return settings.lfg_role(guild, await settings.of(guild_id)).value
