"""Screenshots of the web pages: ``python tools/web_preview.py OUT [--game donguri] [--language ja]``.

Plays a table of every game with the platform's own services on a fresh database (one left in
play, one played to its end), serves the pages on a local port, and saves what Debian's
``chromium`` shows of each game's live page (in play and finished) and replay (mid-game and at its end) at 420 and 1280 px,
in English and in Japanese: ``OUT/<language>/<game>-live-420.png``, ``…-replay-420.png``,
``…-replay-end-420.png`` … (``fonts-noto-cjk`` for Japanese, ``fonts-noto-color-emoji`` for the
games' symbols). ``--serve``
keeps the pages up to look at them in a browser.
"""

from __future__ import annotations

import argparse
import asyncio
import pathlib
import shutil
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from aiohttp import web  # noqa: E402

from bot.storage.store import Store  # noqa: E402
from bot.web.app import create_app  # noqa: E402
from bot.web.live import LiveFeed  # noqa: E402
from tests.support.platform import platform  # noqa: E402
from tests.support.web import GAMES, make_site, play, register_games, seated_table  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or "chromium"
WIDTHS = {420: 2400, 1280: 1500}  # width: window height (the page is cut there)
#: Moves made before the live page's screenshot: mid-game, with a trick on the table.
MOVES = {"donguri": 5, "arsene": 9, "saizen": 7, "othello_torite": 9, "final_quest": 3}


async def shoot(url: str, out: pathlib.Path, width: int) -> None:
    """The page as loaded (no virtual time: a live page's open event stream would hold it forever)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    proc = await asyncio.create_subprocess_exec(
        CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
        "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
        f"--window-size={width},{WIDTHS[width]}", f"--screenshot={out}", url,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
    )
    await proc.wait()
    print(out)


async def main(out: pathlib.Path, games: list[str], languages: list[str], serve: bool, replay_step: int | None) -> None:
    register_games()
    with tempfile.TemporaryDirectory() as directory:
        store = await Store.open(str(pathlib.Path(directory) / "web.sqlite3"))
        services = platform(store)
        site = make_site(store, services)
        tables = {}
        for game in games:
            live = await seated_table(services, game, seed=11)
            await play(services, live, MOVES[game])
            done = await seated_table(services, game, seed=12)
            await play(services, done)
            tables[game] = (live, done)
        feed = LiveFeed(site.read, store.versions)
        app, routes = create_app(site, feed)
        runner = web.AppRunner(app, access_log=None, shutdown_timeout=1)
        await runner.setup()
        server = web.TCPSite(runner, "127.0.0.1", 0)
        await server.start()
        port = runner.addresses[0][1]
        base = f"http://127.0.0.1:{port}"
        try:
            if serve:
                for game, (live, done) in tables.items():
                    print(game, base + site.path(live), base + site.path(done, "/replay"))
                await asyncio.Event().wait()
            for language in languages:
                for game, (live, done) in tables.items():
                    replay = f"{base}{site.path(done, '/replay')}?lang={language}"
                    middle = MOVES[game] if replay_step is None else replay_step
                    for width in WIDTHS:
                        await shoot(f"{base}{site.path(live)}?lang={language}", out / language / f"{game}-live-{width}.png", width)
                        await shoot(f"{base}{site.path(done)}?lang={language}", out / language / f"{game}-finished-{width}.png", width)
                        await shoot(f"{replay}&step={middle}", out / language / f"{game}-replay-{width}.png", width)
                        await shoot(replay, out / language / f"{game}-replay-end-{width}.png", width)
        finally:
            routes.closing = True
            await feed.close()
            await runner.cleanup()
            await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=pathlib.Path)
    parser.add_argument("--game", choices=sorted(GAMES), action="append")
    parser.add_argument("--language", choices=["en", "ja"], action="append")
    parser.add_argument("--step", type=int, help="the replay's step to show besides its end (default: mid-game)")
    parser.add_argument("--serve", action="store_true", help="print the pages' addresses and keep serving")
    args = parser.parse_args()
    asyncio.run(main(args.out, args.game or list(GAMES), args.language or ["en", "ja"], args.serve, args.step))
