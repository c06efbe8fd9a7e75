"""The bot: loads every game cog, opens and migrates the database, syncs slash commands."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from pathlib import Path

import discord
from discord import app_commands
from discord.ext import commands

from bot.ai import pool
from bot.core import ratelimits
from bot.core.config import Config
from bot.core.translator import CatalogTranslator
from bot.events.desk import TournamentDesk
from bot.storage.store import Store
from bot.tables import components
from bot.tables.clock import Scheduler
from bot.tables.clock import now as clock_now
from bot.tables.computers import Computers
from bot.tables.delivery import Delivery
from bot.tables.desk import Desk
from bot.tables.in_time import Arrivals
from bot.tables.member_locale import MemberLanguages
from bot.tables.rest_shares import RestShares
from bot.tables.service import TableService
from bot.tables.speech import Speech
from bot.tables.sweep import Sweep

log = logging.getLogger("tabletop")
ROOT = Path(__file__).resolve().parent.parent


def game_extensions() -> list[str]:
    return [f"cogs.{p.parent.name}.cog" for p in sorted((ROOT / "cogs").glob("*/cog.py"))]


class TabletopBot(commands.Bot):
    """The composition root: it owns every platform service, typed, so handlers reach them checked."""

    store: Store
    service: TableService
    delivery: Delivery
    desk: Desk
    speech: Speech
    scheduler: Scheduler
    tournaments: TournamentDesk
    computers: Computers
    languages: MemberLanguages

    def __init__(self, config: Config) -> None:
        # The bot never joins voice: no "PyNaCl/davey is not installed" warnings at every start.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        intents = discord.Intents.default()
        # No member chunking is needed, so READY need not wait 2 s for guilds to stream in.
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            guild_ready_timeout=0.2,
            **({} if config.shard_count is None else {"shard_count": config.shard_count, "shard_ids": config.shard_ids}),
        )
        self.config = config
        ratelimits.throttle_sweeps(self.http)
        self.arrivals = Arrivals()
        self._announced = False
        self._startup: asyncio.Future | None = None
        self._closing: asyncio.Future | None = None

    async def setup_hook(self) -> None:
        self.store = await Store.open(self.config.database)
        self.languages = MemberLanguages(self.store)
        self.service = TableService(self.store, now=clock_now)
        self.delivery = Delivery(self)
        self.delivery.budgets.guard(self.http)  # every request counts towards Discord's 50 a second
        if self.store.db.shared:  # a channel's calls are counted for all the processes
            self.delivery.budgets.shared = self.store
        self.computers = Computers(self)
        self.desk = Desk(self, self.service)
        self.speech = Speech(self)
        self.scheduler = Scheduler(self)
        self.tournaments = TournamentDesk(self)
        self.scheduler.sources.append(self.tournaments)
        self.sweep = Sweep(self)
        self.rest_shares = RestShares(self)
        self.rest_shares.start()
        self.tree.on_error = self.on_app_command_error
        await self.tree.set_translator(CatalogTranslator())
        await self.load_extension("bot.tables.commands")
        await self.load_extension("bot.events.commands")
        await self.load_extension("bot.ratings.commands")
        for extension in game_extensions():
            await self.load_extension(extension)
        if self.config.test_guild_id:
            guild = discord.Object(id=self.config.test_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.debug("synced %d commands", len(synced))

    async def on_ready(self) -> None:
        if not self._announced:
            self._announced = True
            log.info("ready as %s in %d servers with %d games", self.user, len(self.guilds), len(self.cogs))
            # Tracked so that a shutdown arriving mid-recovery cancels it before the database closes.
            self._startup = asyncio.ensure_future(self._recover())
            with contextlib.suppress(asyncio.CancelledError):
                await self._startup

    async def _recover(self) -> None:
        await self.delivery.recover()
        await self.computers.recover()
        for table in await self.store.unsettled_tables():
            try:
                await self.delivery.settle(table)
            except Exception:
                log.exception("table %s: settling failed", table.id)
        await self.tournaments.recover()
        if not self.store.db.shared:
            await self.store.release_claims()
        await self.scheduler.run_due()
        self.sweep.start()

    def dispatch(self, event_name: str, /, *args, **kwargs) -> None:
        # Before any command or button runs (they are already scheduled, not started): private
        # answers and the DMs they cause follow the language this interaction carries.
        if event_name == "interaction" and hasattr(self, "languages"):
            self.languages.note(args[0])
            self.arrivals.note(args[0])
        super().dispatch(event_name, *args, **kwargs)

    async def on_interaction(self, interaction: discord.Interaction[TabletopBot]) -> None:
        """Our buttons and menus (``components.dispatch``); one whose id matches nothing (an old
        layout, a forged id) still gets an answer."""
        if interaction.type is discord.InteractionType.component:
            custom_id = (interaction.data or {}).get("custom_id", "")
            if not await components.dispatch(interaction, custom_id) and not components.live(self, custom_id):
                await self.desk.on_unknown(interaction)

    async def on_message(self, message: discord.Message) -> None:
        await self.speech.on_message(message)

    async def on_app_command_error(
        self, interaction: discord.Interaction[TabletopBot], error: app_commands.AppCommandError
    ) -> None:
        await self.desk.report(interaction, None, getattr(error, "original", error))

    async def close(self) -> None:
        """Every caller (the signal handler's task, ``async with``'s exit, discord.py itself) waits for
        one and the same shutdown to finish, so the event loop never closes while the database is
        still writing."""
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._close())
        await asyncio.shield(self._closing)

    async def _close(self) -> None:
        if hasattr(self, "scheduler"):
            self.scheduler.stop()
        if hasattr(self, "sweep"):
            await self.sweep.stop()
        if hasattr(self, "rest_shares"):
            await self.rest_shares.stop()
        startup = self._startup
        if startup is not None and not startup.done():
            startup.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await startup
        for service in ("computers", "delivery"):
            if hasattr(self, service):
                await getattr(self, service).worker.close()
        pool.shutdown()
        await super().close()
        if hasattr(self, "languages"):
            await self.languages.flush()
        store = getattr(self, "store", None)
        if store is not None:
            del self.store
            await store.close()


class ShardedTabletopBot(TabletopBot, commands.AutoShardedBot):
    """The same bot running the shards ``shard_ids`` of ``shard_count`` (other processes run the
    rest, sharing the PostgreSQL database)."""


def create_bot(config: Config) -> TabletopBot:
    if config.shard_count is None:
        return TabletopBot(config)
    return ShardedTabletopBot(config)
