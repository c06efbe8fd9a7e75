"""Whether the web pages slow the game (issue 44): move answers of the real bot with and without
page traffic beside them, side by side in one run, and with thousands of live streams open.

Usage: nice python benchmarks/pages_beside_moves.py [--stored 1000] [--tables 100] [--moves 50]
       [--pages 100] [--seconds 15] [--rounds 2] [--streams 2000] [--json FILE]

The real entry point runs against the loopback fake Discord with its pages on, over a SQLite file
first filled (``benchmarks/web.py``'s ``fill``) with ``--stored`` tables of every game (a fifth in
play, the rest finished and rated), a tournament and ratings. ``--tables`` Donguri tables are then
opened through the fake and played by its members at ``--moves`` a second (an open loop, Poisson).
Windows take turns, so a busy machine weighs on both alike:
* moves alone;
* moves with ``--pages`` page requests a second (an open loop) over a random mix of every page of
  the stored tables and of the tables in play (live pages, their pictures, replays, replay steps
  and their pictures, exports, the event, the leaderboard and profiles), in both languages;
then ``--streams`` live streams are opened over the tables in play and the moves run once more,
``/healthz`` asked every half second meanwhile.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import pathlib
import random
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402

from benchmarks.load_driver import Tally, open_lanes, open_loop, percentile  # noqa: E402
from benchmarks.web import addresses, cpu_seconds, fill, load  # noqa: E402
from bot.storage.store import Store  # noqa: E402
from tests.support.bot_process import TOKEN, BotProcess  # noqa: E402
from tests.support.fake_discord import FakeDiscord  # noqa: E402
from tests.support.platform import platform  # noqa: E402
from tests.support.players import Players  # noqa: E402
from tests.support.web import SECRET, make_site, register_games  # noqa: E402

PORT = 8392


def moves_row(tallies: list[Tally]) -> dict[str, float]:
    lat = sorted(ms for t in tallies for ms in t.latencies_ms())
    seconds = sum(t.seconds for t in tallies)
    return {
        "moves": sum(t.accepted for t in tallies),
        "moves_per_s": sum(t.accepted for t in tallies) / seconds,
        "p50_ms": percentile(lat, 0.5),
        "p99_ms": percentile(lat, 0.99),
        "unanswered": sum(t.unanswered for t in tallies),
        "not_taken": sum(t.refused for t in tallies),
    }


async def lane_pages(path: pathlib.Path, table_ids: list[int]) -> tuple[list[str], list[str]]:
    """The live pages and pictures of the tables in play through the fake, and their streams."""
    register_games()
    store = await Store.open(str(path))
    site = make_site(store, platform(store))
    pages = [site.path(t) for t in table_ids] + [site.path(t, "/table.png") for t in table_ids]
    streams = [site.path(t, "/live") for t in table_ids]
    await store.close()
    return pages, streams


async def replay_steps(path: pathlib.Path, count: int) -> list[str]:
    """Replay steps (JSON and pictures) of finished tables, as a replay page asks for them."""
    register_games()
    store = await Store.open(str(path))
    site = make_site(store, platform(store))
    rng = random.Random(2)
    finished = await store.tables_with_status("finished")
    out = []
    for table in rng.sample(finished, min(count, len(finished))):
        out.append(site.path(table.id, f"/replay/{rng.randint(0, 20)}.{rng.choice(('json', 'png'))}"))
        out.append(site.path(table.id, "/export.json"))
    await store.close()
    return out


async def with_streams(base: str, streams: list[str], count: int, moves, seconds: float) -> dict:
    """``count`` open live streams over the tables in play, read by a process of their own
    (``stream_viewers.py``), while ``moves`` runs; /healthz meanwhile."""
    health: list[int] = []
    viewers = await asyncio.create_subprocess_exec(
        sys.executable, str(ROOT / "benchmarks" / "stream_viewers.py"), base, str(count), *streams,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
    )
    assert viewers.stdout is not None and viewers.stdin is not None
    line = (await viewers.stdout.readline()).decode().split()
    open_s = float(line[1]) if len(line) == 2 and line[0] == "open" else float("nan")
    done = asyncio.Event()
    async with aiohttp.ClientSession() as http:

        async def check() -> None:
            while not done.is_set():
                try:
                    async with http.get(base + "/healthz", timeout=aiohttp.ClientTimeout(total=10)) as answer:
                        health.append(answer.status)
                except (TimeoutError, aiohttp.ClientError):
                    health.append(0)
                await asyncio.sleep(0.5)

        checker = asyncio.create_task(check())
        tally = await moves(seconds)
        done.set()
        await checker
    viewers.stdin.close()
    await viewers.wait()
    return {"streams": count, "opened_in_s": open_s, **moves_row([tally]),
            "healthz": len(health), "healthz_not_200": sum(1 for s in health if s != 200)}


async def run(args: argparse.Namespace) -> dict:
    rng = random.Random(args.seed)
    out: dict = {"args": vars(args)}
    with tempfile.TemporaryDirectory(prefix="tabletop-pages-") as tmp:
        root = pathlib.Path(tmp) / "real"
        root.mkdir()
        database = root / "tabletop.sqlite3"
        await fill(str(database), args.stored)
        async with FakeDiscord(token=TOKEN) as fake:
            players = Players(fake, rng)
            bot = BotProcess(fake, root, "rest_budget = 0", f"web_port = {PORT}", f'web_secret = "{SECRET}"')
            await bot.start_ready()
            assert bot.proc is not None
            pid = bot.proc.pid
            failures: list[str] = []
            lanes = await open_lanes(fake, players, database, args.tables, failures)
            print(f"{len(lanes)} tables in play ({len(failures)} failed to open)", flush=True)
            stored_pages, _playing, _running, _streams = await addresses(str(database))
            live, streams = await lane_pages(database, [lane.table.id for lane in lanes if lane.table])
            mix = stored_pages + live + await replay_steps(database, 200)
            base = f"http://127.0.0.1:{PORT}"
            await fake.quiet(1.0, timeout=300)

            async def moves(seconds: float) -> Tally:
                return await open_loop(fake, players, lanes, len(lanes), args.moves, seconds, rng, database)

            alone: list[Tally] = []
            beside: list[Tally] = []
            page_rows: list[dict] = []
            for n in range(args.rounds):
                await fake.quiet(1.0, timeout=300)
                cpu = cpu_seconds(pid)
                alone.append(await moves(args.seconds))
                print(f"round {n + 1}: moves alone {json.dumps(moves_row(alone[-1:]))}, bot CPU "
                      f"{(cpu_seconds(pid) - cpu) / args.seconds:.0%}", flush=True)
                await fake.quiet(1.0, timeout=300)
                cpu = cpu_seconds(pid)
                tally, pages = await asyncio.gather(moves(args.seconds), load(base, mix, args.pages, args.seconds, pid))
                beside.append(tally)
                page_rows.append(pages)
                print(f"round {n + 1}: moves beside pages {json.dumps(moves_row([tally]))}; pages "
                      f"{json.dumps(pages)}; bot CPU {(cpu_seconds(pid) - cpu) / args.seconds:.0%}", flush=True)
            if args.rounds:  # 0: the streams alone
                out["alone"], out["beside"] = moves_row(alone), moves_row(beside)
                out["pages"] = page_rows
                out["p99_ratio"] = out["beside"]["p99_ms"] / out["alone"]["p99_ms"]
                print(f"moves alone {json.dumps(out['alone'])}\nmoves beside pages {json.dumps(out['beside'])}\n"
                      f"move p99 ratio {out['p99_ratio']:.2f} (goal <= 1.25)", flush=True)
            if args.streams:
                await fake.quiet(1.0, timeout=300)
                before = moves_row([await moves(args.seconds)])
                during = await with_streams(base, streams, args.streams, moves, args.seconds)
                out["streams"] = {"none": before, "open": during, "p99_ratio": during["p99_ms"] / before["p99_ms"]}
                print(f"streams: none {json.dumps(before)}\nstreams: {json.dumps(during)}\n"
                      f"move p99 ratio {out['streams']['p99_ratio']:.2f} (goal <= 1.25)", flush=True)
            out["errors"] = bot.errors()[:20]
            await bot.stop()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--stored", type=int, default=1000, help="stored tables of every game (1000)")
    parser.add_argument("--tables", type=int, default=100, help="Donguri tables played through the fake (100)")
    parser.add_argument("--moves", type=float, default=50, help="moves a second (50)")
    parser.add_argument("--pages", type=float, default=100, help="page requests a second (100)")
    parser.add_argument("--seconds", type=float, default=15, help="length of each window (15)")
    parser.add_argument("--rounds", type=int, default=2, help="pairs of windows, alone and beside pages (2)")
    parser.add_argument("--streams", type=int, default=2000, help="live streams opened at the end (2000; 0: none)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args()
    out = asyncio.run(run(args))
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
