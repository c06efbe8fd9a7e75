"""Two bot processes sharing one PostgreSQL database split Discord's global limit through it: with
``rest_budget = 12`` and clicks reaching both, the two together stay near 12 calls a second (each
alone would take 12), once they have heard from each other."""

from __future__ import annotations

import asyncio
import random

from tests.support.bot_process import TOKEN, bot_processes
from tests.support.fake_discord import FakeDiscord, busiest_second
from tests.support.players import Players, keep_playing
from tests.support.postgres import fresh_database

BUDGET = 12
SLACK = 2  # a process's part follows the others' wants a second late


async def test_two_processes_keep_together_to_one_budget(tmp_path, pg_cluster):
    url = await fresh_database(pg_cluster.url)
    async with FakeDiscord(token=TOKEN) as fake:
        bots = bot_processes(fake, tmp_path, ["a", "b"], url, f"rest_budget = {BUDGET}")
        try:
            for bot in bots:
                await bot.start_ready()
            fake.spread = random.Random(4)
            players = Players(fake, random.Random(9))
            tables = []
            for n in range(12):
                members = [fake.add_member(f"r{n}x{i}") for i in range(3)]
                tables.append(await players.open_donguri(fake.add_text_channel(f"rest-{n}"), members))
            for table in tables:
                await players.wait_started(table, timeout=60)
            await asyncio.sleep(3.0)  # each has heard from the other
            start = len(fake.calls)
            stop = asyncio.Event()
            loops = [asyncio.create_task(keep_playing(players, t, stop)) for t in tables]
            await asyncio.sleep(8.0)
            stop.set()
            await asyncio.gather(*loops)
            calls = fake.calls[start:]
            moves = sum(c.accepted for c in players.clicks)
            second = busiest_second(calls)
            print(f"{moves} moves; busiest second {second} calls besides answers to clicks")
            assert moves > 20
            assert second <= BUDGET + SLACK, second
            assert not [e for bot in bots for e in bot.errors()]
        finally:
            for bot in bots:
                await bot.stop()
