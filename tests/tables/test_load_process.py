"""A short load: dozens of tables played at once through the real bot process.

Every table's members play as fast as the bot answers (a closed loop) for a few seconds. Every
click must be answered within Discord's 3 s, no member may be told "something went wrong", the
bot may log no error, no channel (DMs included) may get more than 5 calls in 5 s, and the bot no more
than 50 calls in a second besides its answers to clicks (Discord's global limit). ``LOAD_TABLES``
and ``LOAD_SECONDS`` make it bigger.
"""

from __future__ import annotations

import asyncio
import os
import random

from bot.core.i18n import Lang
from tests.support import audit
from tests.support.fake_discord import FakeDiscord, busiest_channel, busiest_second
from tests.support.players import Players, Table, bot_with_players

TABLES = int(os.environ.get("LOAD_TABLES", "30"))
SECONDS = float(os.environ.get("LOAD_SECONDS", "5"))
UNEXPECTED = Lang("en")("error.unexpected", id="").split("`")[0].strip()


async def open_tables(fake: FakeDiscord, players: Players, count: int) -> list[Table]:
    async def one(n: int) -> Table:
        members = [fake.add_member(f"l{n}x{i}") for i in range(3)]
        table = await players.open_donguri(fake.add_text_channel(f"load-{n}"), members)
        await players.wait_started(table, timeout=60)
        return table

    return list(await asyncio.gather(*(one(n) for n in range(count))))


async def keep_playing(players: Players, table: Table, until: float) -> None:
    loop = asyncio.get_running_loop()
    while loop.time() < until:
        click = await players.move(table)
        if click is None:
            await asyncio.sleep(0.05)


async def test_dozens_of_tables_at_once_every_click_answered_and_no_error(tmp_path):
    async with bot_with_players(tmp_path, random.Random(17)) as (fake, bot, players):
        tables = await open_tables(fake, players, TABLES)
        start = len(fake.calls)
        until = asyncio.get_running_loop().time() + SECONDS
        await asyncio.gather(*(keep_playing(players, t, until) for t in tables))
        await fake.quiet(1.0, timeout=60)

        sent = [s for s in fake.sent.values() if s.custom_id]
        unanswered = [s.custom_id for s in sent if not s.answered]
        late = [(s.custom_id, s.refused) for s in sent if s.refused]
        texts = [(s.response or {}).get("content") or "" for s in sent]
        texts += [fake.message(m).content for s in sent for m in s.followups]
        told = [t for t in texts if UNEXPECTED in t]
        moves = sum(c.accepted for c in players.clicks)
        print(f"{len(tables)} tables, {SECONDS}s: {len(sent)} clicks, {moves} moves")
        assert moves >= len(tables), f"only {moves} moves"
        assert not unanswered, f"{len(unanswered)} of {len(sent)} clicks unanswered: {unanswered[:5]}"
        assert not late, f"{len(late)} answers refused: {late[:5]}"
        assert not told, f"{len(told)} of {moves} moves told: {told[:3]}"
        assert not bot.errors(), "\n".join(bot.errors()[:20])
        truths = audit.read_tables(bot.database)
        assert not audit.lost_or_doubled(players.clicks, truths)
        channel, most = busiest_channel(fake.calls)
        assert most <= 5, f"{most} calls within 5 s in channel {channel}"  # Discord allows 5 (a DM too)
        second = busiest_second(fake.calls[start:])
        print(f"busiest second: {second} calls besides answers to clicks")
        assert second <= 50, f"{second} calls within a second"  # Discord allows a bot 50
