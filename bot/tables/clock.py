"""Turn clocks: one timer, armed for the earliest stored deadline or reminder, re-armed on change.

Deadlines live in the database, so after a restart the timer is armed from them again, and a
deadline that passed while the bot was down is handled once, at start-up.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord

if TYPE_CHECKING:
    from bot.app import TabletopBot

log = logging.getLogger(__name__)


def now() -> float:
    return discord.utils.utcnow().timestamp()


class Scheduler:
    def __init__(self, bot: TabletopBot) -> None:
        self.bot = bot
        self.handle: asyncio.TimerHandle | None = None
        self.armed_for: float | None = None
        self.busy = asyncio.Lock()
        #: Other stored timers (tournament sign-up deadlines): objects with ``next_due()`` and ``run_due(now)``.
        self.sources: list = []

    async def rearm(self) -> None:
        """Arm the timer for the next due time (or disarm when nothing is due)."""
        if self.bot.is_closed():
            return
        times = [await self.bot.store.next_due()] + [await source.next_due() for source in self.sources]
        due = min((t for t in times if t is not None), default=None)
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
        task = asyncio.get_running_loop().create_task(self.run_due())
        task.add_done_callback(self._done)

    @staticmethod
    def _done(task: asyncio.Task) -> None:
        if not task.cancelled() and task.exception() is not None:
            log.error("clock failed", exc_info=task.exception())

    async def run_due(self) -> None:
        async with self.busy:
            if self.bot.is_closed():
                return
            for table in await self.bot.store.due_tables(now()):
                try:
                    if table.deadline is not None and table.deadline <= now():
                        if await self.bot.service.expire(table.id):
                            self.bot.delivery.request(table.id)
                    elif table.remind_at is not None and table.remind_at <= now():
                        await self.bot.delivery.remind(table)
                except Exception:
                    log.exception("table %s: clock handling failed", table.id)
            for source in self.sources:
                try:
                    await source.run_due(now())
                except Exception:
                    log.exception("timer source %s failed", type(source).__name__)
            await self.rearm()

    def stop(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None
