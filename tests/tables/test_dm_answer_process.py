"""A click in a DM is answered by redrawing that DM in the interaction response; the delivery
worker, which starts on the other surfaces while the click is being answered, must not edit the
clicked DM again. One Discord call per click for the clicker, as the issue asks."""

from __future__ import annotations

import random

from tests.support.players import bot_with_players


async def test_a_clicked_dm_is_redrawn_by_the_answer_alone(tmp_path):
    async with bot_with_players(tmp_path, random.Random(23)) as (fake, bot, players):
        table = await players.started_donguri("dm-answers")
        checked = 0
        for _ in range(30):
            start = len(fake.calls)
            click = await players.move(table)
            if click is None:
                break
            await fake.quiet(0.7, timeout=30)  # whatever this move makes the bot do has been done
            if not click.accepted or click.via != "dm":
                continue
            clicked = f"/messages/{click.sent.message_id}"
            again = [c for c in fake.calls[start:] if c.method == "PATCH" and c.path.endswith(clicked)]
            assert not again, f"{click.custom_id}: the clicked DM was edited again: {again}"
            checked += 1
        assert checked >= 20, f"only {checked} moves made from a DM"
        assert not bot.errors(), "\n".join(bot.errors()[:20])
