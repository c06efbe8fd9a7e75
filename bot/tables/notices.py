"""Turn notices at a table: one live "your turn" ping (the previous one is deleted), a reminder
that takes its place when time runs short, and turn DMs on clocked tables for members who want
them. Each is sent once across a crash (through the outbox)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.core.i18n import Lang
from bot.tables import render
from bot.tables.outbox import says

if TYPE_CHECKING:
    from bot.storage.store import TableRow
    from bot.tables.server_settings import ServerSettings


def jump_url(table: TableRow) -> str:
    guild = table.guild_id or "@me"
    return f"https://discord.com/channels/{guild}/{table.channel_id}/{table.message_id}"


def ping_text(seats, key: str, tr: Lang, when: str) -> str:
    """A mention of the players waited for, one addressee each (「さん」 per name in Japanese)."""
    players = tr.join(tr("clock.addressee", player=f"<@{s.user_id}>") for s in seats)
    return tr(key, players=players, count=len(seats), when=when)



class Notices:
    """Part of ``Delivery``: the turn notices of its pass and of the clock."""

    settings: ServerSettings  # each server's: whether turn notices mention players at the table

    async def ping_turn(self, table: TableRow) -> None:
        """Once per turn: one live mention at the table (the previous one is deleted) and, on clocked
        tables for players who want it, a DM."""
        # The seats whose turn began, if still waited for; otherwise (a ping delayed by the channel
        # budget while play went on) whoever is waited for now.
        fresh = [s for s in table.ping_seats if s in table.turn_seats]
        waiting = [table.seats[s] for s in (fresh or table.turn_seats)]
        waiting = [s for s in waiting if not s.played_by_computer]
        store = self.store
        home = self.messageable(table.home_channel_id)
        if table.ping_message_id:
            async with self.spending(table.home_channel_id):
                try:
                    await home.get_partial_message(table.ping_message_id).delete()
                except discord.NotFound:
                    pass
            await store.update_table(table.id, ping_message_id=None)
        if not waiting or table.paused:
            await store.update_table(table.id, pinged_turn=table.turn_no)
            return
        tr = Lang(table.language)
        when = render.timestamp(table.deadline) if table.deadline else ""
        if not await self.pings_in_thread(table):  # the server wants no mentions there: DMs only
            await store.update_table(table.id, pinged_turn=table.turn_no)
            await self.dm_players(table, waiting, "clock.turn_dm", when)
            return
        text = ping_text(waiting, "clock.turn_ping", tr, when)
        async with self.spending(table.home_channel_id):
            message, _ = await self.outbox.send_once(
                table.id, f"ping:{table.turn_no}", home, table.home_channel_id, says(text),
                lambda: home.send(text, allowed_mentions=discord.AllowedMentions(users=True)),
            )
        async with store.transaction():
            await store.update_table(table.id, pinged_turn=table.turn_no, ping_message_id=message.id)
            await self.outbox.done(table.id, f"ping:{table.turn_no}")
        await self.dm_players(table, waiting, "clock.turn_dm", when)

    async def remind(self, table: TableRow) -> None:
        """Once per move clock: the players still waited for are told time is running out. The
        reminder takes the place of the turn ping, so the thread keeps one live notice."""
        waiting = [table.seats[s] for s in table.turn_seats if not table.seats[s].played_by_computer]
        store = self.store
        if not waiting:
            await store.update_table(table.id, remind_at=None)
            return
        tr = Lang(table.language)
        when = render.timestamp(table.deadline)
        if not await self.pings_in_thread(table):
            await store.update_table(table.id, remind_at=None)
            await self.dm_players(table, waiting, "clock.reminder_dm", when)
            return
        home = self.messageable(table.home_channel_id)
        text = ping_text(waiting, "clock.reminder", tr, when)
        surface = f"remind:{table.turn_no}"
        message, _ = await self.outbox.send_once(
            table.id, surface, home, table.home_channel_id, says(text),
            lambda: home.send(text, allowed_mentions=discord.AllowedMentions(users=True)),
        )
        async with store.transaction():
            await store.update_table(table.id, remind_at=None, ping_message_id=message.id)
            await self.outbox.done(table.id, surface)
        if table.ping_message_id and table.ping_message_id != message.id:
            try:
                await home.get_partial_message(table.ping_message_id).delete()
            except discord.NotFound:
                pass
        await self.dm_players(table, waiting, "clock.reminder_dm", when)

    async def pings_in_thread(self, table: TableRow) -> bool:
        """Whether the table's server lets turn notices mention players at the table (``/settings``)."""
        return (await self.settings.of(table.guild_id)).thread_pings

    async def dm_players(self, table: TableRow, seats, key: str, when: str) -> None:
        for seat in seats:
            if not await self.store.surfaces.turn_dms(seat.user_id):
                continue
            tr = await self.languages.lang(seat.user_id, table.language)
            try:
                dm = await self.dm_channel(seat.user_id)
                await dm.send(tr(key, game=tr(f"{table.game}.name"), id=table.id, url=jump_url(table), when=when))
            except discord.HTTPException:
                pass

