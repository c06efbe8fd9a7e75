"""A table's hands, drawn apart from its whole delivery pass.

After a move the next player waits for their DM. A pass also edits the paced table message, the
record, speech and turn notices, and with many tables in play whole passes queue up: a hand drawn
first in its table's pass still waited for the passes of the tables before it. So the delivery
worker draws a moved table's hands in a lane of their own (``Worker.first``), and the whole pass
that follows finds them shown. One lock per table keeps a move's hands and a pass's hands from
being drawn at once, so an older drawing never lands after a newer one.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from bot.core.engine import Engine
from bot.storage.store import TableRow

if TYPE_CHECKING:
    from bot.tables.service import TableService

log = logging.getLogger(__name__)

Surface = Callable[[Any], Awaitable[None]]


def first_to_act(table: TableRow, engine: Engine) -> list[int]:
    """The members' seats, those to act first."""
    acting = set(engine.to_act())
    return sorted((s.position for s in table.seats if not s.is_computer), key=lambda seat: seat not in acting)


class HandLane:
    def __init__(self, service: TableService, deliver_hand: Callable[[TableRow, Engine, int], Awaitable[None]]) -> None:
        self.service = service
        self.deliver_hand = deliver_hand
        self.locks: dict[int, asyncio.Lock] = {}  # table id -> the lock of its hands

    async def after_move(self, table_id: int) -> None:
        """The hands after a move. A hand put off or failed here is left to the whole pass that
        follows, with its retries."""
        table = await self.service.table(table_id)
        if table.status != "running" or not table.message_id:
            # Not yet posted (a rematch table, placed by the whole pass): a hand drawn now would
            # link to no table message, and its DM is not redrawn for a link alone.
            return
        engine = await self.service.engine(table)

        async def surface(work: Awaitable[None]) -> None:
            try:
                await work
            except Exception as exc:
                log.debug("table %s: a hand is left to the pass: %r", table.id, exc)

        await self.draw(table, engine, surface)

    async def draw(self, table: TableRow, engine: Engine, surface: Surface) -> None:
        """Every player's hand, theirs first whose turn it is (a new deal redraws them all); left to
        the next pass when a newer version was committed meanwhile (every commit asks for one)."""
        lock = self.locks.setdefault(table.id, asyncio.Lock())
        async with lock:
            newer = self.service.engines.get(table.id)
            if newer is not None and newer[0] > table.version:
                return
            for seat in first_to_act(table, engine):
                await surface(self.deliver_hand(table, engine, seat))

    def forget(self, table_id: int) -> None:
        lock = self.locks.get(table_id)
        if lock is not None and not lock.locked():
            del self.locks[table_id]
