"""How often a running table's paced surfaces change: its message and its public record.

A burst of moves makes one edit of each per pace (a share of the channel's budget window), showing
the latest state. The time of each edit is kept per table; with processes sharing the database it
is stored too, so the next process to deliver the table keeps the pace (``restore``).
"""

from __future__ import annotations

import asyncio
import time
from typing import Literal

from bot.core.config import Config
from bot.storage.store import Store, TableRow
from bot.tables.budget import CHANNEL_WINDOW, Later

Surface = Literal["message", "record"]
# A running table's message changes at most once in this share of the channel's window (2 s with
# the default budget of 5); the record has a pace of its own (``record.RECORD_PACE``).
PACE = 2


class Pace:
    def __init__(self, store: Store, config: Config) -> None:
        self.store = store
        self.config = config  # its channel budget, read at each check
        #: surface -> table id -> when it last changed, on the event loop's clock
        self.last: dict[Surface, dict[int, float]] = {"message": {}, "record": {}}

    def check(self, table: TableRow, surface: Surface, pace: float = PACE) -> None:
        """Raise ``Later`` while a running table's surface changed less than its pace ago."""
        last = self.last[surface]
        if table.status != "running" or table.id not in last:
            return
        pace = pace * CHANNEL_WINDOW / self.config.channel_budget
        left = last[table.id] + pace - asyncio.get_running_loop().time()
        if left > 0:
            raise Later(left)

    async def edited(self, table_id: int, surface: Surface) -> None:
        """The surface was edited now."""
        self.last[surface][table_id] = asyncio.get_running_loop().time()
        if self.store.db.shared:
            await self.store.shared_work.set_pace(table_id, surface, time.time())

    def restore(self, table_id: int, stored: dict[str, float]) -> None:
        """The times another process stored (``shared_work.paces``: wall-clock times)."""
        now, wall = asyncio.get_running_loop().time(), time.time()
        for surface, at in stored.items():
            last = self.last["message"] if surface == "message" else self.last["record"]
            last[table_id] = now - max(0.0, wall - at)

    def forget(self, table_id: int, surface: Surface | None = None) -> None:
        for name, last in self.last.items():
            if surface is None or name == surface:
                last.pop(table_id, None)
