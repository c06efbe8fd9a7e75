"""A restart of a bot whose tables are all shown as stored makes no REST call for them: after
logging in and syncing its commands, it is silent until someone plays, even where a pass over the
table is due (issue 43: a clean table needs no call at start-up).

A process keeps what each surface shows in memory; the first pass over a table after a start-up
(asked for by a turn notice that came due while the bot was down, a tournament's recovery...) drew
every surface again: each member's DM and the table message, 4 calls for a 3-player table. What
the last whole pass showed is now kept as the table's ``shown_version``."""

from __future__ import annotations

import random
import sqlite3

from tests.support.bot_process import TOKEN, BotProcess
from tests.support.fake_discord import FakeDiscord
from tests.support.players import Players

LOGIN = {"GET /users/@me", "GET /oauth2/applications/@me"}  # and the commands' sync (PUT)


async def test_a_restart_with_every_table_clean_makes_no_call_for_them(tmp_path):
    async with FakeDiscord(token=TOKEN) as fake:
        bot = BotProcess(fake, tmp_path, "notice_grace = 86400")
        try:
            await bot.start_ready()
            players = Players(fake, random.Random(43))
            played = await players.started_donguri("played")
            for _ in range(4):
                click = await players.move(played)
                assert click is not None, fake.summary()
                assert click.accepted, "\n".join([*(c.describe() for c in players.clicks), fake.summary()])
            await players.started_donguri("waiting")
            members = [fake.add_member(f"lobby{i}") for i in range(2)]
            sent = await fake.slash(members[0], fake.add_text_channel("lobby"), "donguri new", players=3)
            await players.answered(sent, "/donguri new")
            await fake.quiet(2.0, timeout=120)
            assert await bot.stop() == 0, bot
            # The bot was down past the next notice time of every table: each gets a pass at start-up
            # (no wait has reached its grace period yet, so it sends nothing either).
            with sqlite3.connect(bot.database) as db:
                assert db.execute("UPDATE game_tables SET notify_at = 1 WHERE status = 'running'").rowcount == 2

            before = len(fake.calls)
            await bot.start_ready()
            await fake.quiet(3.0, timeout=120)
            calls = [str(c) for c in fake.calls[before:]]
            extra = [c for c in calls if c not in LOGIN and not c.startswith("PUT /applications/")]
            assert extra == [], f"start-up called Discord for clean tables: {extra}"
            assert not bot.errors(), "\n".join(bot.errors())
        finally:
            await bot.stop()
            print(bot)
