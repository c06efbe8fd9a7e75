"""A finished table's rematch, with no Discord in it: confirmations, a decline, the offer's end.

The first **Rematch** pressed opens an offer for ``WINDOW``; every member seated at the finished
table confirms with the same button, and the last confirmation starts the new table in the same
transaction: the same seats in the same places, the same options, clock and rating, a new seed.
Computers stay, at their levels. A decline ends the offer, and so does its time running out
(``RematchClock``). Tournament tables have none: their event decides what comes next.

Each change bumps the finished table, so the delivery worker draws its message again from what is
stored; it also posts the new table's message and thread (``placement.py``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from bot.core.engine import Engine
from bot.core.errors import UserError
from bot.core.games import REGISTRY
from bot.storage.rematches import DECLINED, EXPIRED, OPEN, STARTED, Rematch
from bot.storage.store import Seat, Store, TableRow
from bot.tables.notices import jump_url
from bot.tables.render import Ending
from bot.tables.service import TableService

log = logging.getLogger(__name__)
WINDOW = 24 * 3600  # how long an offer waits for every confirmation


@dataclass
class Confirmed:
    table: TableRow  # the finished table, as committed
    new_table_id: int | None  # the rematch table, when this confirmation was the last one
    waiting: list[int]  # members still to confirm


def waiting_for(table: TableRow, rematch: Rematch | None) -> list[int]:
    """The members seated at ``table`` who have not confirmed yet, in seat order."""
    votes = set(rematch.votes) if rematch else set()
    return [s.user_id for s in table.seats if s.user_id is not None and s.user_id not in votes]


class RematchOps:
    def __init__(self, tables: TableService) -> None:
        self.tables = tables
        self.store = tables.store  # the service's: its transactions run inside the table's lock

    async def state(self, table_id: int) -> Rematch | None:
        return await self.store.rematches.get(table_id)

    def require_open(self, table: TableRow, user_id: int, rematch: Rematch | None) -> None:
        """Refuse, saying why, unless ``user_id`` may still confirm or decline this table's rematch."""
        if table.status != "finished":
            raise UserError("error.rematch_not_over")
        if table.tournament_id is not None:
            raise UserError("error.rematch_tournament")
        if table.seat_of(user_id) is None:
            raise UserError("error.rematch_not_seated")
        if rematch is None:
            return
        if rematch.state == STARTED:
            raise UserError("error.rematch_started", id=rematch.new_table_id)
        if rematch.state == DECLINED:
            raise UserError("error.rematch_declined", player=f"<@{rematch.declined_by}>")
        if rematch.state == EXPIRED or rematch.expires_at <= self.tables.now():
            raise UserError("error.rematch_expired")

    async def confirm(
        self, table_id: int, user_id: int, seed: int, check: Callable[[TableRow], None] | None = None
    ) -> Confirmed:
        """``user_id`` is in; the rematch starts when every member seated has said so. A second
        confirmation by the same member changes nothing and says whom the rematch waits for."""
        engine: Engine | None = None
        async with self.tables.locked(table_id):
            table = await self.tables.table(table_id)
            if check is not None:
                check(table)
            rematch = await self.store.rematches.get(table_id)
            self.require_open(table, user_id, rematch)
            if rematch is not None and user_id in rematch.votes:
                others = " ".join(f"<@{u}>" for u in waiting_for(table, rematch))
                raise UserError("error.rematch_already", players=others)
            waiting = [u for u in waiting_for(table, rematch) if u != user_id]
            new_id = None
            async with self.store.transaction():
                if rematch is None:
                    await self.store.rematches.open(table_id, self.tables.now() + WINDOW)
                await self.store.rematches.vote(table_id, user_id)
                if not waiting:
                    new_id, engine = await self._create(table, seed)
                    await self.store.rematches.close(table_id, STARTED, new_table_id=new_id)
                await self.store.bump(table_id)
        if new_id is not None:
            await self.tables.committed(new_id, engine)  # committed: its computer may move now
        return Confirmed(await self.tables.table(table_id), new_id, waiting)

    async def _create(self, old: TableRow, seed: int) -> tuple[int, Engine]:
        """The rematch table, started, inside the caller's transaction. It has no message yet: the
        delivery worker posts it where the finished table was (``placement.py``)."""
        table_id = await self.store.create_table(
            game=old.game,
            guild_id=old.guild_id,
            channel_id=old.channel_id,
            host_id=old.host_id,
            status="running",
            size=old.size,
            options=old.options,
            seed=seed,
            language=old.language,
            clock=old.clock,
            on_timeout=old.on_timeout,
            timeout_limit=old.timeout_limit,
            rated=int(old.rated),
            rematch_of=old.id,
        )
        seats = [Seat(s.position, s.user_id, s.name, level=s.level) for s in old.seats]
        await self.store.set_seats(table_id, seats)
        table = await self.tables.table(table_id)
        engine = REGISTRY[table.game].engine(len(seats), seed, table.options)
        await self.tables.commit(table, engine, [], set())
        return table_id, engine

    async def decline(
        self, table_id: int, user_id: int, check: Callable[[TableRow], None] | None = None
    ) -> TableRow:
        """``user_id`` does not want a rematch: it is off, and the table says so."""
        async with self.tables.locked(table_id):
            table = await self.tables.table(table_id)
            if check is not None:
                check(table)
            rematch = await self.store.rematches.get(table_id)
            self.require_open(table, user_id, rematch)
            async with self.store.transaction():
                if rematch is None:
                    await self.store.rematches.open(table_id, self.tables.now() + WINDOW)
                await self.store.rematches.close(table_id, DECLINED, declined_by=user_id)
                await self.store.bump(table_id)
        return await self.tables.table(table_id)

    async def expire(self, now: float) -> list[int]:
        """Offers whose time ran out end; their tables, changed, are returned."""
        ended = []
        for table_id in await self.store.rematches.expired(now):
            async with self.tables.locked(table_id), self.store.transaction():
                if await self.store.rematches.close(table_id, EXPIRED):  # of several processes, one
                    await self.store.bump(table_id)
                    ended.append(table_id)
        return ended


async def ending(store: Store, table: TableRow) -> Ending:
    """What the final table message shows of its rematch, with the rematch table's link once posted."""
    stored = await store.rematches.get(table.id)
    url = None
    if stored is not None and stored.new_table_id is not None:
        new = await store.get_table(stored.new_table_id)
        url = jump_url(new) if new is not None and new.message_id else None
    return Ending(stored, url)


class RematchClock:
    """Offers running out, as a ``Scheduler`` source: the finished table then says so."""

    def __init__(self, ops: RematchOps, request: Callable[[int], None]) -> None:
        self.ops = ops
        self.request = request  # the delivery worker brings a table's messages up to date

    async def next_due(self) -> float | None:
        return await self.ops.store.rematches.next_expiry()

    async def run_due(self, now: float) -> None:
        for table_id in await self.ops.expire(now):
            self.request(table_id)


__all__ = ["OPEN", "WINDOW", "Confirmed", "RematchClock", "RematchOps", "ending", "waiting_for"]
