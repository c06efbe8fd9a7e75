"""A click is acknowledged within Discord's 3 s however long its work takes (bot/tables/in_time.py)."""

from __future__ import annotations

import asyncio

import discord
import pytest

from bot.tables import in_time


class Response:
    def __init__(self, calls: list[str]) -> None:
        self.calls = calls
        self.done = False

    def is_done(self) -> bool:
        return self.done

    async def defer(self) -> None:
        self.calls.append("defer")
        self.done = True

    async def edit_message(self, **fields) -> None:
        self.calls.append(f"edit_message {fields['content']}")
        self.done = True


class Click:
    type = discord.InteractionType.component

    def __init__(self) -> None:
        self.id = 1
        self.calls: list[str] = []
        self.response = Response(self.calls)

    async def edit_original_response(self, **fields) -> None:
        self.calls.append(f"edit_original {fields['content']}")


async def answered(click: Click, work_seconds: float, left: float) -> list[str]:
    async def work() -> str:
        await asyncio.sleep(work_seconds)
        await in_time.update(click, content="new hand")
        return "moved"

    assert await in_time.in_time(click, left, work()) == "moved"
    return click.calls


@pytest.mark.asyncio
async def test_quick_work_is_answered_in_the_response_itself():
    assert await answered(Click(), 0.0, 0.5) == ["edit_message new hand"]


@pytest.mark.asyncio
async def test_slow_work_is_deferred_first_then_edits_the_clicked_message():
    assert await answered(Click(), 0.2, 0.05) == ["defer", "edit_original new hand"]


@pytest.mark.asyncio
async def test_a_late_arrival_is_deferred_at_once():
    arrivals = in_time.Arrivals()
    click = Click()
    arrivals.note(click)
    arrivals.times[click.id] -= in_time.ANSWER_BY + 1  # it reached the bot long ago
    left = arrivals.left(click)
    assert left < 0
    assert await answered(click, 0.05, left) == ["defer", "edit_original new hand"]


@pytest.mark.asyncio
async def test_the_answer_waits_for_a_deferral_in_flight():
    """Discord refuses a second response (40060): the work's answer waits while the deferral is
    being sent, then edits the clicked message instead."""
    click = Click()
    slow = click.response.defer

    async def slow_defer() -> None:
        await asyncio.sleep(0.1)  # the deferral is on its way when the work answers
        await slow()

    click.response.defer = slow_defer
    assert await answered(click, 0.02, 0.01) == ["defer", "edit_original new hand"]
