"""Turn clocks: one timer, armed for the earliest stored deadline or reminder, re-armed on change.

Deadlines live in the database, so after a restart the timer is armed from them again, and a
deadline that passed while the bot was down is handled once, at start-up.

While a run is handling due tables, the work it does (moves, new rounds) asks to re-arm many times,
and the tables it has not reached yet are already due. Arming then would fire at once and queue
another run behind the busy one, over and over; so a run re-arms once, when it is done, and a time
it failed to clear is retried later rather than at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

import discord

if TYPE_CHECKING:
    from bot.storage.store import Store
    from bot.tables.computers import Computers
    from bot.tables.delivery import Delivery
    from bot.tables.service import TableService

log = logging.getLogger(__name__)

#: A deadline still due after a run handled it (its handling failed) is tried again this much later.
RETRY_AFTER = 60.0
#: A process claims a due table for this long (with several processes, no other handles it meanwhile;
#: if the process dies, another takes the table over when the claim runs out).
CLAIM = 60.0


def now() -> float:
    return discord.utils.utcnow().timestamp()


class Source(Protocol):
    """Stored timers of one kind: the table clocks below, a tournament's sign-up and round deadlines."""

    async def next_due(self) -> float | None: ...

    async def run_due(self, now: float) -> None: ...


class Scheduler:
    def __init__(self, is_closed: Callable[[], bool]) -> None:
        self.is_closed = is_closed
        self.handle: asyncio.TimerHandle | None = None
        self.armed_for: float | None = None
        self.busy = asyncio.Lock()
        self.task: asyncio.Task[None] | None = None  # the run started by the timer, kept until it ends
        self.wanted = False  # a re-arm was asked for during a run
        #: The stored timers, run in this order: the table clocks first, then the tournaments'.
        self.sources: list[Source] = []

    async def rearm(self) -> None:
        """Arm the timer for the next due time (or disarm when nothing is due); during a run, leave
        it to the run."""
        if self.busy.locked():
            self.wanted = True
            return
        await self._arm()

    def soon(self, due: float) -> bool:
        """A due time known without reading the database (a table's, as its move left it): the timer
        is armed for it if it is sooner. One that moved later or went away leaves the timer early:
        it fires, finds nothing due, and reads what is next. False when it cannot tell (a time
        already passed, or a run in progress): then ``rearm``."""
        if self.is_closed() or self.busy.locked() or due <= now():
            return False
        if self.handle is not None and self.armed_for is not None and self.armed_for <= due:
            return True
        if self.handle is not None:
            self.handle.cancel()
        self.armed_for = due
        self.handle = asyncio.get_running_loop().call_later(due - now(), self._fire)
        return True

    async def _arm(self, started: float | None = None) -> None:
        """``started``: when the run that just ended began; what was due by then is retried later."""
        if self.is_closed():
            return
        times = [await source.next_due() for source in self.sources]
        due = min((t for t in times if t is not None), default=None)
        if due is not None and started is not None and due <= started:
            log.warning("a deadline due at %s is still due after a run; retrying later", due)
            due = now() + RETRY_AFTER
        if due == self.armed_for and self.handle is not None:
            return
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None
        self.armed_for = due
        if due is not None:
            delay = max(due - now(), 0)
            self.handle = asyncio.get_running_loop().call_later(delay, self._fire)

    def _fire(self) -> None:
        self.handle = None
        self.armed_for = None
        self.task = asyncio.get_running_loop().create_task(self.run_due())
        self.task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[None]) -> None:
        if self.task is task:
            self.task = None
        if not task.cancelled() and task.exception() is not None:
            log.error("clock failed", exc_info=task.exception())

    async def run_due(self) -> None:
        async with self.busy:
            if self.is_closed():
                return
            started = now()
            for source in self.sources:
                try:
                    await source.run_due(now())
                except Exception:
                    log.exception("timer source %s failed", type(source).__name__)
            # Arm once for what is left; again if something changed the times meanwhile.
            self.wanted = True
            while self.wanted:
                self.wanted = False
                await self._arm(started)

    def stop(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None
        if self.task is not None:
            self.task.cancel()


class TableClocks:
    """The tables' deadlines, reminders and turn notices, as a ``Scheduler`` source: a passed
    deadline makes the timeout move (thought out by the computers first); at a reminder, or when a
    wait reaches its grace period, the time is cleared and the delivery worker sends the notices
    (the table is marked for it in the same statement, so a crash does not lose them)."""

    def __init__(
        self, store: Store, service: TableService, delivery: Delivery, timeout_moves: Computers
    ) -> None:
        self.store = store
        self.service = service
        self.delivery = delivery
        self.timeout_moves = timeout_moves

    async def next_due(self) -> float | None:
        return await self.store.next_due()

    async def run_due(self, started: float) -> None:
        for table_id in await self.store.shared_work.claim_due(started, started + CLAIM):
            try:
                table = await self.service.table(table_id)
                if table.deadline is not None and table.deadline <= now():
                    choose = await self.timeout_moves.for_timeout(table.id)
                    await self.service.expire(table.id, choose)
                    await self.delivery.refresh(table.id)
                else:
                    await self.store.notices_due(table.id, now())
                    self.delivery.request(table.id)
                await self.store.shared_work.release_due(table_id)
            except Exception:  # the claim stays: the table is tried again when it runs out
                log.exception("table %s: clock handling failed", table_id)
