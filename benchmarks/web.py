"""The web pages' speed (issue 37): a page's p99 at 100 requests/s with 1,000 stored tables, how soon
a live page shows a move committed by another process, and what 1,000 open live views cost idle.

Usage: nice python benchmarks/web.py [--tables 1000] [--rate 100] [--seconds 20] [--views 1000]

The pages are served by a process of their own (``--serve``), as the bot serves them, over a SQLite
database this script fills first with tables of every game (a fifth left in play, the rest played to
their end and rated), a tournament after a round, and their ratings. This process then asks at a fixed
rate (an open loop: a slow answer does not slow the asking) for a mix of pages, times each answer,
commits moves as another process sharing the database would, and holds the live views open.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import pathlib
import random
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402
from aiohttp import web  # noqa: E402

from bot.storage.pages import PageRows  # noqa: E402
from bot.storage.store import Store  # noqa: E402
from bot.web.app import create_app  # noqa: E402
from bot.web.boards import BoardRoutes  # noqa: E402
from bot.web.event_pages import EventFeed, EventRoutes  # noqa: E402
from bot.web.live import LiveFeed  # noqa: E402
from tests.events.test_tournaments import create, play_round  # noqa: E402
from tests.support.platform import platform  # noqa: E402
from tests.support.web import GAMES, GUILD, make_site, play, register_games, seated_table  # noqa: E402

PORT = 8391


async def fill(path: str, count: int) -> None:
    """``count`` tables of every game in turn: every fifth in play, the others finished and rated."""
    register_games()
    store = await Store.open(path)
    world = platform(store)
    games = sorted(GAMES)
    started = time.perf_counter()
    for i in range(count):
        table_id = await seated_table(world, games[i % len(games)], seed=i)
        if i % 5 == 0:
            await play(world, table_id, moves=3, seed=i)
            continue
        await store.update_table(table_id, rated=1)
        await play(world, table_id, seed=i)
        await world.ratings.settle(await world.tables.table(table_id))
    tournament = await create(world, players=12, rounds=3, guild_id=GUILD)
    await world.events.start(tournament.id)
    await play_round(world, tournament.id)
    await world.events.next_round(tournament.id)
    print(f"filled {count} tables in {time.perf_counter() - started:.0f} s", flush=True)
    await store.close()


async def serve(path: str, port: int) -> None:
    """The pages over the database, as the bot serves them (``bot/web``), until killed."""
    register_games()
    store = await Store.open(path)
    world = platform(store)
    site = make_site(store, world)
    rows = PageRows(store.db)
    groups = [EventRoutes(site, world.events, rows.event_stamps, EventFeed(rows.event_stamps)),
              BoardRoutes(site, world.ratings, world.events.store)]
    app, _routes = create_app(site, LiveFeed(site.read, store.versions), groups)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    print("serving", flush=True)
    await asyncio.Event().wait()


async def addresses(path: str) -> tuple[list[str], list[str], list[int], list[str]]:
    """Every page (live pages, replays, the event, the leaderboard and profiles), the pages of what
    is in play (live pages, the event, the leaderboard), the running tables, and their live streams.
    A replay's steps and a table's picture are not pages: a page asks for them once shown."""
    register_games()
    store = await Store.open(path)
    world = platform(store)
    site = make_site(store, world)
    running = [t.id for t in await store.tables_with_status("running")]
    finished = [t for t in await store.tables_with_status("finished")]
    board = await world.ratings.leaderboard(GUILD, "othello_torite", 20)
    (tournament,) = await world.events.store.with_status("running")
    playing = [site.path(t) for t in running] + [site.event_path(tournament.id), site.server_path(GUILD, "/othello_torite")]
    pages = playing + [site.path(t.id, "/replay") for t in finished]
    pages += [site.server_path(GUILD, f"/othello_torite/{site.player_token(GUILD, p.user_id)}") for p in board]
    streams = [site.path(t, "/live") for t in running]
    await store.close()
    return pages, playing, running, streams


def rss_kb(pid: int) -> int:
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def load(base: str, pages: list[str], rate: float, seconds: float, pid: int) -> dict[str, float]:
    """Ask for pages at ``rate`` a second for ``seconds``, each on time whatever the last took; with
    the server's CPU time per request (what a busy machine cannot take away)."""
    cpu = cpu_seconds(pid)
    chooser = random.Random(1)
    times: list[float] = []
    errors = 0
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
        async def one(path: str) -> None:
            nonlocal errors
            started = time.perf_counter()
            async with http.get(base + path + "?lang=" + chooser.choice(("en", "ja"))) as answer:
                await answer.read()
                if answer.status != 200:
                    errors += 1
            times.append((time.perf_counter() - started) * 1000)

        begin = time.perf_counter()
        tasks = []
        for i in range(int(rate * seconds)):
            delay = begin + i / rate - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            tasks.append(asyncio.create_task(one(chooser.choice(pages))))
        await asyncio.gather(*tasks)
        took = time.perf_counter() - begin
    return {"requests": len(times), "errors": errors, "rate": len(times) / took,
            "p50": statistics.median(times), "p99": percentile(times, 0.99), "max": max(times),
            "cpu_ms": (cpu_seconds(pid) - cpu) * 1000 / len(times)}


async def next_table_event(stream: aiohttp.ClientResponse) -> None:
    while True:
        line = await stream.content.readline()
        if not line:
            raise EOFError
        if line.startswith(b"event: table"):
            return


async def live_latency(base: str, path: str, running: list[int], moves: int) -> list[float]:
    """From a move's commit (by this process, as another bot process would) to its page's event."""
    register_games()
    store = await Store.open(path)
    world = platform(store)
    site = make_site(store, world)
    found: list[float] = []
    async with aiohttp.ClientSession() as http:
        for table_id in running[:moves]:
            table = await world.tables.table(table_id)
            async with http.get(f"{base}{site.path(table_id, '/live')}?v={table.version}") as stream:
                await asyncio.sleep(0.3)  # the page is open and waiting
                await play(world, table_id, moves=1, seed=table_id)
                committed = time.perf_counter()
                await asyncio.wait_for(next_table_event(stream), 5)
                found.append((time.perf_counter() - committed) * 1000)
    await store.close()
    return found


async def idle_views(base: str, streams: list[str], count: int, pid: int, idle: float) -> dict[str, float]:
    """Open ``count`` live views (spread over the running tables), then measure the server idle."""
    rss_before = rss_kb(pid)
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=None)) as http:
        opened = []
        for i in range(count):
            response = await http.get(base + streams[i % len(streams)])
            await response.content.readline()  # the first event's line: the view is open
            opened.append(response)
        await asyncio.sleep(2)
        rss_open = rss_kb(pid)
        cpu_start, wall_start = cpu_seconds(pid), time.perf_counter()
        await asyncio.sleep(idle)
        cpu = (cpu_seconds(pid) - cpu_start) / (time.perf_counter() - wall_start)
        for response in opened:
            response.close()
    print(f"  (views: RSS {rss_before} kB before, {rss_open} kB open)")
    return {"views": count, "rss_before_mb": rss_before / 1024, "rss_open_mb": rss_open / 1024,
            "added_mb": (rss_open - rss_before) / 1024, "idle_cpu_percent": cpu * 100}


async def main(args: argparse.Namespace) -> None:
    folder = tempfile.mkdtemp(prefix="web-bench-")
    path = f"{folder}/web.sqlite3"
    await fill(path, args.tables)
    pages, playing, running, streams = await addresses(path)
    server = subprocess.Popen([sys.executable, __file__, "--serve", path, "--port", str(args.port)],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None and server.stdout.readline().strip() == "serving"
        base = f"http://127.0.0.1:{args.port}"
        await load(base, pages, args.rate, 3, server.pid)  # warm: the server's code loaded and run once
        for name, mix in (("every page", pages), ("pages in play", playing)):
            result = await load(base, mix, args.rate, args.seconds, server.pid)
            print(f"{name} ({len(mix)} addresses, both languages): {result['requests']} at {result['rate']:.0f}/s,"
                  f" {result['errors']} errors; p50 {result['p50']:.1f} ms, p99 {result['p99']:.1f} ms,"
                  f" max {result['max']:.1f} ms; the server's CPU {result['cpu_ms']:.2f} ms a request", flush=True)
        latencies = await live_latency(base, path, running, args.moves)
        print(f"live: {len(latencies)} moves by another process, page told after p50"
              f" {statistics.median(latencies):.0f} ms, max {max(latencies):.0f} ms")
        views = await idle_views(base, streams, args.views, server.pid, args.idle)
        print(f"views: {views['views']} open live views add {views['added_mb']:.1f} MB"
              f" ({views['rss_before_mb']:.0f} -> {views['rss_open_mb']:.0f} MB);"
              f" idle CPU {views['idle_cpu_percent']:.1f}% of a core over {args.idle:.0f} s")
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=100.0)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--views", type=int, default=1000)
    parser.add_argument("--idle", type=float, default=30.0)
    parser.add_argument("--port", type=int, default=PORT)
    parser.add_argument("--serve", metavar="DATABASE", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    with contextlib.suppress(KeyboardInterrupt):
        if arguments.serve:
            asyncio.run(serve(arguments.serve, arguments.port))
        else:
            asyncio.run(main(arguments))
