"""The background worker keeps one pass per table at a time, and of two delays the sooner stands:
a table whose message is put off for seconds must not hold back a DM that can be retried now."""

from __future__ import annotations

import asyncio

from bot.tables.worker import Worker


async def test_a_sooner_retry_replaces_a_later_one_and_a_later_one_does_not_delay_it():
    loop = asyncio.get_running_loop()
    passes: list[float] = []

    async def handle(key: int) -> None:
        passes.append(loop.time())

    worker = Worker("test", handle)
    start = loop.time()
    worker.request(1, delay=5.0)  # the record's pace
    worker.request(1, delay=0.05)  # a DM to try again at once
    worker.request(1, delay=3.0)  # the channel's budget: later than what is already due
    await asyncio.sleep(0.3)
    assert len(passes) == 1 and passes[0] - start < 0.3
    assert worker.idle
    await worker.close()


async def test_a_request_during_a_pass_runs_once_more_afterwards():
    started, release = asyncio.Event(), asyncio.Event()
    passes: list[int] = []

    async def handle(key: int) -> None:
        passes.append(key)
        started.set()
        await release.wait()

    worker = Worker("test", handle)
    worker.request(7)
    await started.wait()
    worker.request(7)  # a move committed while the pass ran
    worker.request(7)  # and another: still one more pass, not two
    release.set()
    await asyncio.sleep(0.05)
    assert passes == [7, 7]
    await worker.close()
