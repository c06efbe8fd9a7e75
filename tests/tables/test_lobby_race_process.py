"""Two lobby clicks answered out of order: Discord applies interaction responses in the order they
reach it, so a slow answer to the second-last Join can land after the answer to the last Join,
which started the table, and draw the lobby over the running table. The table message must end up
showing the running table (``Delivery.drawn``: a drawing of a version the table has since passed
has the next pass draw the message again)."""

from __future__ import annotations

import asyncio
import random

from tests.support.players import bot_with_players


async def test_a_late_answer_to_a_join_does_not_leave_the_lobby_over_a_started_table(tmp_path):
    async with bot_with_players(tmp_path, random.Random(11)) as (fake, bot, players):
        channel = fake.add_text_channel("games")
        host, second, third = (fake.add_member(f"r{i}") for i in range(3))
        sent = await fake.slash(host, channel, "donguri new", players=3, length="short")
        await players.answered(sent, "/donguri new")
        lobby = await fake.wait_until(
            lambda: next((m for m in reversed(fake.shown(channel.id)) if m.custom_ids("tt:join:")), None),
            timeout=10, what="lobby message",
        )
        join = lobby.custom_ids("tt:join:")[0]
        fake.inject(kind="callback", delay=1.0, times=1)  # the second player's answer is slow
        late = await fake.click(second, lobby, join)
        await asyncio.sleep(0.3)  # their join is committed; its answer is on its way
        last = await fake.click(third, fake.message(lobby.id), join)
        assert await last.wait(5) and await late.wait(5)

        await fake.quiet(3.0, timeout=30)
        shown = fake.message(lobby.id)
        assert not shown.custom_ids("tt:join:"), f"the lobby still shows over the running table: {shown.text()}"
        assert shown.custom_ids("tt:hand:"), shown.text()
        assert not bot.errors(), "\n".join(bot.errors())
