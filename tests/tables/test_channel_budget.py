"""The channel budget counts a call from when it ended: Discord counts it when it arrives, and a call
can start long after the budget allowed it (an intent committed first, a busy event loop)."""

from __future__ import annotations

import asyncio

import pytest

from bot.tables.budget import CHANNEL_SLACK, CHANNEL_WINDOW, Budgets, Later

CHANNEL = 42


def delivery_at(monkeypatch, now: list[float], budget: int) -> Budgets:
    monkeypatch.setattr(asyncio.get_running_loop(), "time", lambda: now[0])
    return Budgets(budget, 0)


async def test_a_slow_call_counts_from_when_it_ended(monkeypatch):
    now = [100.0]
    delivery = delivery_at(monkeypatch, now, budget=1)
    async with delivery.spending(CHANNEL):
        now[0] += 2.0  # the call reached Discord as late as this
    now[0] = 100.0 + CHANNEL_WINDOW + CHANNEL_SLACK + 0.1  # past its start's window, not its end's
    with pytest.raises(Later) as later:
        delivery.spend(CHANNEL)
    assert later.value.delay == pytest.approx(1.9)
    now[0] = 102.0 + CHANNEL_WINDOW + CHANNEL_SLACK + 0.01
    delivery.spend(CHANNEL)


async def test_the_budget_allows_five_calls_per_window_and_tells_when_the_next_fits(monkeypatch):
    now = [0.0]
    delivery = delivery_at(monkeypatch, now, budget=5)
    for _ in range(5):
        async with delivery.spending(CHANNEL):
            now[0] += 0.1
    with pytest.raises(Later) as later:
        delivery.spend(CHANNEL, peek=True)
    assert later.value.delay == pytest.approx(0.1 + CHANNEL_WINDOW + CHANNEL_SLACK - 0.5)
    delivery.spend(CHANNEL + 1)  # another channel has its own budget
    now[0] = 0.1 + CHANNEL_WINDOW + CHANNEL_SLACK + 1e-6
    delivery.spend(CHANNEL)  # the first call has left the window


async def test_a_call_that_failed_still_counts(monkeypatch):
    now = [0.0]
    delivery = delivery_at(monkeypatch, now, budget=1)
    with pytest.raises(RuntimeError):
        async with delivery.spending(CHANNEL):
            raise RuntimeError("502")
    with pytest.raises(Later):
        delivery.spend(CHANNEL)
