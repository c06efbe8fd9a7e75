"""Turn notices through the real bot process: nobody who is playing is told, and a player who is
away is told once by DM, which says they have played once they move.

The bot runs with a grace period of ``GRACE`` seconds (``notice_grace``). Two 3-player Donguri
tables are played briskly, one with a five-minute move clock and one without. Each then waits
longer than the grace period for the member to act; on the clocked table that member then moves.
Then the host pauses it and the member to act tries a move. A turn ping is a bot message in the
table's thread that mentions a member (none for a member who gets the DM); a turn DM is a bot DM
without a hand (no embed, no buttons) naming the table.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from dataclasses import dataclass, field

import pytest

from bot.core.i18n import Lang
from tests.support.discord_model import Message
from tests.support.fake_discord import FakeDiscord
from tests.support.players import Table, bot_with_players

MOVES = 9
GRACE = 10
MISSING_TIME = re.compile(r"\bdue —")  # how a turn notice reads without a deadline


@dataclass
class Seen:
    pings: list[Message] = field(default_factory=list)  # every ping ever posted, deleted ones too
    turn_dms: list[Message] = field(default_factory=list)  # every turn DM ever sent, deleted ones too
    played: float = 0.0  # when the brisk play ended (monotonic)
    away: str = ""  # the member the table then waited for
    moved: float | None = None  # when they moved after the wait (the clocked table)
    paused_texts: list[str] = field(default_factory=list)  # live texts of the table once paused
    pause_move: bool | None = None  # the move tried while paused: accepted?


def pings(fake: FakeDiscord, table: Table) -> list[Message]:
    thread = fake.model.channels[table.message_id]  # a thread started from a message has its id
    return [
        fake.message(m)
        for m in thread.messages
        if fake.message(m).author_id == fake.model.bot.id and re.search(r"<@\d+>", fake.message(m).content)
    ]


def turn_dms(fake: FakeDiscord, table: Table) -> list[Message]:
    mark = re.compile(rf"#{table.id}\b")
    sent = []
    for user in table.players:
        channel = fake.model.channels.get(fake.model.dm_of.get(user.id, ""))
        for message in [fake.message(m) for m in (channel.messages if channel else [])]:
            if message.author_id == fake.model.bot.id and not message.embeds and not message.components:
                if mark.search(message.content):
                    sent.append(message)
    return sent


async def scenario(directory) -> dict[str, Seen]:
    async with bot_with_players(directory, random.Random(11), f"notice_grace = {GRACE}") as (fake, bot, players):
        clocked = await players.open_donguri(
            fake.add_text_channel("clocked"), [fake.add_member(f"c{i}") for i in range(3)], clock=300
        )
        free = await players.open_donguri(
            fake.add_text_channel("free"), [fake.add_member(f"f{i}") for i in range(3)]
        )
        seen = {"clocked": Seen(), "free": Seen()}
        for name, table in (("clocked", clocked), ("free", free)):
            await players.wait_started(table)
            done = 0
            while done < MOVES:
                click = await players.move(table)
                done += bool(click and click.accepted)
            seen[name].played = time.monotonic()
        # Both tables wait longer than the grace period; then the clocked table's member moves.
        await asyncio.sleep(max(0.0, seen["free"].played + GRACE + 3 - time.monotonic()))
        await fake.quiet(2.0, timeout=60)
        for name, table in (("clocked", clocked), ("free", free)):
            (away,) = players.waiting_for(table)  # the table message is drawn at its pace: read it now
            seen[name].away = away.id
        click = await players.move(clocked)
        assert click and click.accepted
        seen["clocked"].moved = time.monotonic()
        await fake.quiet(2.0, timeout=60)

        # The host pauses the clocked table; the member to act tries to move.
        thread = fake.model.channels[clocked.message_id]
        pause = await fake.slash(clocked.players[0], thread, "table pause")
        await players.answered(pause, "/table pause")
        await fake.quiet(6.0, timeout=60)  # longer than the channel budget's 5 s window
        click = await players.move(clocked)
        seen["clocked"].pause_move = bool(click and click.accepted)
        await fake.quiet(6.0, timeout=60)  # longer than the channel budget's 5 s window
        for name, table in (("clocked", clocked), ("free", free)):
            seen[name].pings = pings(fake, table)
            seen[name].turn_dms = turn_dms(fake, table)
        texts = [players.table_message(clocked).text()]
        texts += [m.text() for m in fake.shown(thread.id)]
        texts += [m.text() for u in clocked.players for m in fake.dms(u.id)]
        seen["clocked"].paused_texts = texts
        return seen


@pytest.fixture(scope="module")
def seen(tmp_path_factory) -> dict[str, Seen]:
    return asyncio.run(scenario(tmp_path_factory.mktemp("clocks")))


@pytest.mark.parametrize("name", ["clocked", "free"])
def test_nobody_is_told_while_the_table_is_played_briskly(seen, name):
    table = seen[name]
    early = [m.content for m in table.pings + table.turn_dms if m.created_at < table.played]
    assert not early, early


@pytest.mark.parametrize("name", ["clocked", "free"])
def test_the_member_who_is_away_is_told_once_by_dm(seen, name):
    table = seen[name]
    (dm,) = table.turn_dms
    assert dm.created_at - table.played >= GRACE - 1, "not before the grace period"
    assert not [m.content for m in table.pings if f"<@{table.away}>" in m.content], "the DM is their one ping"
    if name == "free":
        assert dm.live and "due" not in dm.content, "still waiting"


def test_the_dm_says_played_once_the_member_moves_and_stays(seen):
    clocked = seen["clocked"]
    (dm,) = clocked.turn_dms
    assert clocked.moved is not None
    assert dm.live and dm.content.startswith("✓ Played"), "edited, not deleted under the eyes of its player"
    assert dm.edits and dm.edits[0] - dm.created_at > 1.0, "it said their turn until the move"


def test_a_paused_table_says_so_everywhere_and_no_notice_lacks_its_time(seen):
    clocked = seen["clocked"]
    assert clocked.pause_move is False
    broken = [t for t in clocked.paused_texts if MISSING_TIME.search(t)]
    assert not broken, broken
    paused = Lang("en")("clock.paused")
    table_text, *_ = clocked.paused_texts
    assert paused in table_text, table_text
