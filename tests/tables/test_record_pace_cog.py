"""A table with nothing new to show is clean at once, whatever the pace of its paced surfaces.

The record changes at most once in 5 s and the table message once in 2 s (with Discord's budget of 5
calls per channel; longer here, in virtual time). A pass put off by a pace leaves the table dirty
until it runs again. The record looked at its pace before looking for anything to show: after a
restart, the recovery pass showed the lines left over, and the next pass (a move that adds no
line) waited out the record's pace with nothing to add; the table stayed dirty 5 s. Likewise a
table message that already showed the state, once a process took the table over, waited out the
pace of its last edit before finding so.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.tables import record
from bot.tables.budget import CHANNEL_WINDOW
from tests.games.donguri.test_donguri_cog import play_trick
from tests.support.table import make_world, play_from_dm, start_donguri, thread, to_act


@pytest.fixture(autouse=True)
def record_pace_of_a_minute(monkeypatch, bot_config):
    """With the tests' huge channel budget: waited out only by virtual time (the simulator's clock
    runs with the real one, and waits for anything due within 5 s)."""
    monkeypatch.setattr(record, "RECORD_PACE", 60 * bot_config.channel_budget / CHANNEL_WINDOW)


def tricks_shown(world) -> int:
    return sum(m.content.count("Trick ") for m in thread(world).history() if m.author.bot)


async def dirty(bot) -> bool:
    (table,) = await bot.service.store.tables_with_status("running")
    return table.dirty


async def test_after_a_restart_a_move_that_adds_no_line_leaves_the_table_clean_at_once(
    simcord_env, restart, monkeypatch
):
    world = make_world(simcord_env)
    await start_donguri(world)
    await play_trick(world)
    for _ in range(2):
        (member,) = to_act(world)
        await play_from_dm(member)
    # The trick's last card is played just before the bot goes down: its line is not shown yet.
    (member,) = to_act(world)
    monkeypatch.setattr(simcord_env.bot.delivery.worker, "request", lambda *args, **kwargs: None)
    await play_from_dm(member)
    assert tricks_shown(world) == 1
    bot = await restart()
    assert tricks_shown(world) == 2, "the recovery pass shows the line left over"
    assert not await dirty(bot)

    (member,) = to_act(world)
    await play_from_dm(member)  # the next trick's first card: no record line
    assert not await dirty(bot), "nothing to show: clean at once, not after the record's pace"

    for _ in range(2):  # the trick ends: a line to show, which waits for the pace
        (member,) = to_act(world)
        await play_from_dm(member)
    assert await dirty(bot) and tricks_shown(world) == 2, "the record keeps its pace"
    await simcord_env.advance_time(61)
    assert not await dirty(bot) and tricks_shown(world) == 3


async def test_paces_left_by_another_process_do_not_hold_a_table_with_nothing_new(simcord_env, restart, monkeypatch):
    """With a shared database, a process that takes a table over loads the times its paced
    surfaces last changed (``load_shown``). A pass with nothing new is not held by them."""
    world = make_world(simcord_env)
    await start_donguri(world)
    await play_trick(world)
    shown = dict(simcord_env.bot.delivery.shown)  # what each surface shows, as a shared database keeps it
    bot = await restart()
    (table,) = await bot.service.store.tables_with_status("running")
    assert not table.dirty
    monkeypatch.setattr(bot.config, "channel_budget", 1)  # paces of 10 s (message) and more (record)
    # As ``load_shown`` leaves a table it takes over: the fingerprints and the paces as stored.
    surfaces = bot.delivery
    surfaces.shown.update(shown)
    surfaces.message_states.pop(table.id, None)
    now = asyncio.get_running_loop().time()
    surfaces.pace.last["record"][table.id] = surfaces.pace.last["message"][table.id] = now
    await bot.service.store.update_table(table.id, dirty=1)
    surfaces.request(table.id)
    await simcord_env.settle()
    assert not await dirty(bot)
