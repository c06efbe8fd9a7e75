"""Screenshots of a server's and an event's pages: ``python tools/web_screens.py OUT``.

Fills a fresh database with the platform's own services (rated games of Othello de Torite, a Swiss
event of Donguri after its first round, an elimination event of Saizen played to its end, open
lobbies and a game in play for the server's index), serves
the pages on a local port, and saves what Debian's ``chromium`` (through Playwright) shows at 420 and
1280 px, in English and in Japanese: ``OUT/<language>/<page>-<width>.png`` for the server's index, the
leaderboard, a profile, both events, and ``/healthz`` (``--page server`` … for some of them only).
``tools/web_preview.py`` shoots the tables' live pages and replays.
"""

from __future__ import annotations

import argparse
import asyncio
import pathlib
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from aiohttp import web  # noqa: E402
from playwright.async_api import async_playwright  # noqa: E402

from bot.core.games import REGISTRY  # noqa: E402
from bot.storage.invitations import Guest  # noqa: E402
from bot.storage.pages import PageRows  # noqa: E402
from bot.storage.store import Store  # noqa: E402
from bot.web.app import create_app  # noqa: E402
from bot.web.boards import BoardRoutes  # noqa: E402
from bot.web.event_pages import EventFeed, EventRoutes  # noqa: E402
from bot.web.health import Gateway, Health  # noqa: E402
from bot.web.live import LiveFeed  # noqa: E402
from bot.web.metrics import Metrics  # noqa: E402
from bot.web.operators import OperatorRoutes  # noqa: E402
from tests.events.test_tournaments import create, play_round, run_event  # noqa: E402
from tests.support.browser import CHROMIUM  # noqa: E402
from tests.support.platform import platform  # noqa: E402
from tests.support.web import GUILD, HIDDEN, make_site, rated_game, register_games, seated_table  # noqa: E402

WIDTHS = {420: 900, 1280: 900}
TALLEST = 4000  # px of a page kept in its screenshot


async def open_tables(world) -> None:
    """What the server's index lists as open: two lobbies (one by invitation), a game in play, and a
    lobby in a channel @everyone cannot see (not listed)."""
    lobby = world.lobby

    def options(game: str, **chosen) -> dict:
        return REGISTRY[game].engine.check_options(chosen)

    donguri = await lobby.open("donguri", guild_id=GUILD, channel_id=2000, host=(1, "alice"), size=4,
                               options=options("donguri", length="short"), language="en", clock=300)
    await lobby.join(donguri.id, (2, "bob"))
    await lobby.open("othello_torite", guild_id=GUILD, channel_id=2000, host=(3, "carol"), size=2,
                     options=options("othello_torite"), language="en", guests=[Guest(4, "dave")])
    await lobby.open("saizen", guild_id=GUILD, channel_id=HIDDEN, host=(5, "erin"), size=2, options=options("saizen"),
                     language="en")
    await seated_table(world, "saizen", seed=5)


async def main(out: pathlib.Path, only: list[str]) -> None:
    register_games()
    with tempfile.TemporaryDirectory() as directory:
        store = await Store.open(str(pathlib.Path(directory) / "web.sqlite3"))
        world = platform(store)
        site = make_site(store, world)
        for seed in range(1, 7):
            await rated_game(world, "othello_torite", seed=seed)
        swiss = await create(world, players=9, rounds=3, guild_id=GUILD, name="Autumn Cup")
        await world.events.start(swiss.id)
        await play_round(world, swiss.id)
        await world.events.next_round(swiss.id)
        knockout = await create(world, game="saizen", players=8, format="elimination", table_size=2,
                                guild_id=GUILD, name="Saizen Knockout")
        await run_event(world, knockout.id)
        await open_tables(world)
        rows = PageRows(store.db)
        gateway = Gateway(lambda: 0.041)
        await gateway.up()
        metrics = Metrics()
        groups = [EventRoutes(site, world.events, rows.event_stamps, EventFeed(rows.event_stamps)),
                  BoardRoutes(site, world.ratings, world.events.store),
                  OperatorRoutes(Health(rows, gateway, lambda: 0, metrics), metrics)]
        feed = LiveFeed(site.read, store.versions)
        app, routes = create_app(site, feed, groups)
        runner = web.AppRunner(app, access_log=None, shutdown_timeout=1)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        base = f"http://127.0.0.1:{runner.addresses[0][1]}"
        board = await world.ratings.leaderboard(GUILD, "othello_torite")
        pages = {
            "server": site.server_path(GUILD),
            "leaderboard": site.server_path(GUILD, "/othello_torite"),
            "profile": site.server_path(GUILD, f"/othello_torite/{site.player_token(GUILD, board[0].user_id)}"),
            "event-swiss": site.event_path(swiss.id),
            "event-elimination": site.event_path(knockout.id),
            "healthz": "/healthz",
        }
        pages = {name: path for name, path in pages.items() if not only or name in only}
        try:
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
                for language in ("en", "ja"):
                    for width, height in WIDTHS.items():
                        page = await browser.new_page(viewport={"width": width, "height": height})
                        for name, path in pages.items():
                            await page.goto(f"{base}{path}?lang={language}" if name != "healthz" else base + path)
                            target = out / language / f"{name}-{width}.png"
                            target.parent.mkdir(parents=True, exist_ok=True)
                            tall = await page.evaluate("document.documentElement.scrollHeight")
                            await page.screenshot(path=str(target), full_page=tall <= TALLEST,
                                                  clip=None if tall <= TALLEST else {"x": 0, "y": 0, "width": width, "height": TALLEST})
                            print(target)
                        await page.close()
                await browser.close()
        finally:
            routes.closing = True
            await feed.close()
            for group in groups:
                await group.close()
            await runner.cleanup()
            await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=pathlib.Path)
    parser.add_argument("--page", action="append", default=[], help="only these pages (server, leaderboard …)")
    arguments = parser.parse_args()
    asyncio.run(main(arguments.out, arguments.page))
