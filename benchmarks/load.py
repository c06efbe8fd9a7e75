"""Load benchmark of the core path: the real entry point against the loopback fake Discord
(a benchmark, not a test; issue #13 lists the goals).

Usage: nice python benchmarks/load.py [--quick] [--tables 1,10,100,1000] [--rates 10,50,100]
       [--seconds S] [--closed 100] [--wide 300] [--stored 10000] [--dirty 1000] [--json FILE]
       nice python benchmarks/load.py --processes 1,2,4 [--database postgresql://…] [--closed 100]
       [--rate 50] [--seconds S]   (several processes on PostgreSQL: see load_processes.py)

Measures, each side by side in one run:
* P1: durable moves/s of the real bot in a closed loop (every table moves again as soon as its
  last move is answered), as a share of a null discord.py bot's (``benchmarks/null_bot.py``: one
  single-row commit and one UPDATE_MESSAGE response per click), with CPU per move; the two bots
  run at once, each against its own fake Discord, and take turns (``--rounds``) so that a busy
  machine weighs on both alike; raw aiosqlite commits/s on this machine. At 100 tables each
  player's DM takes about one edit a second (their turn starts), the most its channel's budget of
  5 per 5 s allows, so P1 is measured again at ``--wide`` tables, where CPU sets the pace (at
  1,000 the bot is past its capacity: DMs lag, and the driver's "My hand" clicks add load); both
  sides report the fake Discord's and driver's CPU per move too, since they share the machine;
* errors under load: clicks of that closed loop not answered, answered late, or not taken, and
  errors the bot logged;
* P2: p50/p99 per interaction (gateway frame sent to callback received) with moves arriving at
  each rate (Poisson) over each number of tables in play;
* P3: REST calls per accepted move by kind, and the busiest channel's calls in any 5 s (in the
  closed loop, and at one table receiving 20 moves/s);
* P5: start-up to ready, and RSS, with ``--stored`` tables in the database; recovery time of
  ``--dirty`` tables left dirty by a crash;
* RSS per 1,000 tables touched since start;
* the closed loop once more with the bot restarted on ``rest_budget = --limited`` (45): Discord lets
  a bot make 50 calls a second besides its answers to clicks, which the measures above, of CPU and
  latency, leave aside (``rest_budget = 0``); reported with its busiest second.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import pathlib
import random
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import aiosqlite  # noqa: E402

from benchmarks.load_driver import (  # noqa: E402
    PATIENCE,
    Tally,
    closed_loop,
    in_play,
    null_lanes,
    open_lanes,
    open_loop,
    percentile,
    seed_tables,
)
from bot.tables.record import RECORD_PACE  # noqa: E402
from tests.support.bot_process import TOKEN, BotProcess, write_config  # noqa: E402
from tests.support.discord_traffic import (  # noqa: E402
    INTERACTION_KINDS,
    busiest_channel,
    busiest_second,
    count_by_kind,
)
from tests.support.fake_discord import FakeDiscord  # noqa: E402
from tests.support.players import Players  # noqa: E402

WARM_UP = 1.0


def ints(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x]


async def raw_commits(directory: pathlib.Path, seconds: float) -> float:
    """Single-row inserts, each committed, through one aiosqlite connection (the bot's pragmas)."""
    async with aiosqlite.connect(directory / "raw.sqlite3") as db:
        for pragma in ("journal_mode=WAL", "synchronous=NORMAL"):
            async with db.execute(f"PRAGMA {pragma}"):
                pass
        await db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)")
        done, start = 0, time.monotonic()
        while time.monotonic() - start < seconds:
            await db.execute("INSERT INTO t (v) VALUES (?)", ("x" * 40,))
            await db.commit()
            done += 1
        return done / (time.monotonic() - start)


def summary(tallies: list[Tally], fake: FakeDiscord, cpu: float = 0.0, fake_cpu: float = 0.0) -> dict:
    """One measure over one or more windows (``tallies``) of the same fake Discord."""
    calls = [c for t in tallies for c in fake.calls_between(t.started, t.ended)]
    accepted = sum(t.accepted for t in tallies)
    seconds = sum(t.seconds for t in tallies)
    moves = max(accepted, 1)
    kinds = count_by_kind(calls)
    lat = sorted(ms for t in tallies for ms in t.latencies_ms())
    return {
        **handoff(tallies),
        "moves": accepted,
        "moves_per_s": accepted / seconds,
        "cpu_ms_per_move": 1000 * cpu / moves,
        "fake_cpu_share": fake_cpu / seconds,
        "fake_cpu_ms_per_move": 1000 * fake_cpu / moves,
        "unanswered": sum(t.unanswered for t in tallies),
        "not_taken": sum(t.refused for t in tallies),
        "late": sum(1 for t in tallies for s in t.sent if s.refused),
        "stuck": sum(t.stuck for t in tallies),
        "p50_ms": percentile(lat, 0.5),
        "p99_ms": percentile(lat, 0.99),
        "calls_per_move": {k: round(v / moves, 2) for k, v in sorted(kinds.items())},
        "calls_per_move_total": round(sum(kinds.values()) / moves, 2),
        # what Discord's global limit counts: every call but the answers to interactions
        "counted_per_move": round(sum(1 for c in calls if c.kind not in INTERACTION_KINDS) / moves, 2),
        "busiest_channel_per_5s": max(
            (busiest_channel(fake.calls_between(t.started, t.ended))[1] for t in tallies), default=0
        ),
    }


def handoff(tallies: list[Tally]) -> dict:
    """From a click to the next player's DM showing their turn (``load_driver.target``)."""
    took = sorted(ms for t in tallies for ms in t.handoffs_ms())
    late = sum(1 for ms in took if ms == float("inf"))
    seconds = sum(t.seconds for t in tallies)
    return {
        "handoffs": len(took),
        "handoff_p50_ms": percentile(took, 0.5),
        "handoff_p99_ms": percentile(took, 0.99),
        "handoff_late": late,  # not shown within PATIENCE (2 s)
        "handoff_late_per_10s": 10 * late / seconds,
    }


def ms(value: float) -> str:
    return f"> {1000 * PATIENCE:.0f} ms" if value == float("inf") else f"{value:.0f} ms"


def handoff_text(row: dict) -> str:
    return (
        f"p50 {ms(row['handoff_p50_ms'])}, p99 {ms(row['handoff_p99_ms'])}, {row['handoff_late']} of"
        f" {row['handoffs']} not shown within {PATIENCE:g} s ({row['handoff_late_per_10s']:.1f} per 10 s)"
    )


class Side:
    """One bot with its own fake Discord, lanes and players, for measuring side by side."""

    def __init__(
        self, fake: FakeDiscord, bot: BotProcess, players: Players, lanes: list, count: int, database
    ):
        self.fake, self.bot, self.players, self.lanes, self.database = fake, bot, players, lanes, database
        self.count = count  # tables in play; a finished one gives way to the next of ``lanes``
        self.rounds: list[tuple[Tally, float, float]] = []

    async def round(self, seconds: float, rng: random.Random) -> None:
        cpu0, mine0 = self.bot.cpu_seconds(), time.process_time()
        tally = await closed_loop(
            self.fake, self.players, self.lanes, self.count, seconds, rng, self.database
        )
        self.rounds.append((tally, self.bot.cpu_seconds() - cpu0, time.process_time() - mine0))

    def summary(self) -> dict:
        tallies = [t for t, _, _ in self.rounds]
        out = summary(
            tallies, self.fake, sum(c for _, c, _ in self.rounds), sum(f for _, _, f in self.rounds)
        )
        out["per_round_moves_per_s"] = [round(t.accepted / t.seconds) for t in tallies]
        return out


async def p1(real: Side, null: Side, rounds: int, seconds: float, rng: random.Random) -> None:
    """Closed-loop rounds, the two bots taking turns, so that a busy machine weighs on both alike."""
    for side in (real, null):
        await closed_loop(side.fake, side.players, side.lanes, side.count, WARM_UP, rng, side.database)
    for _ in range(rounds):
        await null.round(seconds, rng)
        await real.round(seconds, rng)


async def limited(fake: FakeDiscord, bot: BotProcess, players: Players, lanes: list, args, rng) -> dict:
    """The closed loop with the bot restarted on ``rest_budget = args.limited``: what Discord's 50
    calls a second (answers to clicks aside) leave of P1 and P3, and how far the calls stay under it."""
    await fake.quiet(1.0, timeout=600)
    await bot.stop()
    bot.config = write_config(bot.directory, 'log_level = "INFO"', f"rest_budget = {args.limited}")
    await bot.start_ready()
    await fake.quiet(1.0, timeout=600)
    side = Side(fake, bot, players, lanes, args.closed, bot.database)
    await closed_loop(fake, players, lanes, args.closed, WARM_UP, rng, bot.database)
    await side.round(args.seconds, rng)
    tally = side.rounds[-1][0]
    out = side.summary()
    out["rest_budget"] = args.limited
    out["busiest_second"] = busiest_second(fake.calls_between(tally.started, tally.ended))
    return out


async def run(args: argparse.Namespace) -> dict:
    rng = random.Random(args.seed)
    out: dict = {"args": vars(args)}
    with tempfile.TemporaryDirectory(prefix="tabletop-load-") as tmp:
        root = pathlib.Path(tmp)
        out["raw_commits_per_s"] = await raw_commits(root, min(args.seconds, 3.0))
        print(f"raw aiosqlite commits/s: {out['raw_commits_per_s']:.0f}", flush=True)
        async with FakeDiscord(token=TOKEN) as fake, FakeDiscord(token=TOKEN) as null_fake:
            players = Players(fake, rng)
            (root / "null").mkdir()
            null_bot = BotProcess(null_fake, root / "null", module="benchmarks.null_bot")
            await null_bot.start_ready()
            lanes = null_lanes(null_fake, args.closed)
            null = Side(null_fake, null_bot, Players(null_fake, rng), lanes, args.closed, None)

            # The real bot: P2 over a growing number of tables (RSS as they are touched).
            (root / "real").mkdir()
            # No bot-wide budget here: these measures are of CPU and latency (see ``--limited``).
            bot = BotProcess(fake, root / "real", "rest_budget = 0")
            ready = await bot.start_ready()
            rss = {0: bot.proc_status("VmRSS")}
            lanes = []
            out["grid"] = []
            out["setup_failures"] = []
            for count in sorted(set(args.tables) | {args.closed}):
                missing = count - len(in_play(lanes, count))
                if missing > 0:
                    started = time.monotonic()
                    lanes += await open_lanes(fake, players, bot.database, missing, out["setup_failures"])
                    out[f"setup_{count}_tables_s"] = time.monotonic() - started
                await fake.quiet(1.0, timeout=300)
                rss[len(lanes)] = bot.proc_status("VmRSS")
                for rate in args.rates if count in args.tables else ():
                    await fake.quiet(1.0, timeout=600)  # the last cell's backlog is done
                    tally = await open_loop(
                        fake, players, lanes, count, rate, args.seconds, rng, bot.database
                    )
                    row = summary([tally], fake)
                    keys = ("moves_per_s", "p50_ms", "p99_ms", "unanswered", "late", "not_taken", "stuck",
                            "handoffs", "handoff_p50_ms", "handoff_p99_ms", "handoff_late", "handoff_late_per_10s")
                    cell = {
                        "tables": count,
                        "rate": rate,
                        **{k: row[k] for k in keys},
                        "skipped": tally.skipped,
                        "calls_per_move": row["calls_per_move_total"],
                        "counted_per_move": row["counted_per_move"],
                    }
                    out["grid"].append(cell)
                    print("P2:", json.dumps(cell), flush=True)
            out["setup_errors"] = bot.errors()[:20]  # errors while tables were opened and played
            out["rss_kib"] = rss
            small, large = min((n for n in rss if n >= 10), default=0), max(rss)
            out["rss_per_1000_tables_mib"] = (
                (rss[large] - rss[small]) / (large - small) * 1000 / 1024 if large > small else None
            )

            # P1 and errors under load: closed loops, the real bot and the null bot taking turns.
            await fake.quiet(1.0, timeout=600)
            real = Side(fake, bot, players, lanes, args.closed, bot.database)
            errors_before = len(bot.errors())
            await p1(real, null, args.rounds, args.seconds, rng)
            out["null"], out["real"] = null.summary(), real.summary()
            out["real"]["errors_logged"] = len(bot.errors()) - errors_before
            out["real"]["error_lines"] = bot.errors()[errors_before:][:20]
            out["real"]["ready_s"] = ready
            out["ratio"] = out["real"]["moves_per_s"] / max(out["null"]["moves_per_s"], 1e-9)
            print("null bot:", json.dumps(out["null"]), flush=True)
            print("real bot:", json.dumps(out["real"]), flush=True)
            if args.wide:  # P1 again where no channel's budget binds: CPU sets the pace
                await fake.quiet(1.0, timeout=600)
                more = await open_lanes(fake, players, bot.database, args.wide - len(in_play(lanes, args.wide)), [])
                lanes += more
                await fake.quiet(1.0, timeout=600)
                real = Side(fake, bot, players, lanes, args.wide, bot.database)
                null = Side(null_fake, null_bot, null.players, null_lanes(null_fake, args.wide), args.wide, None)
                await p1(real, null, args.rounds, args.seconds, rng)
                out["wide"] = {"null": null.summary(), "real": real.summary()}
                out["wide"]["ratio"] = out["wide"]["real"]["moves_per_s"] / max(out["wide"]["null"]["moves_per_s"], 1e-9)
                print("wide:", json.dumps(out["wide"]), flush=True)
            # Longer than the record's pace: the other tables' last paced edits are not counted here.
            await fake.quiet(RECORD_PACE + 1.0, timeout=600)
            one = await open_loop(fake, players, lanes, 1, 20, 5.0, rng, bot.database)
            out["one_table_20_per_s"] = summary([one], fake)
            print("one table at 20/s:", json.dumps(out["one_table_20_per_s"]), flush=True)
            if args.limited:  # the closed loop again under Discord's global limit
                out["limited"] = await limited(fake, bot, players, lanes, args, rng)
                print("limited:", json.dumps(out["limited"]), flush=True)
            await bot.stop()
            await null_bot.stop()

        # P5: start-up with stored tables; recovery of dirty ones (each with a fake Discord of its own).
        async with FakeDiscord(token=TOKEN) as fake:
            out["stored"] = await stored_start(fake, root / "stored", args.stored, dirty=False)
            print("stored:", json.dumps(out["stored"]), flush=True)
        if args.dirty:
            async with FakeDiscord(token=TOKEN) as fake:
                out["dirty"] = await stored_start(fake, root / "dirty", args.dirty, dirty=True)
                print("dirty:", json.dumps(out["dirty"]), flush=True)
    return out


async def stored_start(fake: FakeDiscord, directory: pathlib.Path, count: int, *, dirty: bool) -> dict:
    directory.mkdir()
    bot = BotProcess(fake, directory)
    await bot.start_ready()  # creates and migrates the database
    await bot.stop()
    places = None
    if dirty:  # the fake must hold what those tables show: their message, thread and members
        places = []
        for n in range(count):
            message = fake.model.post(fake.channel.id, fake.model.bot.id, {"content": f"table {n}"})
            fake.model.add_thread(fake.channel, f"table {n}", message.id)
            users = [int(fake.add_member(f"d{n}x{i}").id) for i in range(3)]
            places.append((int(message.id), int(message.id), users))
    seed_tables(
        bot.database,
        count,
        moves=10,
        guild=int(fake.guild.id),
        channel=int(fake.channel.id),
        dirty=dirty,
        places=places,
    )
    calls = len(fake.calls)
    ready = await bot.start_ready(timeout=600)
    result = {"tables": count, "ready_s": ready, "rss_at_ready_mib": bot.proc_status("VmRSS") / 1024}
    await fake.quiet(3.0, timeout=900)
    last = fake.calls[-1].at if len(fake.calls) > calls else bot.started_at
    result["settled_s"] = max(0.0, last - (bot.started_at + ready))  # ready to the last call of recovery
    result["calls"] = len(fake.calls) - calls
    result["peak_rss_mib"] = bot.proc_status("VmHWM") / 1024
    result["errors_logged"] = len(bot.errors())
    result["error_lines"] = bot.errors()[:20]
    await bot.stop()
    return result


def report(out: dict) -> str:
    real, null = out["real"], out["null"]
    lines = [
        "| Measure | Result |",
        "|---|---|",
        f"| P1 durable moves/s, closed loop, {out['args']['closed']} tables | {real['moves_per_s']:.0f} "
        f"({real['cpu_ms_per_move']:.2f} ms bot CPU per move; rounds {real['per_round_moves_per_s']}) |",
        f"| P1 null bot moves/s | {null['moves_per_s']:.0f} ({null['cpu_ms_per_move']:.2f} ms CPU per move; "
        f"rounds {null['per_round_moves_per_s']}; fake+driver at {null['fake_cpu_share']:.0%} of a core) |",
        f"| P1 ratio | {out['ratio']:.1%} |",
        f"| Fake Discord and driver CPU per move (real, null) | {real['fake_cpu_ms_per_move']:.2f} ms, "
        f"{null['fake_cpu_ms_per_move']:.2f} ms |",
        f"| Raw aiosqlite commits/s | {out['raw_commits_per_s']:.0f} |",
        f"| Errors under load ({out['args']['closed']} tables, closed loop) | {real['unanswered']} unanswered "
        f"({real['late']} answered after 3 s), {real['not_taken']} not taken, {real['stuck']} with no button, "
        f"{real['errors_logged']} errors logged |",
        f"| Hand-off: click to the next player's DM showing their turn ({out['args']['closed']} tables,"
        f" closed loop) | {handoff_text(real)} |",
        f"| P3 REST calls per accepted move | {real['calls_per_move_total']} "
        f"({', '.join(f'{k} {v}' for k, v in real['calls_per_move'].items())}); "
        f"{real['counted_per_move']} counted by Discord's global limit |",
        f"| Busiest channel, calls per 5 s (closed loop) | {real['busiest_channel_per_5s']} |",
        f"| Busiest channel, calls per 5 s (one table, 20 moves/s) | "
        f"{out['one_table_20_per_s']['busiest_channel_per_5s']} |",
    ]
    if "wide" in out:
        w = out["wide"]
        lines.append(
            f"| P1 at {out['args']['wide']} tables | {w['real']['moves_per_s']:.0f} of {w['null']['moves_per_s']:.0f}"
            f" moves/s: {w['ratio']:.1%} ({w['real']['cpu_ms_per_move']:.2f} vs {w['null']['cpu_ms_per_move']:.2f} ms"
            f" bot CPU, {w['real']['fake_cpu_ms_per_move']:.2f} vs {w['null']['fake_cpu_ms_per_move']:.2f} ms fake CPU"
            f" per move; {w['real']['calls_per_move_total']} REST calls per move; {w['real']['unanswered']} unanswered,"
            f" {w['real']['stuck']} with no button; hand-off {handoff_text(w['real'])}) |"
        )
    if "limited" in out:
        m = out["limited"]
        lines.append(
            f"| Under Discord's global limit (`rest_budget = {m['rest_budget']}`), {out['args']['closed']} tables |"
            f" {m['moves_per_s']:.0f} moves/s, busiest second {m['busiest_second']} calls besides answers to clicks,"
            f" {m['calls_per_move_total']} REST calls per move"
            f" ({', '.join(f'{k} {v}' for k, v in m['calls_per_move'].items())}; {m['counted_per_move']} counted),"
            f" p99 {m['p99_ms']:.0f} ms,"
            f" {m['unanswered']} unanswered, {m['stuck']} with no button; hand-off {handoff_text(m)} |"
        )
    for cell in out["grid"]:
        lines.append(
            f"| P2 {cell['tables']} tables, {cell['rate']} moves/s | p50 {cell['p50_ms']:.0f} ms, p99 "
            f"{cell['p99_ms']:.0f} ms ({cell['moves_per_s']:.0f} moves/s done, {cell['skipped']} skipped, "
            f"{cell['unanswered']} unanswered in 3 s ({cell['late']} answered later), "
            f"{cell['stuck']} with no button; {cell['calls_per_move']} REST calls per move, "
            f"{cell['counted_per_move']} counted; hand-off {handoff_text(cell)}) |"
        )
    for key in ("stored", "dirty"):
        if key in out:
            s = out[key]
            lines.append(
                f"| P5 start-up, {s['tables']} {key} tables | ready {s['ready_s']:.1f} s, last call "
                f"{s['settled_s']:.1f} s later ({s['calls']} calls); RSS {s['rss_at_ready_mib']:.0f} MiB "
                f"(peak {s['peak_rss_mib']:.0f}) |"
            )
    per = out["rss_per_1000_tables_mib"]
    lines.append(f"| RSS per 1,000 touched tables | {'n/a' if per is None else f'{per:.1f} MiB'} |")
    if out["setup_failures"]:
        lines.append(f"| Tables that failed to open or start | {len(out['setup_failures'])} |")
    return "\n".join(lines)


def several_processes(args: argparse.Namespace) -> int:
    from benchmarks import load_processes

    with tempfile.TemporaryDirectory(prefix="tabletop-processes-") as tmp:
        rows = asyncio.run(load_processes.run(args, pathlib.Path(tmp)))
    print(f"{load_processes.stamp()}: {args.closed} tables, {args.seconds:g} s per measure")
    print(load_processes.report(rows))
    for row in rows:
        for line in row["error_lines"] + row["setup_failures"]:
            print(f"{row['setup']}: {line}")
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(rows, indent=2, default=str))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="a short run: smaller grid, 4 s per measure")
    parser.add_argument("--tables", type=ints, default=None, help="tables in play for P2 (1,10,100,1000)")
    parser.add_argument("--rates", type=ints, default=None, help="moves/s for P2 (10,50,100)")
    parser.add_argument("--seconds", type=float, default=None, help="length of each measure (10)")
    parser.add_argument("--closed", type=int, default=100, help="tables of the closed loop (100)")
    parser.add_argument(
        "--wide", type=int, default=None, help="P1 also at this many tables, where no budget binds (300; 0: not)"
    )
    parser.add_argument(
        "--rounds", type=int, default=3, help="closed-loop rounds of each bot, taking turns (3)"
    )
    parser.add_argument("--stored", type=int, default=10_000, help="stored tables at start-up (10000)")
    parser.add_argument("--dirty", type=int, default=None, help="dirty tables to recover (1000)")
    parser.add_argument(
        "--processes", type=ints, default=None,
        help="instead: N bot processes on PostgreSQL for each N given (1,2,4), beside 1 on SQLite",
    )
    parser.add_argument("--database", help="with --processes: a PostgreSQL server URL (default: a throwaway one)")
    parser.add_argument("--rate", type=int, default=50, help="with --processes: moves/s of the open loop (50)")
    parser.add_argument(
        "--limited", type=int, default=45,
        help="the closed loop again with this rest_budget, under Discord's global limit (45; 0: not)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args()
    args.tables = args.tables or ([1, 10, 100] if args.quick else [1, 10, 100, 1000])
    args.rates = args.rates or ([10, 50] if args.quick else [10, 50, 100])
    args.seconds = args.seconds or (4.0 if args.quick else 10.0)
    args.wide = args.wide if args.wide is not None else 300
    args.dirty = args.dirty if args.dirty is not None else (200 if args.quick else 1000)
    if args.processes:
        return several_processes(args)
    out = asyncio.run(run(args))
    print(report(out))
    for line in out["real"]["error_lines"] + out["setup_errors"]:
        print("bot error:", line)
    for line in out["setup_failures"][:10]:
        print("table not set up:", line)
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(out, indent=2, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
