"""The turn hand-off, two checkouts side by side in one run: from a click to the next player's DM
showing their turn (issue 35, item 8; a benchmark, not a test).

Usage: nice python benchmarks/handoff.py [--before DIR] [--closed 100] [--open 1000] [--rate 100]
       [--rounds 3] [--seconds 10] [--budget 0] [--json FILE]

Each bot is the real entry point against a loopback fake Discord of its own: this checkout, and
with ``--before`` the one in DIR (a worktree of an earlier commit, run on this one's driver). Both
get ``--closed`` started 3-player Donguri tables played in a closed loop (a member presses a card
only once their own DM shows it, as ``load_driver`` plays), then ``--open`` tables where moves
arrive at ``--rate`` per second. The bots take turns, round by round, so that a busy machine
weighs on both alike. ``--budget`` is the bots' ``rest_budget`` (0: none, as in ``load.py``'s
measures of CPU and latency; 45: Discord's global limit, as in production).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import pathlib
import random
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from benchmarks.load import handoff, handoff_text, summary  # noqa: E402
from benchmarks.load_driver import Lane, Tally, closed_loop, in_play, open_lanes, open_loop  # noqa: E402
from tests.support.bot_process import TOKEN, BotProcess  # noqa: E402
from tests.support.fake_discord import FakeDiscord  # noqa: E402
from tests.support.players import Players  # noqa: E402


class Bot:
    """One checkout's bot, its fake Discord, its tables and its measures."""

    def __init__(self, name: str, fake: FakeDiscord, bot: BotProcess, rng: random.Random) -> None:
        self.name, self.fake, self.bot = name, fake, bot
        self.players = Players(fake, rng)
        self.lanes: list[Lane] = []
        self.closed: list[Tally] = []
        self.opened: list[Tally] = []
        self.cpu = {"closed": 0.0, "open": 0.0}

    async def tables(self, count: int) -> None:
        missing = count - len(in_play(self.lanes, count))
        if missing > 0:
            failures: list[str] = []
            self.lanes += await open_lanes(self.fake, self.players, self.bot.database, missing, failures)
            if failures:
                print(f"{self.name}: {len(failures)} tables not set up: {failures[:3]}", flush=True)
        await self.fake.quiet(1.0, timeout=600)

    async def measure(self, kind: str, count: int, rate: float, seconds: float, rng: random.Random) -> Tally:
        await self.fake.quiet(1.0, timeout=600)  # the last measure's backlog is done
        cpu = self.bot.cpu_seconds()
        database = self.bot.database
        if kind == "closed":
            tally = await closed_loop(self.fake, self.players, self.lanes, count, seconds, rng, database)
        else:
            tally = await open_loop(self.fake, self.players, self.lanes, count, rate, seconds, rng, database)
        self.cpu[kind] += self.bot.cpu_seconds() - cpu
        (self.closed if kind == "closed" else self.opened).append(tally)
        row = handoff([tally])
        print(
            f"{self.name} {kind}: {tally.accepted / tally.seconds:.0f} moves/s, hand-off {handoff_text(row)}",
            flush=True,
        )
        return tally

    def result(self, kind: str) -> dict:
        tallies = self.closed if kind == "closed" else self.opened
        out = summary(tallies, self.fake, self.cpu[kind])
        out["errors_logged"] = len(self.bot.errors())
        out["error_lines"] = self.bot.errors()[:10]
        return out


async def run(args: argparse.Namespace, root: pathlib.Path) -> dict:
    rng = random.Random(args.seed)
    checkouts = {"after": None}
    if args.before:
        checkouts = {"before": pathlib.Path(args.before).resolve(), **checkouts}
    async with contextlib.AsyncExitStack() as stack:
        bots: list[Bot] = []
        for name, checkout in checkouts.items():
            fake = await stack.enter_async_context(FakeDiscord(token=TOKEN))
            (root / name).mkdir()
            process = BotProcess(fake, root / name, f"rest_budget = {args.budget}")
            if checkout is not None:  # that checkout's bot, on this one's interpreter and driver
                process.env["PYTHONPATH"] = str(checkout)
                if not (checkout / "bot" / "web").is_dir():  # a bot from before the web pages knows no web_port
                    kept = [line for line in process.config.read_text().splitlines() if not line.startswith("web_port")]
                    process.config.write_text("\n".join(kept) + "\n")
            await process.start_ready()
            stack.push_async_callback(process.stop)
            bots.append(Bot(name, fake, process, rng))
        for bot in bots:
            started = time.monotonic()
            await bot.tables(args.closed)
            print(f"{bot.name}: {args.closed} tables open in {time.monotonic() - started:.0f} s", flush=True)
        for bot in bots:  # warm-up
            await closed_loop(bot.fake, bot.players, bot.lanes, args.closed, 1.0, rng, bot.bot.database)
        for _ in range(args.rounds):
            for bot in bots:
                await bot.measure("closed", args.closed, 0, args.seconds, rng)
        if args.open:
            for bot in bots:
                started = time.monotonic()
                await bot.tables(args.open)
                print(f"{bot.name}: {args.open} tables open in {time.monotonic() - started:.0f} s", flush=True)
            for bot in bots:  # warm-up: a table's first edits are dearer (discord.py's buckets, caches)
                await open_loop(bot.fake, bot.players, bot.lanes, args.open, args.rate, args.seconds, rng, bot.bot.database)
            for _ in range(args.rounds):
                for bot in bots:
                    await bot.measure("open", args.open, args.rate, args.seconds, rng)
        return {
            "args": {k: v for k, v in vars(args).items()},
            "stamp": time.strftime("%Y-%m-%d %H:%M"),
            **{bot.name: {"closed": bot.result("closed"), **({"open": bot.result("open")} if args.open else {})} for bot in bots},
        }


def report(out: dict) -> str:
    args = out["args"]
    names = [n for n in ("before", "after") if n in out]
    lines = ["| Measure | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    kinds = [("closed", f"{args['closed']} tables, closed loop")]
    if args["open"]:
        kinds.append(("open", f"{args['open']} tables, {args['rate']} moves/s"))
    for kind, title in kinds:
        rows = [out[n][kind] for n in names]
        lines.append(f"| Hand-off, {title} | " + " | ".join(handoff_text(r) for r in rows) + " |")
        lines.append(
            f"| Moves/s, p50/p99 per click, bot CPU per move ({title}) | "
            + " | ".join(
                f"{r['moves_per_s']:.0f}, {r['p50_ms']:.0f}/{r['p99_ms']:.0f} ms, {r['cpu_ms_per_move']:.2f} ms"
                for r in rows
            )
            + " |"
        )
        lines.append(
            f"| REST calls per move, unanswered, errors ({title}) | "
            + " | ".join(f"{r['calls_per_move_total']}, {r['unanswered']}, {r['errors_logged']}" for r in rows)
            + " |"
        )
    return "\n".join(lines)


def run_options(parser: argparse.ArgumentParser) -> None:
    """How long a measure runs, the bot's REST budget and the players' seed (handoff_trace.py too)."""
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each measure (10)")
    parser.add_argument("--budget", type=int, default=0, help="the bots' rest_budget (0: none)")
    parser.add_argument("--seed", type=int, default=1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", help="a checkout of the code to compare with (its bot runs beside this one's)")
    parser.add_argument("--closed", type=int, default=100, help="tables of the closed loop (100)")
    parser.add_argument("--open", type=int, default=1000, help="tables of the open loop (1000; 0: none)")
    parser.add_argument("--rate", type=int, default=100, help="moves/s of the open loop (100)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each measure, the bots taking turns (3)")
    run_options(parser)
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tabletop-handoff-") as tmp:
        out = asyncio.run(run(args, pathlib.Path(tmp)))
    print(f"{out['stamp']}: {args.rounds} rounds of {args.seconds:g} s, rest_budget = {args.budget}")
    print(report(out))
    for name in ("before", "after"):
        for kind in ("closed", "open"):
            for line in out.get(name, {}).get(kind, {}).get("error_lines", []):
                print(f"{name} {kind}: {line}")
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(out, indent=2, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
