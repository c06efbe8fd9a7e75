"""After a restart the bot sends hands to the DM channels it opened before, without fetching the
members or opening the channels again: both calls count towards Discord's 50 a second, and after
a deploy every active member would cost two."""

from __future__ import annotations

import random

from tests.support.players import bot_with_players


async def test_after_a_restart_known_members_get_their_hands_without_opening_dms_again(tmp_path):
    async with bot_with_players(tmp_path, random.Random(5)) as (fake, bot, players):
        members = [fake.add_member(f"m{i}") for i in range(3)]
        first = await players.open_donguri(fake.add_text_channel("games-1"), members)
        await players.wait_started(first)
        await fake.quiet(1.0, timeout=30)  # every hand delivered
        opened = [c for c in fake.calls if c.kind == "dm.open"]
        assert len(opened) == 3, [str(c) for c in opened]  # one per member, the first time

        await bot.kill()
        await bot.start_ready()
        start = len(fake.calls)
        second = await players.open_donguri(fake.add_text_channel("games-2"), members)
        await players.wait_started(second)
        await fake.quiet(1.0, timeout=30)

        later = [str(c) for c in fake.calls[start:] if c.kind in ("dm.open", "user.get")]
        assert later == []
        for member in members:  # and each got the new table's hand in the same DM as before
            dm = players.hand_dm(second, member)
            assert dm is not None and str(dm.channel_id) == str(fake.model.dm_of[member.id])


async def test_a_stored_dm_channel_that_is_gone_is_opened_again(tmp_path):
    async with bot_with_players(tmp_path, random.Random(6)) as (fake, bot, players):
        members = [fake.add_member(f"g{i}") for i in range(3)]
        first = await players.open_donguri(fake.add_text_channel("games-1"), members)
        await players.wait_started(first)
        await fake.quiet(1.0, timeout=30)
        await bot.kill()
        gone = members[0]
        old = fake.model.dm_of.pop(gone.id)
        del fake.model.channels[old]  # Discord no longer knows that channel: sends to it get 404
        await bot.start_ready()

        second = await players.open_donguri(fake.add_text_channel("games-2"), members)
        await players.wait_started(second)
        await fake.quiet(1.0, timeout=30)
        dm = players.hand_dm(second, gone)
        assert dm is not None and str(dm.channel_id) == str(fake.model.dm_of[gone.id]) != old
        assert not bot.errors(), "\n".join(bot.errors())
