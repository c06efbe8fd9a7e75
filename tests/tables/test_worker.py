"""The background worker keeps one pass per table at a time, and of two delays the sooner stands:
a table whose message is put off for seconds must not hold back a DM that can be retried now."""

from __future__ import annotations

import asyncio

import pytest

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


async def test_urgent_work_does_not_wait_behind_other_keys_usual_work():
    """The delivery worker's passes are all busy (slow at their paced surfaces); a table just moved
    still has its hands drawn at once, and its whole pass follows them, in its turn."""
    release = asyncio.Event()
    done: list[tuple[str, int]] = []

    async def handle(key: int) -> None:
        if key != 9:
            await release.wait()
        done.append(("pass", key))

    async def hands(key: int) -> None:
        done.append(("hands", key))

    worker = Worker("test", handle, limit=2, first=hands)
    worker.request(1)
    worker.request(2)
    worker.request(3)  # queued: both tasks are busy
    worker.request(9, urgent=True)
    await asyncio.sleep(0.05)
    assert done == [("hands", 9)], "the moved table's hands, ahead of every pass queued before"
    release.set()
    await asyncio.sleep(0.05)
    assert sorted(done[1:]) == [("pass", 1), ("pass", 2), ("pass", 3), ("pass", 9)], "then every pass"
    assert done.index(("pass", 9)) > done.index(("pass", 3)), "its pass in its turn, after those asked before"
    assert worker.idle
    await worker.close()


@pytest.mark.parametrize("alongside", [True, False])
async def test_urgent_work_runs_beside_its_keys_pass_only_when_allowed(alongside):
    """A move made while its table's pass is slow at a paced surface: its hands start at once when
    they may run beside it (the handlers keep out of each other's way); else the table's next pass
    starts as soon as that one ends, hands first."""
    release = asyncio.Event()
    done: list[str] = []

    async def handle(key: int) -> None:
        done.append("pass")
        await release.wait()
        done.append("pass ended")

    async def hands(key: int) -> None:
        done.append("hands")

    worker = Worker("test", handle, first=hands, alongside=alongside)
    worker.request(5)
    await asyncio.sleep(0.01)
    worker.request(5, urgent=True)  # a move, while the pass runs
    await asyncio.sleep(0.05)
    assert done == (["pass", "hands"] if alongside else ["pass"])
    release.set()
    await asyncio.sleep(0.05)
    if alongside:
        assert done == ["pass", "hands", "pass ended", "pass", "pass ended"], "and the pass again, for the move"
    else:
        assert done == ["pass", "pass ended", "pass", "pass ended"], "the next pass, at once, draws the hands"
    await worker.close()


async def test_a_pass_that_takes_the_key_first_does_the_urgent_part_once():
    """Urgent work that has not started when the key's pass does is covered by that pass (hands
    first): it is not done a second time."""
    release = asyncio.Event()
    done: list[str] = []

    async def handle(key: int) -> None:
        done.append(f"pass {key}")

    async def hands(key: int) -> None:
        await release.wait()
        done.append(f"hands {key}")

    worker = Worker("test", handle, first=hands, first_limit=1)
    worker.request(1, urgent=True)  # takes the one task for urgent work, and waits
    worker.request(2, urgent=True)  # waits for that task; its pass starts at once
    await asyncio.sleep(0.05)
    assert done == ["pass 2"]
    release.set()
    await asyncio.sleep(0.05)
    assert sorted(done) == ["hands 1", "pass 1", "pass 2"], "table 2's hands were drawn by its pass"
    assert worker.idle
    await worker.close()
