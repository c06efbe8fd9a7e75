"""Joining and leaving servers.

When the bot joins a server it says hello in the server's system channel, if it may post there:
how to start, and ``/settings`` for the admins. When it leaves, or is removed, the server's open
tables end where they are, without results or ratings, and its open events are cancelled; what is
stored of the server is kept for 30 days (a server that invites the bot back finds it as it was),
then the sweeper purges it (``bot.tables.sweep``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

import discord

from bot.core.i18n import Lang

if TYPE_CHECKING:
    from bot.events.service import TournamentService
    from bot.storage.store import Store
    from bot.tables.seat_ops import SeatOps
    from bot.tables.server_settings import ServerSettings

log = logging.getLogger(__name__)

#: The commands the welcome names: (catalog key of the command's name, of its subcommand's).
WELCOME_COMMANDS = {
    "new": ("donguri.cmd.name", "donguri.cmd.new.name"),
    "rules": ("donguri.cmd.name", "donguri.cmd.rules.name"),
    "mygames": ("cmd.mygames.name", None),
    "settings": ("cmd.settings.name", None),
}


class Guilds:
    def __init__(
        self,
        store: Store,
        settings: ServerSettings,
        seat_ops: SeatOps,
        events: TournamentService,
        now: Callable[[], float],
    ) -> None:
        self.store = store
        self.settings = settings
        self.seat_ops = seat_ops  # ends the tables of a server left
        self.events = events  # cancels its events
        self.now = now  # wall-clock seconds
        #: Top-level command name -> its id, once the commands are synced: the welcome mentions
        #: them, and Discord shows each member a mention in their own language, clickable.
        self.command_ids: dict[str, int] = {}

    async def joined(self, guild: discord.Guild) -> None:
        if await self.store.servers.returned(guild.id):
            log.info("server %s: back within 30 days, nothing was purged", guild.id)
        await self.welcome(guild)

    async def welcome(self, guild: discord.Guild) -> None:
        channel = guild.system_channel
        if channel is None:
            return
        perms = channel.permissions_for(guild.me)
        if not (perms.view_channel and perms.send_messages):
            return
        tr = Lang(self.settings.language(await self.settings.of(guild.id), guild.preferred_locale))
        commands = {name: self.mention(tr, *keys) for name, keys in WELCOME_COMMANDS.items()}
        try:
            await channel.send(tr("welcome.text", **commands), allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            log.info("server %s: could not post the welcome: %s", guild.id, exc)

    def mention(self, tr: Lang, name_key: str, sub_key: str | None) -> str:
        """A command as a mention (``</donguri new:id>``) once its id is known; as text before."""
        english = [Lang("en")(k) for k in (name_key, sub_key) if k]
        command_id = self.command_ids.get(english[0])
        if command_id is not None:
            return f"</{' '.join(english)}:{command_id}>"
        return "`/" + " ".join(tr(k) for k in (name_key, sub_key) if k) + "`"

    async def left(self, guild_id: int) -> None:
        """The bot left the server, or was removed: its events are cancelled, its open tables end
        without results or ratings, and its data is kept for 30 days."""
        await self.store.servers.left(guild_id, self.now())
        for tournament in await self.events.store.in_guild(guild_id, ("signup", "running")):
            await self.events.cancel(tournament.id)
        ended = 0
        for table_id in await self.store.servers.open_tables(guild_id):
            ended += await self.seat_ops.end_unrated(table_id)
        self.settings.forget(guild_id)
        log.info("server %s: left; %d tables ended, data kept for 30 days", guild_id, ended)
