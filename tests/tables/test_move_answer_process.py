"""The real bot against the fake Discord, with discord.py's own retries: a move whose answer fails
on the way is still answered in time, or its mover is told by DM.

discord.py tries an interaction callback that got a 5xx again 1 s later, then 3 s later, by which
time Discord no longer takes an answer (10062): two 502s in a row left the mover with "This
interaction failed", though the move was applied. The bot drops a try still waiting when Discord's
limit nears and makes one more; when none gets through, the mover reads it in their DM.
"""

from __future__ import annotations

import random

from tests.support import audit
from tests.support.players import bot_with_players

CALLBACK = r"/interactions/\d+/[^/]+/callback$"


async def test_a_move_answered_through_failing_callbacks_is_answered_or_told(tmp_path):
    async with bot_with_players(tmp_path, random.Random(31)) as (fake, bot, players):
        members = [fake.add_member(f"answer{i}") for i in range(3)]
        table = await players.open_donguri(fake.add_text_channel("answers"), members)
        await players.wait_started(table, timeout=60)
        await fake.quiet(1.0, timeout=60)

        fault = fake.inject(method="POST", path=CALLBACK, status=502, times=2)
        click = await players.move(table)
        assert click is not None and len(fault.hits) == 2
        assert click.sent.answered and click.accepted, f"the third try answered the click: {click.sent}"
        assert click.sent.latency < fake.interaction_deadline
        await fake.quiet(1.0, timeout=60)

        fault = fake.inject(method="POST", path=CALLBACK, status=502)  # until removed
        before = len(audit.read_tables(bot.database)[table.id].engine.history)
        click = await players.move(table)
        assert click is not None and not click.sent.answered, "no answer could reach the click"
        await fake.wait_until(
            lambda: any("was played" in m.content for m in fake.dms(click.user.id)), timeout=10, what="the DM"
        )
        fake.remove_fault(fault)
        await fake.quiet(1.0, timeout=60)
        assert len(audit.read_tables(bot.database)[table.id].engine.history) == before + 1, "the move stands"
        (told,) = [m.content for m in fake.dms(click.user.id) if "was played" in m.content]
        assert told.startswith("✅ Your move at [this table](https://discord.com/channels/")
        assert not bot.errors(), "\n".join(bot.errors()[:20])
