"""Several bot processes on one PostgreSQL database, beside one process on SQLite, in one run
(``python benchmarks/load.py --processes 1,2,4 [--database postgresql://…]``; issue #14).

For each setup the real entry point runs as that many processes against one fake Discord, which
hands each interaction to one of them at random (as DM clicks reach shard 0 whatever the server).
Each setup gets a fresh database and ``--closed`` started 3-player Donguri tables, then:

* a closed loop (every table moves again as soon as its last move is answered): durable moves/s
  and the processes' CPU per move;
* an open loop at ``--rate`` moves/s (Poisson): p50/p99 per interaction.

Without ``--database`` a throwaway PostgreSQL cluster is started (``tests/support/postgres.py``);
with it, a new database is created in that server for each setup.
"""

from __future__ import annotations

import contextlib
import os
import pathlib
import random
import time

from benchmarks.load_driver import closed_loop, open_lanes, open_loop, percentile
from tests.support.bot_process import TOKEN, bot_processes
from tests.support.discord_traffic import INTERACTION_KINDS, count_by_kind
from tests.support.fake_discord import FakeDiscord
from tests.support.players import Players
from tests.support.postgres import cluster, fresh_database


def postgres_cpu() -> float:
    """CPU seconds used so far by every PostgreSQL server process on this machine."""
    total = 0.0
    for stat in pathlib.Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        name, rest = text.split("(", 1)[1].rsplit(")", 1)
        if name.startswith("postgres"):
            fields = rest.split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


async def one_setup(root: pathlib.Path, label: str, database: str | None, processes: int, args) -> dict:
    rng = random.Random(args.seed)
    async with FakeDiscord(token=TOKEN) as fake:
        # No bot-wide budget: this measures how CPU and the database scale (``load.py --limited``
        # measures the closed loop under Discord's global limit).
        bots = bot_processes(fake, root, [f"{label}-{i}" for i in range(processes)], database, "rest_budget = 0")
        try:
            for bot in bots:
                await bot.start_ready(timeout=120)
            fake.spread = random.Random(args.seed)
            players = Players(fake, rng)
            source = database or bots[0].database
            failures: list[str] = []
            lanes = await open_lanes(fake, players, source, args.closed, failures)
            await fake.quiet(1.0, timeout=300)
            await closed_loop(fake, players, lanes, len(lanes), 1.0, rng, source)  # warm-up
            cpu0, pg0, mine0 = sum(b.cpu_seconds() for b in bots), postgres_cpu(), time.process_time()
            tally = await closed_loop(fake, players, lanes, len(lanes), args.seconds, rng, source)
            cpu = sum(b.cpu_seconds() for b in bots) - cpu0
            pg_cpu, mine = postgres_cpu() - pg0, time.process_time() - mine0
            calls = fake.calls_between(tally.started, tally.ended)
            await fake.quiet(1.0, timeout=600)
            opened = await open_loop(fake, players, lanes, len(lanes), args.rate, args.seconds, rng, source)
            latencies = opened.latencies_ms()
            errors = [e for b in bots for e in b.errors()]
            return {
                "setup": label,
                "processes": processes,
                "tables": len(lanes),
                "closed_moves_per_s": tally.accepted / tally.seconds,
                "cpu_ms_per_move": 1000 * cpu / max(tally.accepted, 1),
                "postgres_cpu_ms_per_move": 1000 * pg_cpu / max(tally.accepted, 1),
                "cores_busy": (cpu + pg_cpu + mine) / tally.seconds,  # bots, PostgreSQL, fake and driver
                "rest_per_move": round(sum(count_by_kind(calls).values()) / max(tally.accepted, 1), 2),
                "calls_per_move": {k: round(v / max(tally.accepted, 1), 2) for k, v in sorted(count_by_kind(calls).items())},
                # what Discord's global limit counts: every call but the answers to interactions
                "counted_per_move": round(
                    sum(1 for c in calls if c.kind not in INTERACTION_KINDS) / max(tally.accepted, 1), 2
                ),
                "unanswered": tally.unanswered + opened.unanswered,
                "not_taken": tally.refused + opened.refused,
                "rate": args.rate,
                "open_moves_per_s": opened.accepted / opened.seconds,
                "p50_ms": percentile(latencies, 0.5),
                "p99_ms": percentile(latencies, 0.99),
                "errors_logged": len(errors),
                "error_lines": errors[:10],
                "setup_failures": failures[:10],
            }
        finally:
            for bot in bots:
                await bot.stop()


async def run(args, root: pathlib.Path) -> list[dict]:
    rows = [await one_setup(root, "sqlite", None, 1, args)]
    print("processes:", rows[-1], flush=True)
    with contextlib.ExitStack() as stack:
        server = args.database or stack.enter_context(cluster()).url
        for n in args.processes:
            database = await fresh_database(server)
            rows.append(await one_setup(root, f"postgresql-{n}", database, n, args))
            print("processes:", rows[-1], flush=True)
    return rows


def report(rows: list[dict]) -> str:
    lines = [
        "| Setup | Processes | Closed loop moves/s | Bot CPU ms per move | PostgreSQL CPU ms per move | "
        "Cores busy | REST per move (counted) | p50 / p99 at {rate} moves/s | Unanswered | Errors |".format(rate=rows[0]["rate"]),
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['setup'].split('-')[0]} | {r['processes']} | {r['closed_moves_per_s']:.0f} | "
            f"{r['cpu_ms_per_move']:.1f} | {r['postgres_cpu_ms_per_move']:.1f} | {r['cores_busy']:.2f} | "
            f"{r['rest_per_move']} ({r.get('counted_per_move', '—')}) | {r['p50_ms']:.0f} / {r['p99_ms']:.0f} ms | "
            f"{r['unanswered']} | {r['errors_logged']} |"
        )
    return "\n".join(lines)


def stamp() -> str:
    return time.strftime("%Y-%m-%d %H:%M")
