"""The clock's one timer, driven without Discord: a run that handles several due tables arms the timer
once, when it is done; a cancelled run is quiet; a deadline whose handling fails is retried later."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from bot.tables.clock import RETRY_AFTER, Scheduler, TableClocks, now


class FakeStore:
    """Deadlines and claims in memory, as ``Store`` keeps them in the database."""

    def __init__(self, deadlines: dict[int, float]) -> None:
        self.deadlines = deadlines
        self.claims: dict[int, float] = {}
        self.shared_work = self  # the claims, which ``Store`` keeps in its ``shared_work``

    async def next_due(self):
        return min((max(d, self.claims.get(i, d)) for i, d in self.deadlines.items()), default=None)

    async def claim_due(self, at: float, until: float):
        ids = [i for i, d in sorted(self.deadlines.items()) if d <= at and self.claims.get(i, 0) <= at]
        self.claims.update({i: until for i in ids})
        return ids

    async def release_due(self, table_id: int) -> None:
        self.claims.pop(table_id, None)


def fake_bot(deadlines: dict[int, float], handled: bool = True):
    """A bot whose tables' deadlines move an hour on when handled (unless ``handled`` is False); the
    refresh after each table asks the scheduler to re-arm, as the real delivery does."""
    bot = SimpleNamespace(store=FakeStore(deadlines), is_closed=lambda: False)
    armed_during_run: list[float | None] = []

    async def expire(table_id: int, choose=None) -> None:
        if handled:
            deadlines[table_id] = now() + 3600

    async def refresh(table_id: int) -> None:
        await bot.scheduler.rearm()
        armed_during_run.append(bot.scheduler.armed_for)

    async def table(table_id: int):
        return SimpleNamespace(id=table_id, deadline=deadlines[table_id], remind_at=None)

    async def for_timeout(table_id: int):
        return None

    bot.service = SimpleNamespace(expire=expire, table=table)
    bot.delivery = SimpleNamespace(refresh=refresh)
    bot.scheduler = Scheduler(bot.is_closed)
    computers = SimpleNamespace(for_timeout=for_timeout)
    bot.scheduler.sources.append(TableClocks(bot.store, bot.service, bot.delivery, computers))
    return bot, armed_during_run


async def test_a_run_over_several_due_tables_arms_the_timer_once_at_its_end():
    past = now() - 10
    bot, armed_during_run = fake_bot({1: past, 2: past, 3: past})
    await bot.scheduler.run_due()
    # Before the fix, handling table 1 armed the timer for table 2's passed deadline: a second run
    # queued behind the busy one, fired at once, again and again.
    assert armed_during_run == [None, None, None]
    assert bot.scheduler.armed_for is not None and bot.scheduler.armed_for > now() + 3500
    bot.scheduler.stop()


async def test_a_deadline_still_due_after_its_run_is_retried_later_not_at_once():
    bot, _ = fake_bot({1: now() - 10}, handled=False)
    await bot.scheduler.run_due()
    assert bot.scheduler.armed_for >= now() + RETRY_AFTER - 5
    bot.scheduler.stop()


async def test_a_cancelled_run_reports_no_error_and_stop_cancels_the_run():
    bot, _ = fake_bot({})
    gate = asyncio.Event()

    async def stuck() -> None:
        await gate.wait()

    bot.scheduler.run_due = stuck
    loop = asyncio.get_running_loop()
    errors = []
    loop.set_exception_handler(lambda _loop, context: errors.append(context))
    try:
        before = asyncio.all_tasks()
        bot.scheduler._fire()
        (run,) = asyncio.all_tasks() - before
        await asyncio.sleep(0)
        run.cancel()  # e.g. the loop shutting down mid-run
        for _ in range(3):
            await asyncio.sleep(0)
        assert errors == [], "the done-callback must not raise for a cancelled run"
        bot.scheduler._fire()
        await asyncio.sleep(0)
        bot.scheduler.stop()  # the bot shuts down: its run is cancelled too
        for _ in range(3):
            await asyncio.sleep(0)
        assert bot.scheduler.task is None and errors == []
    finally:
        loop.set_exception_handler(None)


async def test_after_a_restart_on_sqlite_a_dead_process_claim_does_not_delay_a_deadline(tmp_path):
    from bot.storage.store import Store

    store = await Store.open(str(tmp_path / "t.sqlite3"))
    try:
        table_id = await store.create_table(
            game="donguri", guild_id=1, channel_id=2, host_id=3, status="running", size=3, options={},
            language="en",
        )
        await store.update_table(table_id, deadline=now() - 5)
        assert await store.shared_work.claim_due(now(), now() + 60) == [table_id]
        # The process dies here, before handling the table; the next one starts.
        assert await store.shared_work.claim_due(now(), now() + 60) == []
        await store.shared_work.release_claims()
        assert await store.shared_work.claim_due(now(), now() + 60) == [table_id]
    finally:
        await store.close()
