"""Where a turn's hand-off waits: the closed loop of ``handoff.py`` against the bot with its
delivery worker traced (``benchmarks/traced_bot.py``), then the trace summed up.

Usage: nice python benchmarks/handoff_trace.py [--tables 100] [--seconds 10] [--rate 0] [--budget 0] [--out FILE]

Prints, as p50 / p90 / p99 / max in ms: the event loop's lag; a click's wait from its gateway
frame to its handler, and the handler's time; a pass's wait from the first request to its start,
and its length; each surface's time and how often it was put off (``Later``), and for how long.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import pathlib
import random
import sys
import tempfile
from collections import Counter, defaultdict  # noqa: F401

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from benchmarks.handoff import run_options  # noqa: E402
from benchmarks.load import handoff, handoff_text  # noqa: E402
from benchmarks.load_driver import closed_loop, open_lanes, open_loop  # noqa: E402
from tests.support.bot_process import TOKEN, BotProcess  # noqa: E402
from tests.support.fake_discord import FakeDiscord  # noqa: E402
from tests.support.players import Players  # noqa: E402


def spread(values: list[float]) -> str:
    """p50 / p90 / p99 / max of seconds, in ms."""
    if not values:
        return "-"
    values = sorted(values)
    at = [values[min(int(q * len(values)), len(values) - 1)] for q in (0.5, 0.9, 0.99)] + [values[-1]]
    return " / ".join(f"{1000 * v:.0f}" for v in at) + f" ({len(values)})"


def summed(trace: dict, since: float) -> str:
    moves = [m for m in trace["moves"] if m["start"] >= since]
    passes = [p for p in trace["passes"] if p["start"] >= since]
    lines = [f"loop lag: {spread(trace['lag'][-int(len(trace['lag']) * 0.9):])}"]
    for what, values in trace.get("db", {}).items():  # the whole run's, setup included
        lines.append(f"database, {what}: {spread(values[-int(len(values) * 0.8):])}")
    lines.append(f"click, frame to handler: {spread([(m['start_wall_ms'] - m['frame_wall_ms']) / 1000 for m in moves])}")
    lines.append(f"click, handler: {spread([m['end'] - m['start'] for m in moves])}")
    for kind in sorted({p.get("kind", "pass") for p in passes}):
        these = [p for p in passes if p.get("kind", "pass") == kind]
        lines.append(f"{kind}, asked to start: {spread([p['start'] - p['asked'] for p in these if p['asked']])}")
        lines.append(f"{kind}, length: {spread([p['end'] - p['start'] for p in these])}")
        lines.append(f"{kind}, tables running at start: {spread([p['running'] / 1000 for p in these])} (x1000)")
        lines.append(f"{kind}, queued at start: {spread([p['queued'] / 1000 for p in these])} (x1000)")
    times: defaultdict[str, list[float]] = defaultdict(list)
    outcomes: defaultdict[str, Counter] = defaultdict(Counter)
    delays: defaultdict[str, list[float]] = defaultdict(list)
    for p in passes:
        for s in p["surfaces"]:
            times[s["name"]].append(s["end"] - s["start"])
            outcome = s.get("outcome", "done")
            outcomes[s["name"]][outcome.split()[0]] += 1
            if outcome.startswith("later"):
                delays[s["name"]].append(float(outcome.split()[1]))
        hands = [s for s in p["surfaces"] if s["name"] == "token_edit"]
        if hands:
            times[f"{p.get('kind', 'pass')} start to token edit's end"].append(hands[0]["end"] - p["start"])
    for name, values in times.items():
        extra = f"; {dict(outcomes[name])}" if outcomes[name] else ""
        if delays[name]:
            extra += f"; put off for {spread(delays[name])}"
        lines.append(f"{name}: {spread(values)}{extra}")
    return "\n".join(lines)


async def run(args: argparse.Namespace, root: pathlib.Path) -> None:
    rng = random.Random(args.seed)
    async with FakeDiscord(token=TOKEN) as fake:
        bot = BotProcess(fake, root, f"rest_budget = {args.budget}", module="benchmarks.traced_bot")
        bot.env["TABLETOP_TRACE"] = str(root / "trace.json")
        await bot.start_ready()
        players = Players(fake, rng)
        lanes = await open_lanes(fake, players, bot.database, args.tables, [])
        await fake.quiet(1.0, timeout=300)
        await closed_loop(fake, players, lanes, args.tables, 1.0, rng, bot.database)
        if args.rate:
            await fake.quiet(1.0, timeout=300)
            tally = await open_loop(fake, players, lanes, args.tables, args.rate, args.seconds, rng, bot.database)
        else:
            tally = await closed_loop(fake, players, lanes, args.tables, args.seconds, rng, bot.database)
        print(f"{tally.accepted / tally.seconds:.0f} moves/s, hand-off {handoff_text(handoff([tally]))}")
        await bot.stop(timeout=60)
        print("\n".join(bot.errors()[:5]))
    trace = json.loads((root / "trace.json").read_text())
    if args.out:
        pathlib.Path(args.out).write_text(json.dumps({**trace, "since": tally.started}))
    print(summed(trace, tally.started))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--rate", type=int, default=0, help="moves/s of an open loop instead (0: a closed loop)")
    run_options(parser)
    parser.add_argument("--out", help="also keep the trace in this file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tabletop-trace-") as tmp:
        asyncio.run(run(args, pathlib.Path(tmp)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
