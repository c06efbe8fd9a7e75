"""Two lobby clicks answered out of order. Discord applies interaction responses in the order they
reach it, so a slow answer to the second-last Join can land after the answer to the last Join,
which started the table, and draw the lobby over the running table; meanwhile the answer that
started it may be stored last, so the stored fingerprint says "running" while Discord shows the
lobby. The table message must still end up showing the running table (``Delivery.drawn``: a
drawing of a version the table has since passed has the next pass draw the message again)."""

from __future__ import annotations

import asyncio
import random

from tests.support.bot_process import TOKEN, BotProcess
from tests.support.fake_discord import FakeDiscord
from tests.support.players import Players


async def test_a_late_answer_to_a_join_does_not_leave_the_lobby_over_a_started_table(tmp_path):
    async with FakeDiscord(token=TOKEN) as fake:
        bot = BotProcess(fake, tmp_path)
        try:
            await bot.start_ready()
            players = Players(fake, random.Random(11))
            channel = fake.add_text_channel("games")
            host, second, third = (fake.add_member(f"r{i}") for i in range(3))
            sent = await fake.slash(host, channel, "donguri new", players=3, length="short")
            await players.answered(sent, "/donguri new")
            # "Your table is open" comes once the table knows its message.
            await fake.wait_until(lambda: sent.followups, timeout=10, what="table opened")
            lobby = await fake.wait_until(
                lambda: next((m for m in reversed(fake.shown(channel.id)) if m.custom_ids("tt:join:")), None),
                timeout=10, what="lobby message",
            )
            join = lobby.custom_ids("tt:join:")[0]
            fake.inject(kind="callback", delay=1.0, times=1)  # the second player's answer lands late
            late = await fake.click(second, lobby, join)
            await asyncio.sleep(0.3)  # their join is committed; its answer is on its way
            fake.inject(kind="callback", after=5.0, times=1)  # the bot learns late that the start's landed
            # The worker's own edits of the table message are refused three times (a moderator's slip), so
            # it tries again only once both answers have landed and been stored.
            fake.inject(kind="channel.message.edit", status=403, code=50013, times=3)
            last = await fake.click(third, fake.message(lobby.id), join)
            assert await last.wait(10) and await late.wait(10)

            await fake.quiet(6.0, timeout=40)
            shown = fake.message(lobby.id)
            assert not shown.custom_ids("tt:join:"), f"the lobby still shows over the running table: {shown.text()}"
            assert shown.custom_ids("tt:hand:"), shown.text()
            assert not bot.errors(), "\n".join(bot.errors())
        finally:
            await bot.stop()
            print(bot)
