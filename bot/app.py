"""The bot: loads every game cog, opens and migrates the database, syncs slash commands."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.ai import pool
from bot.core import mentions
from bot.core.config import Config
from bot.core.interaction import Interaction
from bot.core.option_limits import CheckedTree
from bot.core.translator import CatalogTranslator
from bot.tables import components, entry_point
from bot.wiring import Services, build

log = logging.getLogger("tabletop")


class TabletopBot(commands.Bot):
    """The Discord client. Its services are built and wired in ``bot/wiring.py``; the bot only
    connects them to discord.py's events. Tests read them here (``bot.service``, ``bot.delivery``),
    the bot's own modules never do."""

    services: Services

    def __init__(self, config: Config) -> None:
        # The bot never joins voice: no "PyNaCl/davey is not installed" warnings at every start.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        intents = discord.Intents.default()
        # No member chunking is needed, so READY need not wait 2 s for guilds to stream in.
        shards: dict[str, Any] = (
            {} if config.shard_count is None else {"shard_count": config.shard_count, "shard_ids": config.shard_ids}
        )
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            guild_ready_timeout=0.2,
            allowed_mentions=mentions.NOBODY,  # a notice names whom it pings (bot/core/mentions.py)
            tree_cls=CheckedTree,  # every command's options checked against their declarations
            **shards,
        )
        self.config = config
        self._announced = False
        self._startup: asyncio.Future | None = None
        self._closing: asyncio.Future | None = None

    def __getattr__(self, name: str) -> Any:
        """For tests: ``bot.store``, ``bot.delivery`` ... are the wired services."""
        services = self.__dict__.get("services")
        if services is not None and name in Services.__dataclass_fields__:
            return getattr(services, name)
        raise AttributeError(name)

    async def setup_hook(self) -> None:
        self.services = await build(self, self.config)
        self.services.rest_shares.start()
        await self.services.serve()
        self.tree.error(self.on_app_command_error)
        await self.tree.set_translator(CatalogTranslator())
        for cog in self.services.cogs:
            await self.add_cog(cog)
        self.add_dynamic_items(*self.services.items)
        synced = await entry_point.sync_commands(self.tree, self.config)  # the Activity's kept
        self.services.guilds.command_ids = {c.name: c.id for c in synced}
        log.debug("synced %d commands", len(synced))

    async def on_ready(self) -> None:
        if not self._announced:
            self._announced = True
            log.info("ready as %s in %d servers with %d games", self.user, len(self.guilds), len(self.cogs))
            # Tracked so that a shutdown arriving mid-recovery cancels it before the database closes.
            self._startup = asyncio.ensure_future(self.services.recover())
            with contextlib.suppress(asyncio.CancelledError):
                await self._startup

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        # Before any command or button runs (they are already scheduled, not started): private
        # answers and the DMs they cause follow the language this interaction carries.
        if event_name == "interaction" and "services" in self.__dict__:
            self.services.languages.note(args[0])
            self.services.arrivals.note(args[0])
        elif event_name == "message" and self._closing is not None:
            return  # stopping: table talk is no longer policed (``Desk.guarded`` refuses clicks)
        super().dispatch(event_name, *args, **kwargs)

    async def on_interaction(self, interaction: Interaction) -> None:
        """discord.py routes our buttons and menus (``components``); a click none of them takes (an
        old layout, a forged id) still gets an answer."""
        if interaction.type is discord.InteractionType.component:
            if components.unclaimed(interaction, self.services.items):
                await self.services.desk.on_unknown(interaction)

    async def on_message(self, message: discord.Message) -> None:
        await self.services.speech.on_message(message)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        await self.services.guilds.joined(guild)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await self.services.guilds.left(guild.id)

    async def on_app_command_error(self, interaction: Interaction, error: app_commands.AppCommandError) -> None:
        await self.services.desk.report(interaction, None, getattr(error, "original", error))

    async def close(self) -> None:
        """Every caller (the signal handler's task, ``async with``'s exit, discord.py itself) waits for
        one and the same shutdown to finish, so the event loop never closes while the database is
        still writing. What comes in stops first (interactions are refused, the web server closes),
        then what is under way ends (members' clicks, the workers), and only then do the HTTP
        sessions, the gateway and the database close (``Services.close``)."""
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._close())
        await asyncio.shield(self._closing)

    async def _close(self) -> None:
        services = self.__dict__.get("services")
        startup = self._startup
        if services is not None:
            services.arrivals.closing = True  # clicks and commands are answered "restarting" from now on
            services.scheduler.stop()
        if startup is not None and not startup.done():
            startup.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await startup
        if services is not None:
            await services.close()
        pool.shutdown()
        await super().close()
        if services is not None:
            await services.close_store()


class ShardedTabletopBot(TabletopBot, commands.AutoShardedBot):
    """The same bot running the shards ``shard_ids`` of ``shard_count`` (other processes run the
    rest, sharing the PostgreSQL database)."""


def create_bot(config: Config) -> TabletopBot:
    if config.shard_count is None:
        return TabletopBot(config)
    return ShardedTabletopBot(config)
