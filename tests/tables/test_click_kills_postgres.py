"""A process killed between two steps of a click, on PostgreSQL: the bot holds at a fault point
(``bot/core/faults.py``, enabled by ``TABLETOP_HOLD_AT``), the test kills it there with SIGKILL,
and whichever process comes next must leave what the member was told true and Discord showing
what is committed: a click answered as taken is in the log, and a deferred click gets its final
answer even though the process that deferred it died."""

from __future__ import annotations

import asyncio
import random
import time

import asyncpg

from tests.support import audit
from tests.support.bot_process import TOKEN, BotProcess, bot_processes
from tests.support.discord_interactions import DEFERRED_UPDATE
from tests.support.fake_discord import FakeDiscord
from tests.support.patience import patient
from tests.support.players import TAKEN, UNANSWERED, Click, Players
from tests.support.postgres import fresh_database

SETTLE = 6.0
HOLD = "TABLETOP_HOLD_AT"
#: step -> (where the killed process holds, whether its deferral reaches Discord, the final answer)
STEPS = {
    # The move takes longer than 2 s: the click is stored and deferred, then the process dies
    # before the commit. Another process plays the click and edits the clicked DM.
    "between the deferral and the commit": ("click.before_commit", True, TAKEN),
    # Committed and deferred, not answered: another process finds the move in the log, answers.
    "between the commit and the answer of a deferred click": ("click.before_answer", True, TAKEN),
    # Answered after its deferral, not yet cleared: answered again the same way, nothing twice.
    "between the answer and clearing the click": ("click.before_commit=2.5,click.after_answer", True, TAKEN),
    # Stored, but its deferral never sent: Discord told the member the click failed, so it is
    # dropped, not played behind their back.
    "between storing the click and its deferral": ("click.before_commit,click.deferring", False, UNANSWERED),
}


def session(fake: FakeDiscord, bot: BotProcess) -> int:
    """The index of the bot's gateway session, as ``FakeDiscord.click`` takes it."""
    sessions = fake.gateway.identified()
    return next(i for i, c in enumerate(sessions) if c.shard is not None and c.shard[0] == bot.shard)


async def pending(url: str) -> int:
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetchval("SELECT COUNT(*) FROM deferred_clicks")
    finally:
        await conn.close()


async def test_a_process_killed_after_a_move_before_its_answer_leaves_the_dm_to_be_redrawn(tmp_path, pg_cluster):
    """The clicker's DM was marked as shown by the click's answer, in the shared database, before
    that answer went out: killed in between, the next process found the DM "current" and the
    table clean, and the DM kept its played card (43.1)."""
    url = await fresh_database(pg_cluster.url)
    async with FakeDiscord(token=TOKEN) as fake:
        (bot,) = bot_processes(fake, tmp_path, ["a"], url)
        try:
            bot.env[HOLD] = "click.before_answer"
            await bot.start_ready()
            players = Players(fake, random.Random(3))
            (table,) = await players.open_tables(1)
            await fake.quiet(1.0, timeout=60)
            click = await players.move(table, wait=False)
            assert click is not None and click.via == "dm"
            await bot.stderr.wait_for("holding at click.before_answer", timeout=30)
            await bot.kill()
            del bot.env[HOLD]
            await bot.start_ready()
            await fake.quiet(SETTLE, timeout=60)

            truths = audit.read_tables(url)
            assert truths[table.id].log[click.version][1:3] == (truths[table.id].seat_of(click.user.id), click.action)
            assert audit.stale(players, [table], truths) == []
            assert audit.stuck(players, [table], truths) == []
            assert not bot.errors()
        finally:
            await bot.stop()
            print(bot)


async def test_a_process_killed_between_any_two_steps_of_a_click_leaves_it_answered_truly(tmp_path, pg_cluster):
    url = await fresh_database(pg_cluster.url)
    async with FakeDiscord(token=TOKEN) as fake:
        bots = []
        for i in range(2):
            (bot,) = bot_processes(fake, tmp_path, [f"shard{i}"], url, "shard_count = 2", f"shard_ids = [{i}]")
            bot.shard = i
            bots.append(bot)
        victim, other = bots
        try:
            for bot in bots:
                await bot.start_ready()
            players = Players(fake, random.Random(4))
            # The next player's DM is drawn by whichever process comes next: each step's click is
            # made from it, so a DM never brought up to date fails the step rather than its hand.
            players.patience = patient(15)
            (table,) = await players.open_tables(1)
            clicks: dict[str, Click] = {}
            for step, (points, deferred, answer) in STEPS.items():
                await fake.quiet(1.0, timeout=60)
                victim.env[HOLD] = points
                await victim.kill()
                await victim.start_ready()
                click = await players.move(table, wait=False, to=session(fake, victim))
                assert click is not None and click.via == "dm", step
                clicks[step] = click
                await victim.stderr.wait_for(f"holding at {points.split(',')[-1].split('=')[0]}", timeout=30)
                if deferred:
                    await fake.wait_until(
                        lambda c=click: c.sent.response_type == DEFERRED_UPDATE, timeout=10, what=f"deferral, {step}"
                    )
                await victim.kill()
                del victim.env[HOLD]
                assert await players.final_answer(click, timeout=60) == answer, (step, click.sent)
                deadline = time.monotonic() + 60
                while await pending(url) and time.monotonic() < deadline:  # dropped or finished by the other
                    await asyncio.sleep(0.5)
                assert await pending(url) == 0, step
                await victim.start_ready()

            await fake.quiet(SETTLE, timeout=60)
            truths = audit.read_tables(url)
            truth = truths[table.id]
            for step, click in clicks.items():
                logged = click.version < len(truth.log) and truth.log[click.version][1:3] == (
                    truth.seat_of(click.user.id), click.action
                )
                assert logged == (click.outcome == TAKEN), (step, click.outcome)
                assert click.sent.said == [], (step, click.sent.said)  # no follow-up: the DM itself answered
            report = {
                "answered clicks missing from the log, or doubled": audit.lost_or_doubled(players.clicks, truths),
                "stuck tables": audit.stuck(players, [table], truths),
                "stale surfaces": audit.stale(players, [table], truths),
                "errors logged": [e for bot in bots for e in bot.errors()],
            }
            assert not any(report.values()), report
        finally:
            for bot in bots:
                await bot.stop()
                print(bot)
