"""Crashes on three processes sharing PostgreSQL: one of them is killed with SIGKILL at random
moments and restarted while members play on through the others.

The processes are three shards of one bot. Each click reaches either the process Discord would
send it to (the server's shard; a DM, shard 0's) or, as behind an interactions endpoint, any of
them at random. Once the last recovery has settled, what members were shown must agree with the
database: every click answered as taken is in the log once, every deferred click got its final
answer (from whichever process finished it), no table is stuck or stale, every record line is
there once and every seat has one hand DM per deal.

``PG_CRASH_KILLS`` (default 3), ``PG_CRASH_TABLES`` (4), ``PG_CRASH_SEED`` (31) and
``PG_CRASH_SPREAD`` (the share of clicks sent to any process, 0.5), ``PG_CRASH_SLOW`` (the share
of moves held 2.5 s before their commit, so deferred: 0.05) make a longer run:
``PG_CRASH_KILLS=30 PG_CRASH_TABLES=8 pytest tests/tables/test_crash_postgres.py``.
"""

from __future__ import annotations

import asyncio
import os
import random
from collections import Counter

from tests.support import audit
from tests.support.bot_process import TOKEN, BotProcess, bot_processes
from tests.support.discord_gateway import shard_of
from tests.support.fake_discord import FakeDiscord
from tests.support.players import Players, keep_playing
from tests.support.postgres import fresh_database

KILLS = int(os.environ.get("PG_CRASH_KILLS", "3"))
TABLES = int(os.environ.get("PG_CRASH_TABLES", "4"))
SEED = int(os.environ.get("PG_CRASH_SEED", "31"))
SPREAD = float(os.environ.get("PG_CRASH_SPREAD", "0.5"))
#: The share of moves held 2.5 s inside their transaction: deferred, and some killed before the commit.
SLOW = float(os.environ.get("PG_CRASH_SLOW", "0.05"))
PROCESSES = 3
SETTLE = 8.0  # seconds without a REST call: every process's work has ended, a dead one's finished


def shards(fake: FakeDiscord, root, url: str) -> list[BotProcess]:
    """Three processes, shards 0-2 of one bot, on one database; the server on a shard other than
    0, so its DM clicks and its channel's clicks reach different processes."""
    while shard_of(fake.guild.id, PROCESSES) == 0:
        fake.guild = fake.model.add_guild()
    fake.channel = fake.model.add_text_channel(fake.guild, "games")
    bots = []
    for i in range(PROCESSES):
        (bot,) = bot_processes(fake, root, [f"shard{i}"], url, f"shard_count = {PROCESSES}", f"shard_ids = [{i}]")
        bot.shard = i
        if SLOW:
            bot.env["TABLETOP_HOLD_AT"] = f"click.before_commit~{SLOW}=2.5"
        bots.append(bot)
    return bots


async def test_three_processes_killed_at_random_keep_every_answered_click(tmp_path, pg_cluster):
    url = await fresh_database(pg_cluster.url)
    rng = random.Random(SEED)
    async with FakeDiscord(token=TOKEN) as fake:
        bots = shards(fake, tmp_path, url)
        try:
            for bot in bots:
                await bot.start_ready()
            players = Players(fake, rng)
            tables = await players.open_tables(TABLES)
            fake.spread, fake.spread_share = random.Random(SEED + 1), SPREAD

            stop = asyncio.Event()
            loops = [asyncio.create_task(keep_playing(players, t, stop)) for t in tables]
            for _ in range(KILLS):
                await asyncio.sleep(rng.uniform(0.5, 3.0))
                victim = rng.choice(bots)
                await victim.kill()
                await asyncio.sleep(rng.uniform(0.0, 1.0))
                await victim.start()
                if rng.random() < 0.8:  # else the next kill may come while it starts and recovers
                    await victim.ready()
            for bot in bots:
                await bot.ready()
            await asyncio.sleep(2.0)
            stop.set()
            await asyncio.gather(*loops)
            await fake.quiet(SETTLE, timeout=120)

            truths = audit.read_tables(url)
            outcomes = Counter(c.outcome for c in players.clicks)
            deferred = sum(1 for c in players.clicks if c.sent is not None and c.sent.response_type == 6)
            print(f"kills {KILLS}, tables {TABLES}: clicks {dict(outcomes)}, deferred {deferred}")
            assert outcomes["taken"] > 8 * len(tables), f"only {outcomes['taken']} moves were played"
            assert not SLOW or deferred, "some clicks were deferred, as slow moves are"
            report = {
                "answered clicks missing from the log, or doubled": audit.lost_or_doubled(players.clicks, truths),
                "deferred clicks never answered": audit.unanswered_deferrals(players.clicks),
                "stuck tables": audit.stuck(players, tables, truths),
                "stale surfaces": audit.stale(players, tables, truths),
                "record lines lost or repeated": audit.record_lines(fake, tables, truths),
                "hand DMs missing or repeated": audit.hand_dms(players, tables, truths),
                "errors logged": [e for bot in bots for e in bot.errors()],
            }
            failed = {k: v for k, v in report.items() if v}
            assert not failed, "\n".join(f"{k}: {len(v)}\n  " + "\n  ".join(v[:8]) for k, v in failed.items())
            assert not fake.unknown, fake.summary()
        finally:
            for bot in bots:
                await bot.stop()
                print(bot)
