"""Crashes during play: the real bot is killed with SIGKILL at random moments and restarted.

Tables of 3-player Donguri (some with a computer seat) are played by button clicks over the
gateway of the fake Discord while the bot is killed and restarted; members go on from what Discord
shows them. Once the last recovery has settled, what members were told and what Discord shows
must agree with the database: no acknowledged move lost or doubled, no table stuck, no stale
table message or hand DM, every record line once, one hand DM per seat per deal.

``CRASH_KILLS`` (default 10), ``CRASH_TABLES`` (6) and ``CRASH_SEED`` (13) make a longer run
for benchmarking: ``CRASH_KILLS=50 pytest tests/test_crash_process.py``.
"""

from __future__ import annotations

import asyncio
import os
import random
import sqlite3
import time

from tests.support import audit
from tests.support.players import Players, Table, bot_with_players, keep_playing

KILLS = int(os.environ.get("CRASH_KILLS", "10"))
TABLES = int(os.environ.get("CRASH_TABLES", "6"))
SEED = int(os.environ.get("CRASH_SEED", "13"))
SETTLE = 6.0  # seconds without any REST call, longer than the 5-second channel budget: recovery has ended


async def play_for(players: Players, tables: list[Table], seconds: float) -> None:
    stop = asyncio.Event()
    loops = [asyncio.create_task(keep_playing(players, t, stop)) for t in tables]
    await asyncio.sleep(seconds)
    stop.set()
    await asyncio.gather(*loops)


async def test_kill_9_at_random_moments_loses_nothing_and_leaves_nothing_stale(tmp_path):
    rng = random.Random(SEED)
    async with bot_with_players(tmp_path, rng) as (fake, bot, players):
        tables = await players.open_tables(TABLES)
        waited_ready = True
        for _ in range(KILLS):
            # Mostly during play; after one restart in five, during start-up and recovery.
            stop = asyncio.Event()
            loops = [asyncio.create_task(keep_playing(players, t, stop)) for t in tables]
            if waited_ready:
                await asyncio.sleep(rng.uniform(0.2, 2.5))
            else:
                await asyncio.sleep(max(0.0, bot.started_at + rng.uniform(1.0, 4.0) - time.monotonic()))
            await bot.kill()
            stop.set()
            await asyncio.gather(*loops)
            await bot.start()
            waited_ready = rng.random() >= 0.2
            if waited_ready:
                await bot.ready()
        await bot.ready()
        await play_for(players, tables, 2.0)
        await fake.quiet(SETTLE, timeout=90)

        truths = audit.read_tables(bot.database)
        moves = sum(c.accepted for c in players.clicks)
        assert moves > 10 * len(tables), f"only {moves} moves were played"
        report = {
            "acknowledged moves lost or doubled": audit.lost_or_doubled(players.clicks, truths),
            "stuck tables": audit.stuck(players, tables, truths),
            "stale surfaces": audit.stale(players, tables, truths),
            "record lines lost or repeated": audit.record_lines(fake, tables, truths),
            "hand DMs missing or repeated": audit.hand_dms(players, tables, truths),
            "errors logged": bot.errors(),
        }
        failed = {k: v for k, v in report.items() if v}
        assert not failed, "\n".join(f"{k}: {len(v)}\n  " + "\n  ".join(v[:8]) for k, v in failed.items())
        assert not fake.unknown, fake.summary()


async def test_a_hand_dm_sent_just_before_a_kill_is_found_again_not_sent_twice(tmp_path):
    """The window the outbox closes: Discord made the DM, then the process died before storing its
    id. The database is put in exactly that state while the bot is down (the stored id forgotten,
    the intent left open); after the restart the member still has one hand DM for the deal, and it
    shows the current hand."""
    async with bot_with_players(tmp_path, random.Random(5)) as (fake, bot, players):
        (table,) = await players.open_tables(1)
        await play_for(players, [table], 1.0)
        await fake.quiet(SETTLE, timeout=60)
        await bot.kill()
        truth = audit.read_tables(bot.database)[table.id]
        deal = truth.engine.deal_number
        user = table.players[0]
        seat = next(s.position for s in truth.seats if s.user_id == user.id)
        (dm_id,) = [m.id for m in players.hand_dms(table, user)][-1:]
        db = sqlite3.connect(bot.database)
        with db:
            db.execute("DELETE FROM deliveries WHERE table_id = ? AND seat = ? AND deal = ?", (table.id, seat, deal))
            db.execute(
                "INSERT INTO send_intents (table_id, surface, channel_id, sent_after) VALUES (?, ?, ?, ?)",
                (table.id, f"dm:{seat}:{deal}", int(fake.model.dm_of[user.id]), int(dm_id) - 1),
            )
            db.execute("UPDATE game_tables SET dirty = 1 WHERE id = ?", (table.id,))
        db.close()
        await bot.start()
        await bot.ready()
        await play_for(players, [table], 1.0)
        await fake.quiet(SETTLE, timeout=60)
        truths = audit.read_tables(bot.database)
        assert audit.hand_dms(players, [table], truths) == []
        assert audit.stale(players, [table], truths) == []
        assert dm_id in [m.id for m in players.hand_dms(table, user)], "the DM found again is kept"


async def test_a_deferred_click_whose_process_died_is_finished_after_the_restart(tmp_path):
    """One process on SQLite: its click slow to begin its move, deferred, then killed before the
    move (``bot/core/faults.py``). The restarted process plays the click and edits the clicked DM."""
    async with bot_with_players(tmp_path, random.Random(6)) as (fake, bot, players):
        (table,) = await players.open_tables(1)
        await fake.quiet(1.0, timeout=60)
        await bot.kill()
        bot.env["TABLETOP_HOLD_AT"] = "click.before_move"
        await bot.start_ready()
        click = await players.move(table, wait=False)
        assert click is not None and click.via == "dm"
        await fake.wait_until(lambda: click.sent.response_type == 6, timeout=10, what="the deferral")
        await bot.kill()
        del bot.env["TABLETOP_HOLD_AT"]
        await bot.start_ready()
        assert await players.final_answer(click, timeout=60) == "taken"
        await fake.quiet(SETTLE, timeout=60)
        truths = audit.read_tables(bot.database)
        assert audit.lost_or_doubled(players.clicks, truths) == []
        assert audit.stale(players, [table], truths) == []
        assert not bot.errors()
