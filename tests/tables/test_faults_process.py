"""Discord faults during play: a move stays accepted and the table goes on.

One real bot process hosts a table per fault case. Each case makes one surface fail for a while:
the table message's edits, or the players' hand-DM edits, answer 403 (with Discord's error code),
429 (with ``retry_after`` and the rate-limit headers), 500 or 502 through all of discord.py's own
retries (it waits 1+3+5+7 s on a 5xx), or answer slowly. A player moves during the fault. Then
the fault ends and, with nobody acting, the bot must bring every surface up to date by itself;
then play goes on.

The scenario runs once (all cases side by side, about 40 s) and each case is its own test.
After the fault nobody acts for 3 s; a bot that retries by itself has brought every surface up
to date by then (a member whose DMs were closed may instead have been told, once, to use
**My hand / Play**).
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field

import pytest

from tests.support import audit
from tests.support.fake_discord import FakeDiscord
from tests.support.players import Click, Players, Table, bot_with_players

MOVES = 3  # after the fault

# Each fault hits the first call made to its surface, through all of discord.py's own retries of
# that call (5 tries of a 429 or a 5xx), so that the error reaches the bot; a slow answer lasts
# until the bot has nothing left to do.
FAULTS = {
    "403": {"status": 403, "code": 50013, "times": 1},
    "429": {"status": 429, "retry_after": 0.5, "times": 5},
    "500": {"status": 500, "times": 5},
    "502": {"status": 502, "times": 5},
    "slow": {"delay": 2.5},
}
SURFACES = {"table": "channel.message.edit", "dm": "dm.message.edit"}
CASES = [f"{surface}-{fault}" for surface in SURFACES for fault in FAULTS]


def cases(check: str) -> list:
    return list(CASES)


@dataclass
class Outcome:
    during: list[Click] = field(default_factory=list)
    unacknowledged: list[str] = field(default_factory=list)  # committed moves not shown as accepted
    caught_up: list[str] = field(default_factory=list)  # stale or stuck once the fault ended
    after: list[Click] = field(default_factory=list)
    final: list[str] = field(default_factory=list)


def fault_for(fake: FakeDiscord, case: str, table: Table, truth: audit.Truth) -> dict:
    """The fault on the table message, or on the DM of the member who is to act after the next
    move (the first move of a deal passes the turn to the next seat)."""
    surface, kind = case.split("-")
    fault = {**FAULTS[kind], "kind": SURFACES[surface]}
    if surface == "table":
        return {**fault, "channel_id": table.channel.id}
    if kind == "403":
        fault["code"] = 50007  # the member closed their DMs
    return {**fault, "channel_id": fake.model.dm_of[next_to_act(table, truth).id]}


def next_to_act(table: Table, truth: audit.Truth):
    (mover,) = truth.engine.to_act()
    after = truth.seats[(mover + 1) % len(truth.seats)].user_id
    return next(u for u in table.players if u.id == after)


def told_dms_closed(fake: FakeDiscord, table: Table, user) -> bool:
    """The one notice in the table's thread that the member's DMs are closed."""
    thread = table.message_id  # a thread started from a message has its id
    return any(f"<@{user.id}>" in m.content and "DM" in m.content for m in fake.shown(thread))


def taken(click: Click | None) -> bool:
    """The bot took the click as a move (it updated the clicked message), whatever it said after."""
    return click is not None and click.sent is not None and click.sent.updated


async def play(players: Players, table: Table, moves: int, gap: float) -> list[Click]:
    clicks = []
    deadline = time.monotonic() + 30
    while sum(map(taken, clicks)) < moves and time.monotonic() < deadline:
        click = await players.move(table)
        if click is not None:
            clicks.append(click)
        await asyncio.sleep(gap if taken(click) else 0.3)
    return clicks


def problems(players: Players, table: Table, truths) -> list[str]:
    return audit.stale(players, [table], truths) + audit.stuck(players, [table], truths)


async def scenario(directory) -> dict[str, Outcome]:
    async with bot_with_players(directory, random.Random(3)) as (fake, bot, players):
        tables = {}
        for case in CASES:
            members = [fake.add_member(f"{case}-{i}") for i in range(3)]
            tables[case] = await players.open_donguri(fake.add_text_channel(case), members)
        for table in tables.values():
            await players.wait_started(table)
        await fake.quiet(1.0, timeout=30)
        outcomes = {case: Outcome() for case in CASES}
        truths = audit.read_tables(bot.database)
        closed = next_to_act(tables["dm-403"], truths[tables["dm-403"].id])
        faults = [fake.inject(**fault_for(fake, c, t, truths[t.id])) for c, t in tables.items()]
        runs = [play(players, t, 1, 0.0) for t in tables.values()]
        for case, clicks in zip(CASES, await asyncio.gather(*runs), strict=True):
            outcomes[case].during = clicks
        spent = [f for f in faults if f.times is not None]
        await fake.wait_until(lambda: all(len(f.hits) == f.times for f in spent), timeout=60, what="faults")
        await fake.quiet(3.0, timeout=60)  # the bot has given up or finished
        fake.clear_faults()
        await fake.quiet(3.0, timeout=60)  # nobody acts: the bot catches up by itself
        truths = audit.read_tables(bot.database)
        for case, table in tables.items():
            outcome = outcomes[case]
            outcome.caught_up = problems(players, table, truths)
            if case == "dm-403" and told_dms_closed(fake, table, closed):
                # Told once to use My hand / Play: their DM may stay as it was.
                outcome.caught_up = [p for p in outcome.caught_up if closed.name not in p]
        runs = [play(players, t, MOVES, 0.2) for t in tables.values()]
        for case, clicks in zip(CASES, await asyncio.gather(*runs), strict=True):
            outcomes[case].after = clicks
        await fake.quiet(2.0, timeout=60)
        truths = audit.read_tables(bot.database)
        for case, table in tables.items():
            outcome = outcomes[case]
            clicks = outcome.during + outcome.after
            outcome.final = problems(players, table, truths) + audit.lost_or_doubled(clicks, truths)
            outcome.unacknowledged = audit.committed_unacknowledged(fake, outcome.during, truths)
        assert not fake.unknown, fake.summary()
        return outcomes


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory) -> dict[str, Outcome]:
    return asyncio.run(scenario(tmp_path_factory.mktemp("faults")))


def accepted_text(clicks: list[Click]) -> str:
    return ", ".join(f"{c.user.name}:{c.sent.response_type if c.sent else None}" for c in clicks)


@pytest.mark.parametrize("case", cases("during"))
def test_during_a_fault_every_mover_sees_their_move_accepted(outcomes, case):
    outcome = outcomes[case]
    assert any(c.accepted for c in outcome.during), accepted_text(outcome.during)
    assert not outcome.unacknowledged, "\n".join(outcome.unacknowledged)


@pytest.mark.parametrize("case", cases("caught_up"))
def test_once_a_fault_ends_the_bot_brings_every_surface_up_to_date_by_itself(outcomes, case):
    assert not outcomes[case].caught_up, "\n".join(outcomes[case].caught_up)


@pytest.mark.parametrize("case", cases("after"))
def test_after_a_fault_the_table_goes_on(outcomes, case):
    outcome = outcomes[case]
    assert sum(c.accepted for c in outcome.after) >= MOVES, accepted_text(outcome.after)
    assert not outcome.final, "\n".join(outcome.final)
