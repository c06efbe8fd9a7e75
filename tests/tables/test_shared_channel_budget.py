"""Processes sharing a database keep each channel's budget together: Discord counts a channel's
messages and edits whichever process makes them, so two processes delivering tables in one
channel (or a member's DM) get no more calls there than one would."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage.store import Store
from bot.tables import budget as budget_module
from bot.tables.budget import CHANNEL_SLACK, CHANNEL_WINDOW, Budgets, Later

CHANNEL = 555


def frozen_clocks(monkeypatch):
    """The event loop's clock and the wall clock, from now on moved only by the test (the stores
    are opened first: their connections need the real clock)."""
    now = {"loop": 100.0, "wall": 1_700_000_000.0}
    monkeypatch.setattr(asyncio.get_running_loop(), "time", lambda: now["loop"])
    monkeypatch.setattr(budget_module.time, "time", lambda: now["wall"])

    def tick(seconds: float) -> None:
        now["loop"] += seconds
        now["wall"] += seconds

    return tick


async def processes(database: str, count: int) -> tuple[list[Budgets], list[Store]]:
    """Each process's budgets, counting in the shared database through its own store."""
    budgets, stores = [], []
    for _ in range(count):
        one = Budgets(channel_budget=5, rest_budget=0)
        stores.append(await Store.open(database))
        one.shared = stores[-1].shared_work
        budgets.append(one)
    return budgets, stores


async def test_two_processes_share_the_five_calls_of_a_channel(database, monkeypatch):
    (a, b), stores = await processes(database, 2)
    clocks = frozen_clocks(monkeypatch)
    try:
        for n in range(5):
            async with (a, b)[n % 2].spending(CHANNEL):
                clocks(0.1)  # each call's answer comes back 0.1 s after it was counted
        for one in (a, b):
            with pytest.raises(Later) as later:
                async with one.spending(CHANNEL):
                    pytest.fail("a sixth call in 5 s")
            # The first call ended 0.1 s in, 0.5 s ago.
            assert later.value.delay == pytest.approx(0.1 + CHANNEL_WINDOW + CHANNEL_SLACK - 0.5)
        # A refused call is taken back from the asking process's own count, and another channel has
        # its own budget.
        assert (len(a.calls[CHANNEL]), len(b.calls[CHANNEL])) == (3, 2)
        async with a.spending(CHANNEL + 1):
            pass
        clocks(CHANNEL_WINDOW + CHANNEL_SLACK - 0.4 + 0.01)  # the first call has left the window
        async with b.spending(CHANNEL):
            pass
        with pytest.raises(Later):
            async with a.spending(CHANNEL):
                pass
    finally:
        monkeypatch.undo()
        for store in stores:
            await store.close()


async def test_a_call_that_failed_still_counts_for_the_other_process(database, monkeypatch):
    (a, b), stores = await processes(database, 2)
    clocks = frozen_clocks(monkeypatch)
    try:
        a.channel_budget = b.channel_budget = 1
        with pytest.raises(RuntimeError):
            async with a.spending(CHANNEL):
                raise RuntimeError("502")
        clocks(1.0)
        with pytest.raises(Later) as later:
            async with b.spending(CHANNEL):
                pass
        assert later.value.delay == pytest.approx(CHANNEL_WINDOW + CHANNEL_SLACK - 1.0)
    finally:
        monkeypatch.undo()
        for store in stores:
            await store.close()


async def test_the_counts_of_channels_gone_quiet_are_dropped(database):
    store = await Store.open(database)
    try:
        for channel, at in ((1, 1000.0), (1, 1001.0), (2, 1050.0)):
            call, _ = await store.shared_work.take_channel_call(channel, at, CHANNEL_WINDOW, 5)
            assert call is not None
        await store.shared_work.prune_channel_calls(1040.0)
        rows = await store.db.fetch("SELECT channel_id FROM channel_calls ORDER BY id")
        assert [r["channel_id"] for r in rows] == [2]
        # A channel's own old calls go when it is next counted, whatever the others'.
        await store.shared_work.take_channel_call(2, 1060.0, CHANNEL_WINDOW, 5)
        rows = await store.db.fetch("SELECT at FROM channel_calls ORDER BY id")
        assert [r["at"] for r in rows] == [1060.0]
    finally:
        await store.close()
