"""Profile the bot under a closed loop of moves: ``python benchmarks/profile_load.py [--tables N]
[--seconds S] [--out FILE]``; prints the top functions by own time and by cumulative time.

Same fake Discord and driver as ``benchmarks/load.py``; the bot runs under cProfile
(``benchmarks/profiled_bot.py``), so its absolute speed is lower than in ``load.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import pathlib
import pstats
import random
import sys
import tempfile
import time
from collections import Counter

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from benchmarks.load_driver import closed_loop, open_lanes  # noqa: E402
from tests.support.bot_process import TOKEN, BotProcess  # noqa: E402
from tests.support.discord_traffic import count_by_kind  # noqa: E402
from tests.support.fake_discord import FakeDiscord  # noqa: E402
from tests.support.players import Players  # noqa: E402


async def run(args: argparse.Namespace) -> None:
    rng = random.Random(1)
    with tempfile.TemporaryDirectory(prefix="tabletop-prof-") as tmp:
        root = pathlib.Path(tmp)
        async with FakeDiscord(token=TOKEN) as fake:
            module = "bot" if args.py_spy else "benchmarks.profiled_bot"
            bot = BotProcess(fake, root, module=module)
            await bot.start_ready()
            players = Players(fake, rng)
            failures: list[str] = []
            started = time.monotonic()
            lanes = await open_lanes(fake, players, bot.database, args.tables, failures)
            print(f"{len(lanes)} tables open in {time.monotonic() - started:.1f} s; failures {failures[:3]}")
            await fake.quiet(1.0, timeout=300)
            cpu0 = bot.cpu_seconds()
            spy = None
            if args.py_spy:  # a sampling profile of every thread, as collapsed stacks
                spy = await asyncio.create_subprocess_exec(
                    args.py_spy, "record", "-p", str(bot.pid), "-o", args.out, "--format", "raw",
                    "-d", str(int(args.seconds)), "-r", "200", "--threads",
                    stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
                )
            tally = await closed_loop(fake, players, lanes, args.tables, args.seconds, rng, bot.database)
            cpu = bot.cpu_seconds() - cpu0
            calls = fake.calls_between(tally.started, tally.ended)
            moves = max(tally.accepted, 1)
            print(
                f"moves {tally.accepted} ({tally.accepted / tally.seconds:.0f}/s), bot CPU {1000 * cpu / moves:.1f} ms"
                f" per move, unanswered {tally.unanswered}, refused {tally.refused}, stuck {tally.stuck}"
            )
            kinds = count_by_kind(calls)
            print("REST per move:", {k: round(v / moves, 2) for k, v in sorted(kinds.items())})
            print("errors:", bot.errors()[:5])
            if spy is not None:
                await spy.wait()
            await bot.stop(timeout=60)
            print("\n".join(bot.lines[-5:]))
        if args.py_spy:
            print_collapsed(args.out, args.top)
            return
        stats = pstats.Stats(str(root / "bot.prof"))
        if args.out:
            stats.dump_stats(args.out)
        stats.sort_stats("tottime").print_stats(args.top)
        stats.sort_stats("cumulative").print_stats(args.top)


def print_collapsed(path: str, top: int) -> None:
    """Own and total samples per function from py-spy's collapsed stacks."""
    own: Counter[str] = Counter()
    total: Counter[str] = Counter()
    samples = 0
    for line in pathlib.Path(path).read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        frames = [f.split(" (")[0] + " " + f.rsplit("/", 1)[-1].rstrip(")") for f in stack.split(";")]
        n = int(count)
        samples += n
        own[frames[-1]] += n
        for frame in set(frames):
            total[frame] += n
    print(f"{samples} samples")
    for title, counter in (("own", own), ("total", total)):
        print(f"---- by {title} samples")
        for frame, n in counter.most_common(top):
            print(f"{100 * n / samples:5.1f}%  {frame}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--top", type=int, default=45)
    parser.add_argument("--out", default="/tmp/bot-profile")
    parser.add_argument("--py-spy", help="sample with this py-spy binary instead of cProfile")
    args = parser.parse_args()
    asyncio.run(run(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
