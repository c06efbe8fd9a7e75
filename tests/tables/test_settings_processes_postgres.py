"""Two real bot processes (the entry point) on one PostgreSQL database and the fake Discord: the
server's admin changes /settings through one, tables are opened through the other, and the
change applies there within 15 s."""

from __future__ import annotations

import asyncio
import time

import asyncpg

from bot.tables.server_settings import INTERVAL
from tests.support import discord_interactions as ix
from tests.support.bot_process import TOKEN, bot_processes
from tests.support.fake_discord import FakeDiscord
from tests.support.postgres import fresh_database

ANSWER = 10.0  # seconds for an answer: two bots and PostgreSQL share two cores with other tests


async def newest_language(url: str) -> tuple[int, str]:
    conn = await asyncpg.connect(url)
    try:
        row = await conn.fetchrow("SELECT id, language FROM game_tables ORDER BY id DESC LIMIT 1")
    finally:
        await conn.close()
    return row["id"], row["language"]


async def test_a_setting_changed_through_one_process_applies_in_the_other_within_15_s(tmp_path, pg_cluster):
    url = await fresh_database(pg_cluster.url)
    async with FakeDiscord(token=TOKEN) as fake:
        bots = bot_processes(fake, tmp_path, ["a", "b"], url)
        try:
            for bot in bots:
                await bot.start_ready()
            owner = fake.guild.owner_id  # the server's owner: Manage Server and everything else

            async def use(via: int, name: str, **options):
                sent = await fake.send(
                    ix.command(fake.model, fake.application_id, owner, fake.channel, name, options), via=via
                )
                assert await sent.wait(ANSWER), f"no answer to /{name}\n{fake.summary()}"
                return sent

            async def open_table() -> str:
                """/othello new through process b; the language its table opened with."""
                before = (await newest_language(url))[0] if fake.shown(fake.channel.id) else 0
                sent = await use(1, "othello new")
                await fake.wait_until(lambda: sent.followups, timeout=ANSWER, what="table opened")
                table_id, language = await newest_language(url)
                assert table_id > before
                return language

            assert await open_table() == "en"  # b has read the server's settings: English, its locale
            read_at = time.monotonic()
            changed = await use(0, "settings", language="ja")
            done_at = time.monotonic()
            if done_at - read_at < INTERVAL - 3:  # (b reads its memory until 15 s after its last look)
                assert await open_table() == "en", "process b still reads its memory"
            await asyncio.sleep(max(0.0, done_at + INTERVAL - time.monotonic()))
            assert await open_table() == "ja", "15 s after the change, process b opens tables in Japanese"
            opened = [s for s in fake.sent.values() if s.payload["data"]["name"] == "othello"]
            assert changed.connection is not opened[0].connection, "the change and the tables: two processes"
            assert not [e for bot in bots for e in bot.errors()]
        finally:
            for bot in bots:
                await bot.stop()
