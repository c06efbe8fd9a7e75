"""Posting a rematch table where its finished table was: its message and thread, or, for a game
played in a channel of its own, a new channel beside the old one.

The rematch table is committed, started, before anything reaches Discord (``rematch.py``); its
first delivery pass posts it here. Each step may be repeated after a crash without doubling
anything: the message is sent once (``outbox.py``), a thread already opened on it is taken (a
message's thread has the message's id), a table channel already made is found by its name; the
ids are stored with the finished table's new version, which then links to the rematch.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import discord

from bot.core.engine import Engine
from bot.core.games import REGISTRY
from bot.core.i18n import Lang
from bot.storage.store import Store, TableRow
from bot.tables import render
from bot.tables.hooks import Link
from bot.tables.opening import THREAD_ARCHIVE_MINUTES, create_table_channel, table_channel_name
from bot.tables.outbox import Outbox
from bot.tables.speech import speech_mode

if TYPE_CHECKING:
    from bot.tables.server_settings import ServerSettings

SURFACE = "table"  # the send intent of the table message
THREAD_EXISTS = 160004  # "A thread has already been created for this message"


def titled(title: str) -> Callable[[discord.Message], bool]:
    """The bot's table message of this table (its embed's title begins with the table's title)."""
    return lambda message: any((e.title or "").startswith(title) for e in message.embeds)


class Placement:
    def __init__(
        self, client: discord.Client, settings: ServerSettings, store: Store, outbox: Outbox, page: Link, launch: bool = False
    ) -> None:
        self.client = client
        self.settings = settings  # where a game's own channels go
        self.store = store
        self.outbox = outbox
        self.page = page  # the table's web page, which its title links to, like any table's
        self.launch = launch  # it offers **Play in Discord**, like any table's

    @staticmethod
    def pending(table: TableRow) -> bool:
        """A rematch table whose message is not posted yet."""
        return table.rematch_of is not None and not table.message_id and table.status in ("running", "finished")

    async def channel(self, channel_id: int) -> discord.abc.GuildChannel | discord.Thread:
        channel = self.client.get_channel(channel_id)
        if channel is None:
            channel = await self.client.fetch_channel(channel_id)
        assert isinstance(channel, (discord.abc.GuildChannel, discord.Thread))
        return channel

    async def place(self, table: TableRow, engine: Engine) -> None:
        lang = Lang(table.language)
        try:
            source = await self.channel(table.channel_id)
        except (discord.NotFound, discord.Forbidden):  # the channel is gone, or the bot's access to it
            await self.store.bump(table.id, status="cancelled", computer_turn=0)
            return
        speech = None
        home: discord.abc.GuildChannel | discord.Thread | None
        own = REGISTRY[table.game].channel_mode == "channel"
        if own:
            guild = source.guild
            speech = speech_mode(guild.me.guild_permissions)
            home = discord.utils.get(guild.text_channels, name=table_channel_name(table, lang))
            if home is None:
                home = await create_table_channel(self.settings, guild, source, table, lang, speech)
        else:
            home = source
        assert isinstance(home, discord.abc.Messageable)
        rendered = render.table_message(table, engine, lang, page=await self.page(table), launch=self.launch)
        message, _sent = await self.outbox.send_once(
            table.id, SURFACE, home, home.id, titled(render.game_title(table, lang)),
            lambda: home.send(**rendered.send_kwargs()),
        )
        thread_id = None
        if not own and isinstance(home, discord.TextChannel):
            thread_id = await self.thread(message, render.game_title(table, lang)[:100])
        async with self.store.transaction():
            await self.store.update_table(
                table.id, channel_id=home.id, message_id=message.id, thread_id=thread_id, speech=speech
            )
            await self.outbox.done(table.id, SURFACE)
            assert table.rematch_of is not None
            await self.store.bump(table.rematch_of)  # the finished table links to its rematch now

    @staticmethod
    async def thread(message: discord.Message, name: str) -> int:
        try:
            thread = await message.create_thread(name=name, auto_archive_duration=THREAD_ARCHIVE_MINUTES)
        except discord.HTTPException as exc:
            if exc.code != THREAD_EXISTS:
                raise
            return message.id
        return thread.id
