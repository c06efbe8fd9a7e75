"""The composition root: every service is built here, once, and handed its collaborators.

No service reaches another through the bot object (``tests/core/test_layout.py`` refuses it): a
service gets what it uses in its constructor, and a lower package tells a higher one what happened
through a hook (``TableHooks``, the scheduler's sources) that the higher one is registered with here.
The order below is the order of the packages: storage, tables, ratings, events, the web pages, then
the commands.
"""

from __future__ import annotations

import importlib
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import discord
from discord.ext import commands

from bot.core import ratelimits
from bot.core.config import Config
from bot.events.buttons import event_items
from bot.events.commands import TournamentCommands
from bot.events.desk import TournamentDesk
from bot.events.service import TournamentService
from bot.guilds import Guilds
from bot.ratings.commands import RatingCommands
from bot.ratings.settle import Settlement
from bot.ratings.store import RatingStore
from bot.storage.events import TournamentStore
from bot.storage.pages import PageRows
from bot.storage.ratings import RatingRows
from bot.storage.store import Store
from bot.tables.budget import Budgets
from bot.tables.clock import Scheduler, TableClocks
from bot.tables.clock import now as clock_now
from bot.tables.commands import PlayerCommands, TableCommands
from bot.tables.components import invite_items, launch_items, legend_items, table_items
from bot.tables.computers import Computers
from bot.tables.deferred import Deferred
from bot.tables.delivery import Delivery
from bot.tables.desk import Desk
from bot.tables.ending import EndDesk
from bot.tables.finding import TableList
from bot.tables.hooks import TableHooks
from bot.tables.in_time import Arrivals
from bot.tables.invite_desk import InviteDesk
from bot.tables.launch import Launcher
from bot.tables.legend import Legend
from bot.tables.lfg import LfgCalls
from bot.tables.lobby_clocks import IdleLobbies, InviteLapses
from bot.tables.lobby_ops import LobbyOps
from bot.tables.member_locale import MemberLanguages
from bot.tables.moves import Moves
from bot.tables.opening import Opening
from bot.tables.rematch import RematchClock, RematchOps
from bot.tables.rest_shares import RestShares, rest_share
from bot.tables.seat_ops import SeatOps
from bot.tables.server_settings import ServerSettings
from bot.tables.service import TableService
from bot.tables.settings_command import SettingsCommands
from bot.tables.speech import Speech
from bot.tables.sweep import Sweep
from bot.web.activity import ActivityRoutes
from bot.web.activity_auth import DiscordSignIn, Sessions
from bot.web.app import RouteGroup, WebServer
from bot.web.boards import BoardRoutes
from bot.web.event_pages import EventFeed, EventRoutes
from bot.web.gate import PageGate
from bot.web.health import Gateway, Health
from bot.web.live import LiveFeed
from bot.web.metrics import Metrics
from bot.web.operators import OperatorRoutes
from bot.web.privacy import Listing, pages_by_settings
from bot.web.signing import Signer, fresh_secret
from bot.web.site import Site

log = logging.getLogger("tabletop")
ROOT = Path(__file__).resolve().parent.parent
DRAIN = 5.0  # seconds a shutdown waits at most for the interactions under way (Discord's answer times)


def game_modules() -> list[str]:
    """Every game's cog module: one package per game under ``cogs/``."""
    return [f"cogs.{p.parent.name}.cog" for p in sorted((ROOT / "cogs").glob("*/cog.py"))]


@dataclass
class Services:
    store: Store
    settings: ServerSettings
    languages: MemberLanguages
    arrivals: Arrivals
    service: TableService
    lobby: LobbyOps
    seat_ops: SeatOps
    hooks: TableHooks
    scheduler: Scheduler
    delivery: Delivery
    computers: Computers
    speech: Speech
    moves: Moves
    deferred: Deferred
    desk: Desk
    ending: EndDesk
    opening: Opening
    ratings: RatingStore
    tournaments: TournamentDesk
    sweep: Sweep
    guilds: Guilds
    rest_shares: RestShares
    session: aiohttp.ClientSession
    cogs: list[commands.Cog]
    items: list[type[discord.ui.DynamicItem[Any]]]
    site: Site
    web: WebServer | None
    metrics: Metrics

    async def serve(self) -> None:
        """Serve the web pages (none when ``web_port`` is 0)."""
        if self.web is not None:
            await self.web.start()

    async def recover(self) -> None:
        """After start-up: what the last process left undone (``Delivery.recover`` and the rest)."""
        await self.delivery.recover()
        await self.computers.recover()
        for table in await self.store.unsettled_tables():
            try:
                await self.delivery.settle(table)
            except Exception:
                log.exception("table %s: settling failed", table.id)
        await self.tournaments.recover()
        if not self.store.db.shared:
            await self.store.shared_work.release_claims()
        await self.scheduler.run_due()
        self.sweep.start()
        self.deferred.start()

    async def close(self) -> None:
        """Stop what comes in, then let what is under way end, then the workers and the session
        they use (the caller has stopped taking interactions; it closes the gateway and discord.py's
        HTTP client next, then ``close_store``)."""
        self.scheduler.stop()
        if self.web is not None:
            await self.web.close()  # the pages' requests end before anything they read closes
        await self.arrivals.drained(DRAIN)  # members' clicks and commands under way
        await self.sweep.stop()
        await self.deferred.stop()
        await self.rest_shares.stop()
        await self.computers.worker.close()
        await self.delivery.worker.close()
        await self.session.close()
        self.metrics.log_counters.remove()

    async def close_store(self) -> None:
        await self.languages.flush()
        await self.store.close()


async def build(client: commands.Bot, config: Config) -> Services:
    """Every service, wired; the cogs and button classes to add to ``client``."""
    store = await Store.open(config.database)
    # What the operators' /metrics shows, counted where it happens (each service is handed it).
    metrics = Metrics()
    metrics.log_counters.install()
    # Each server's choices (/settings), over config.toml's per-server defaults.
    settings = ServerSettings(store.servers, config, now=clock_now)
    languages = MemberLanguages(store)
    arrivals = Arrivals()
    service = TableService(store, now=clock_now, grace=lambda table: config.notice_grace, meters=metrics)
    lobby, seat_ops = LobbyOps(service), SeatOps(service)
    hooks = TableHooks()
    scheduler = Scheduler(client.is_closed)
    budgets = Budgets(config.channel_budget, rest_share(config), metrics)
    budgets.guard(client.http)  # every request counts towards Discord's 50 a second
    ratelimits.throttle_sweeps(client.http)  # a sweep of its buckets at most once a minute
    if store.db.shared:  # a channel's calls are counted for all the processes
        budgets.shared = store.shared_work
    speech = Speech(client, store, service, languages, budgets)
    session = aiohttp.ClientSession()
    delivery = Delivery(
        client, config, store, service, settings, budgets, languages, speech, hooks, scheduler.rearm, session,
        scheduler.soon, metrics,
    )
    computers = Computers(service, config, delivery.moved, metrics)
    moves = Moves(service, lobby, delivery.moved, delivery.request, metrics)
    deferred = Deferred(store, moves, delivery, client.is_closed)
    desk = Desk(service, moves, delivery, arrivals, languages, deferred)
    rematches = RematchOps(service)
    ending = EndDesk(rematches, desk, delivery.request, scheduler.rearm)
    invites = InviteDesk(client, service, desk)
    opening = Opening(settings, service, lobby, delivery, desk)
    ratings = RatingStore(RatingRows(store.db), store)
    events = TournamentService(TournamentStore(store.db), ratings, service, lobby, seat_ops)
    # The web pages read what tables and events commit; their messages link to their pages.
    shown = pages_by_settings(settings, config)  # each server's /settings, or the config's web_pages
    page_rows = PageRows(store.db)
    secret = config.web_secret or await page_rows.key("pages", fresh_secret())
    site = Site(store, service, Signer(secret), shown, config.public_url, Listing(client, shown).listed)
    event_pages = EventRoutes(site, events, page_rows.event_stamps, EventFeed(page_rows.event_stamps))
    tournaments = TournamentDesk(
        client, settings, store, events, service, seat_ops, delivery, desk, opening, event_pages.event_page
    )
    tournaments.rearm = scheduler.rearm  # a start that opens check-in sets the event's start time
    # Tables announce; ratings, then events, act (a table's rating before its tournament result).
    hooks.finished.append(Settlement(ratings, delivery.messageable))
    hooks.finished.append(tournaments.on_table_finished)
    scheduler.sources += [
        TableClocks(store, service, delivery, computers), tournaments, RematchClock(rematches, delivery.request),
        IdleLobbies(lobby, delivery), InviteLapses(lobby, delivery), LfgCalls(store, delivery),
    ]
    sweep = Sweep(store, computers.worker.request, delivery.request, scheduler.rearm, client.is_closed, clock_now)
    guilds = Guilds(store, settings, seat_ops, events, clock_now)
    rest_shares = RestShares(store, config, budgets, delivery.courier.me, client.is_closed)
    feed = LiveFeed(site.read, store.versions)
    hooks.changed.append(feed.changed)
    hooks.table_page = site.table_page
    # The operators' /healthz and /metrics: the gateway's state from discord.py's own events.
    gateway = Gateway(lambda: client.latency)
    for event in ("on_connect", "on_ready", "on_resumed"):
        client.add_listener(gateway.up, event)
    client.add_listener(gateway.down, "on_disconnect")
    worker = delivery.worker
    # Pages take turns after the game: clicks being handled and the next hands being drawn go first.
    gate = PageGate(lambda: bool(arrivals.handling) or worker.hurrying_now)
    queued = lambda: len(worker.queue) + len(worker.timers) + len(worker.running)  # noqa: E731
    health = Health(page_rows, gateway, queued, metrics, gate)
    groups: list[RouteGroup] = [event_pages, BoardRoutes(site, ratings, events.store), OperatorRoutes(health, metrics)]
    if config.web_port and config.client_secret:
        # The table as a Discord Activity: members signed in through Discord's OAuth2 (the client
        # secret stays here), moving through the same move service as the buttons.
        sign_in = DiscordSignIn(
            session, lambda: discord.http.Route.BASE, lambda: client.application_id, config.client_secret, config.token
        )
        groups.append(ActivityRoutes(Sessions(secret), sign_in, service, moves))
    metrics.watch_viewers(lambda: sum(topic.viewers for topic in feed.topics.values()))
    web = WebServer(site, feed, config.web_host, config.web_port, groups, gate, metrics) if config.web_port else None
    cogs: list[commands.Cog] = [
        TableCommands(store, seat_ops, delivery, desk),
        PlayerCommands(client, store, config.notice_grace),
        TableList(store, desk, hooks),
        TournamentCommands(tournaments, desk, delivery, settings, scheduler.rearm),
        RatingCommands(ratings, desk, site.rating_page),
        SettingsCommands(settings, desk),
    ]
    for module in game_modules():
        cogs.append(importlib.import_module(module).cog(desk, opening))
    items = table_items(desk, ending) + invite_items(invites) + legend_items(Legend(service, desk))
    items += event_items(tournaments)
    items += launch_items(Launcher(client, service, desk, store.launches, config.activity, clock_now))
    return Services(
        store, settings, languages, arrivals, service, lobby, seat_ops, hooks, scheduler, delivery, computers,
        speech, moves, deferred, desk, ending, opening, ratings, tournaments, sweep, guilds, rest_shares, session, cogs, items, site,
        web, metrics,
    )
