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


# ---- an answer that fails on the way (answer_surely) ----------------------------------------------


class Reply:
    def __init__(self, status: int) -> None:
        self.status, self.reason = status, "test"


def refused(status: int, code: int = 0) -> discord.HTTPException:
    return discord.HTTPException(Reply(status), {"code": code, "message": "refused"})


def due_in(click: Click, seconds: float) -> float:
    """Discord takes the click's first answer for ``seconds`` more (as ``in_time`` notes it)."""
    deadline = asyncio.get_running_loop().time() + seconds
    in_time.DEADLINES[click.id] = deadline
    return deadline


@pytest.fixture(autouse=True)
def forget_deadlines():
    yield
    in_time.DEADLINES.clear()


@pytest.mark.asyncio
async def test_a_try_stuck_in_discord_py_s_own_wait_gives_way_to_one_more_in_time(monkeypatch):
    """discord.py tries a 5xx again only 1 s, then 3 s later: a try still waiting when little time
    is left is dropped, and a last one is made before Discord's limit."""
    monkeypatch.setattr(in_time, "LAST_TRY", 0.2)
    click = Click()
    deadline = due_in(click, 0.6)
    loop = asyncio.get_running_loop()
    tries: list[float] = []

    async def answer() -> None:
        tries.append(loop.time())
        if len(tries) == 1:
            await asyncio.sleep(10)  # a 502, then discord.py's wait before its next try

    assert await in_time.answer_surely(click, answer)
    assert len(tries) == 2
    assert deadline - 0.2 - 0.05 <= tries[1] <= deadline - 0.1, "given way when only LAST_TRY was left"


@pytest.mark.asyncio
async def test_a_try_refused_as_already_answered_counts_as_answered():
    """A try got through but its reply was lost; the next is refused with 40060. The clicked
    message is then edited through the interaction's webhook, whatever got through."""
    click = Click()
    due_in(click, 1.0)
    outcomes = [refused(502), refused(400, in_time.ALREADY_ANSWERED)]

    async def answer() -> None:
        raise outcomes.pop(0)

    async def make_sure() -> None:
        await click.edit_original_response(content="new hand")

    assert await in_time.answer_surely(click, answer, make_sure)
    assert click.calls == ["edit_original new hand"] and not outcomes


@pytest.mark.asyncio
async def test_a_refusal_no_retry_mends_is_raised_at_once():
    click = Click()
    due_in(click, 1.0)
    tries = []

    async def answer() -> None:
        tries.append(1)
        raise refused(400, 50035)

    with pytest.raises(discord.HTTPException):
        await in_time.answer_surely(click, answer)
    assert len(tries) == 1


@pytest.mark.asyncio
async def test_tries_end_with_discord_s_time(monkeypatch):
    monkeypatch.setattr(in_time, "LAST_TRY", 0.1)
    monkeypatch.setattr(in_time, "RETRY_AFTER", 0.05)
    click = Click()
    deadline = due_in(click, 0.5)
    loop = asyncio.get_running_loop()
    tries: list[float] = []

    async def answer() -> None:
        tries.append(loop.time())
        raise refused(502)

    assert not await in_time.answer_surely(click, answer)
    assert 2 <= len(tries) <= in_time.TRIES and tries[-1] <= deadline - 0.1 + 0.02
    assert loop.time() <= deadline, "given up before Discord's limit, to tell the member another way"
