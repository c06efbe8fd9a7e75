"""Turn notices of clocked tables through the real bot process: they must not flood the table.

A 3-player Donguri table with a one-minute move clock is played for a few tricks (no clock runs
out), then the host pauses it and the player to act tries a move; a table without a clock is
played beside it. A turn ping is a bot message in the table's thread that mentions a member; a
turn DM is a bot DM without a hand (no embed, no buttons) naming the table.
"""

from __future__ import annotations

import asyncio
import random
import re
from dataclasses import dataclass, field

import pytest

from bot.core.i18n import Lang
from tests.support import audit
from tests.support.discord_model import Message
from tests.support.fake_discord import FakeDiscord
from tests.support.players import Table, bot_with_players

MOVES = 9
MISSING_TIME = re.compile(r"\bdue —")  # how a turn notice reads without a deadline


@dataclass
class Seen:
    pings: list[Message] = field(default_factory=list)  # every ping ever posted, deleted ones too
    turn_dms: dict[str, int] = field(default_factory=dict)  # member name -> turn DMs received
    turn_starts: dict[str, int] = field(default_factory=dict)  # member name -> turns begun
    to_act: str = ""  # who the table waits for at the end
    paused_texts: list[str] = field(default_factory=list)  # live texts of the table once paused
    pause_move: bool | None = None  # the move tried while paused: accepted?


def pings(fake: FakeDiscord, table: Table) -> list[Message]:
    thread = fake.model.channels[table.message_id]  # a thread started from a message has its id
    return [
        fake.message(m)
        for m in thread.messages
        if fake.message(m).author_id == fake.model.bot.id and re.search(r"<@\d+>", fake.message(m).content)
    ]


def turn_dms(fake: FakeDiscord, table: Table) -> dict[str, int]:
    mark = re.compile(rf"#{table.id}\b")
    return {
        u.name: sum(1 for m in fake.dms(u.id) if not m.embeds and not m.components and mark.search(m.content))
        for u in table.players
    }


def turn_starts(table: Table, truth: audit.Truth) -> dict[str, int]:
    """How many times each member's turn began: at the start, and whenever the turn came to them."""
    engine = type(truth.engine)(len(truth.seats), truth.engine.seed, dict(truth.engine.options))
    counts = {u.name: 0 for u in table.players}
    names = {
        s.position: next((u.name for u in table.players if u.id == s.user_id), None) for s in truth.seats
    }
    before: set[int] = set()
    for _, seat, action, _ in [(None, None, None, None), *truth.log]:
        if seat is not None:
            engine.apply(seat, action)
        now = set(engine.to_act())
        for s in now - before:
            if names[s]:
                counts[names[s]] += 1
        before = now
    return counts


def most_alive_at_once(messages: list[Message]) -> int:
    events = sorted(
        [(m.created_at, 1) for m in messages] + [(m.deleted_at, -1) for m in messages if m.deleted_at]
    )
    alive = most = 0
    for _, change in events:
        alive += change
        most = max(most, alive)
    return most


async def scenario(directory) -> dict[str, Seen]:
    async with bot_with_players(directory, random.Random(11)) as (fake, bot, players):
        clocked = await players.open_donguri(
            fake.add_text_channel("clocked"), [fake.add_member(f"c{i}") for i in range(3)], clock=60
        )
        free = await players.open_donguri(
            fake.add_text_channel("free"), [fake.add_member(f"f{i}") for i in range(3)]
        )
        seen = {"clocked": Seen(), "free": Seen()}
        for table in (clocked, free):
            await players.wait_started(table)
            done = 0
            while done < MOVES:
                click = await players.move(table)
                done += bool(click and click.accepted)
            await fake.quiet(6.0, timeout=60)  # longer than the channel budget's 5 s window
        truths = audit.read_tables(bot.database)
        for name, table in (("clocked", clocked), ("free", free)):
            seen[name].pings = pings(fake, table)
            seen[name].turn_dms = turn_dms(fake, table)
            seen[name].turn_starts = turn_starts(table, truths[table.id])
            seen[name].to_act = " ".join(u.id for u in players.waiting_for(table))

        # The host pauses the clocked table; the member to act tries to move.
        thread = fake.model.channels[clocked.message_id]
        pause = await fake.slash(clocked.players[0], thread, "table pause")
        await players.answered(pause, "/table pause")
        await fake.quiet(6.0, timeout=60)  # longer than the channel budget's 5 s window
        click = await players.move(clocked)
        seen["clocked"].pause_move = bool(click and click.accepted)
        await fake.quiet(6.0, timeout=60)  # longer than the channel budget's 5 s window
        texts = [players.table_message(clocked).text()]
        texts += [m.text() for m in fake.shown(thread.id)]
        texts += [m.text() for u in clocked.players for m in fake.dms(u.id)]
        seen["clocked"].paused_texts = texts
        return seen


@pytest.fixture(scope="module")
def seen(tmp_path_factory) -> dict[str, Seen]:
    return asyncio.run(scenario(tmp_path_factory.mktemp("clocks")))


def test_a_clocked_table_keeps_at_most_one_turn_ping_in_its_thread(seen):
    clocked = seen["clocked"]
    assert clocked.pings, "a clocked table pings the member to act"
    assert most_alive_at_once(clocked.pings) <= 1, [m.content for m in clocked.pings]
    (live,) = [m for m in clocked.pings if m.live]
    assert clocked.to_act and clocked.to_act in live.content, (clocked.to_act, live.content)


def test_turn_dms_come_once_per_turn_and_only_from_clocked_tables(seen):
    clocked, free = seen["clocked"], seen["free"]
    assert sum(clocked.turn_dms.values()) > 0
    for name, count in clocked.turn_dms.items():
        assert count <= clocked.turn_starts[name], (name, count, clocked.turn_starts)
    assert not any(free.turn_dms.values()), free.turn_dms
    assert not free.pings, [m.content for m in free.pings]


def test_a_paused_table_says_so_everywhere_and_no_notice_lacks_its_time(seen):
    clocked = seen["clocked"]
    broken = [t for t in clocked.paused_texts if MISSING_TIME.search(t)]
    assert not broken, broken
    paused = Lang("en")("clock.paused")
    table_text, *_ = clocked.paused_texts
    assert paused in table_text, table_text
