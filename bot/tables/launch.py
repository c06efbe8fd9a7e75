"""**Play in Discord**: a lobby or running table opened in the application's Activity.

Discord opens an Activity only as the first answer to an interaction (``LAUNCH_ACTIVITY``, callback
type 12), for an application that has one, and only where Activities run: a server's text or voice
channel, or a call. Not a thread: "Use Activities" is a permission of text and voice channels, and
a launch elsewhere fails in the member's client ("invalid channel type") after Discord took the
answer, so the bot cannot tell. Not the member's DM with the bot either: the Activity plays a
server's tables, for members of the server it runs in. There the member is told where to open it
instead: the App Launcher of the channel the table belongs to.

Before the launch, the table is remembered for that member and channel (``LaunchRows``): the
Activity, opened there by this press or later from the App Launcher, reads it back and opens at
this table. The launch itself goes out only while the interaction has no answer yet; a press
deferred under load (``in_time``) is told to press again, its table remembered all the same.
"""

from __future__ import annotations

from collections.abc import Callable

import discord

from bot.core import faults
from bot.core.errors import UserError
from bot.core.interaction import Interaction
from bot.storage.launches import LaunchRows
from bot.storage.store import TableRow
from bot.tables.desk import Desk
from bot.tables.in_time import answering
from bot.tables.member_locale import member_lang
from bot.tables.notices import jump_url
from bot.tables.service import TableService

THREADS = {discord.ChannelType.public_thread, discord.ChannelType.private_thread, discord.ChannelType.news_thread}
OPEN = ("lobby", "running")  # the tables an Activity plays


def parent_of(channel: object) -> int | None:
    """The channel a thread belongs to; None for a channel that is no thread."""
    if getattr(channel, "type", None) in THREADS:
        parent: int | None = getattr(channel, "parent_id", None)
        return parent
    return None


class Launcher:
    """Answers **Play in Discord** (``components.PlayButton``)."""

    def __init__(
        self,
        client: discord.Client,
        service: TableService,
        desk: Desk,
        launches: LaunchRows,
        enabled: bool,
        now: Callable[[], float],
    ) -> None:
        self.client = client
        self.service = service
        self.desk = desk
        self.launches = launches
        self.enabled = enabled  # the config's ``activity``
        self.now = now

    async def on_play(self, interaction: Interaction, table_id: int) -> None:
        await self.desk.guarded(interaction, table_id, self._play(interaction, table_id))

    async def on_refused(self, interaction: Interaction, why: str) -> None:
        await self.desk.on_refused(interaction, why)

    async def _play(self, interaction: Interaction, table_id: int) -> None:
        if not self.enabled:  # a message drawn while Activities were on
            raise UserError("activity.launch.off")
        table = await self.desk.checked(interaction, table_id)
        if table.status not in OPEN:
            raise UserError("error.table_closed")
        tr = member_lang(interaction)
        app = self.client.user.display_name if self.client.user else ""
        if interaction.guild_id is None:
            where = self.home_channel(table)
            await self.remember(interaction, table, where)
            await self.desk.reply(interaction, tr("activity.launch.dm", channel=f"<#{where}>", app=app, url=jump_url(table)))
            return
        parent = parent_of(interaction.channel)
        if parent is not None:
            await self.remember(interaction, table, parent)
            await self.desk.reply(interaction, tr("activity.launch.thread", channel=f"<#{parent}>", app=app))
            return
        await self.remember(interaction, table, interaction.channel_id or table.channel_id)
        await faults.point("launch.before_answer")
        async with answering(interaction):  # a deferral under way goes out first, or not at all
            launching = not interaction.response.is_done()
            if launching:
                await interaction.response.launch_activity()
        if not launching:
            await self.desk.reply(interaction, tr("activity.launch.late"))

    async def remember(self, interaction: Interaction, table: TableRow, channel_id: int) -> None:
        assert table.guild_id is not None  # a table of a server: ``checked`` let the click through
        await self.launches.remember(interaction.user.id, table.guild_id, channel_id, table.id, self.now())

    def home_channel(self, table: TableRow) -> int:
        """Where an Activity can open at this table: its channel, or the channel of its thread."""
        return parent_of(self.client.get_channel(table.channel_id)) or table.channel_id
