"""The web pages on a real store, without Discord: tables of every game played by the platform's
own services, the pages' ``Site`` and application over them, and an aiohttp test client."""

from __future__ import annotations

import contextlib
import random
from collections.abc import AsyncIterator, Sequence
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from bot.core.games import REGISTRY, register
from bot.storage.store import Store
from bot.web.app import create_app
from bot.web.live import LiveFeed
from bot.web.signing import Signer
from bot.web.site import Site
from tests.support.platform import Platform

#: game -> (players, options): small and quick tables.
GAMES: dict[str, tuple[int, dict[str, Any]]] = {
    "donguri": (3, {"length": "short"}),
    "arsene": (3, {}),
    "saizen": (2, {}),
    "othello_torite": (2, {}),
    "final_quest": (4, {"round_cap": 2}),
}
SECRET = "a test secret of the web pages"
GUILD, CHANNEL = 1000, 2000
NAMES = ["alice", "bob", "carol", "dave", "erin"]


def register_games() -> None:
    from cogs.arsene.render import ArseneUI
    from cogs.donguri.render import DonguriUI
    from cogs.final_quest.render import FinalQuestUI
    from cogs.othello_torite.render import OthelloToriteUI
    from cogs.saizen.render import SaizenUI

    for ui in (DonguriUI(), ArseneUI(), FinalQuestUI(), OthelloToriteUI(), SaizenUI()):
        if ui.game_id not in REGISTRY:
            register(ui)


async def seated_table(
    platform: Platform, game: str, seed: int = 7, language: str = "en", players: int | None = None,
    channel: int = CHANNEL,
) -> int:
    """A running table of ``game`` with a member in every seat (ids 1, 2 …)."""
    size, options = GAMES[game]
    players = players or size
    table_id = await platform.lobby.create_seated(
        game, guild_id=GUILD, channel_id=channel, host_id=1,
        players=[(i + 1, NAMES[i]) for i in range(players)],
        options=options, language=language, clock=None, on_timeout="computer_turn",
    )
    await platform.lobby.start(table_id, None, seed, shuffle=False)
    return table_id


async def play(platform: Platform, table_id: int, moves: int | None = None, seed: int = 3) -> None:
    """Members make random legal moves, ``moves`` of them (None: to the end)."""
    chooser = random.Random(seed)
    while moves is None or moves > 0:
        table = await platform.tables.table(table_id)
        engine = await platform.tables.engine(table)
        if table.status != "running" or engine.is_terminal():
            return
        seat = chooser.choice(engine.to_act())
        action = chooser.choice(engine.legal_actions(seat))
        await platform.tables.act(table_id, table.seats[seat].user_id, len(engine.history), action)
        moves = None if moves is None else moves - 1


async def rated_game(platform: Platform, game: str, seed: int = 7, channel: int = CHANNEL) -> int:
    """A rated table of ``game`` played to its end at random and settled (its players rated)."""
    table_id = await seated_table(platform, game, seed, channel=channel)
    await platform.store.update_table(table_id, rated=1)
    await play(platform, table_id, seed=seed)
    await platform.ratings.settle(await platform.tables.table(table_id))
    return table_id


#: A channel @everyone cannot see: nothing of it is listed on an index page.
HIDDEN = 2999


async def listed_but_hidden(guild_id: int | None, channel_id: int) -> bool:
    return channel_id != HIDDEN


def make_site(store: Store, platform: Platform, shown=None, public_url: str = "") -> Site:
    async def everywhere(guild_id: int | None) -> bool:
        return True

    return Site(store, platform.tables, Signer(SECRET), shown or everywhere, public_url, listed_but_hidden)


@contextlib.asynccontextmanager
async def client(
    site: Site, poll: float = 0.05, groups: Sequence[Any] = (), gate: Any = None
) -> AsyncIterator[TestClient]:
    feed = LiveFeed(site.read, site.store.versions, poll=poll)
    app, routes = create_app(site, feed, groups, gate)
    async with TestClient(TestServer(app)) as test_client:
        test_client.feed = feed  # type: ignore[attr-defined]
        test_client.routes = routes  # type: ignore[attr-defined]
        yield test_client
        routes.closing = True
        await feed.close()


def event_routes(site: Site, platform: Platform, poll: float = 0.05) -> Any:
    """An event's pages over the platform's tournaments, polled every ``poll`` seconds."""
    from bot.storage.pages import PageRows
    from bot.web.event_pages import EventFeed, EventRoutes

    stamps = PageRows(platform.store.db).event_stamps
    return EventRoutes(site, platform.events, stamps, EventFeed(stamps, poll))
