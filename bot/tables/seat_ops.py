"""Seat changes during play: a player handing over to a computer or a member, a host replacing
or dropping a player, and the pause.

Each change is committed with its record note by ``TableService.commit``, under the table's lock,
like a move.
"""

from __future__ import annotations

from typing import Any

from bot.core.errors import UserError
from bot.storage.store import Seat, TableRow
from bot.tables.service import TableService, require_host
from bot.tables.terms import REMIND_BEFORE, Note, computer_name, computer_number, was_seat


class SeatOps:
    def __init__(self, tables: TableService) -> None:
        self.tables = tables
        self.store = tables.store  # the service's: its transactions run inside the table's lock

    async def hand_over(self, table_id: int, old: int, new: tuple[int, str]) -> bool:
        """An event replaced a player: the newcomer takes their seat and hand as they are."""
        async with self.tables.locked(table_id):
            table = await self.tables.table(table_id)
            position = table.seat_of(old)
            if table.status != "running" or position is None:
                return False
            await self._seat_member(table, position, new)
            return True

    async def hand_to_computer(self, table_id: int, user_id: int, level: str | None = None) -> bool:
        """A player who left an event: a computer plays their seat to the end of the table, at
        ``level`` (None: the level stored with the seat, which an event sets when it seats)."""
        async with self.tables.locked(table_id):
            table = await self.tables.table(table_id)
            position = table.seat_of(user_id)
            if table.status != "running" or position is None or table.seats[position].away:
                return False
            seats = list(table.seats)
            was = was_seat(seats[position])
            seats[position].away = True
            if level is not None:
                seats[position].level = level
            async with self.store.transaction():
                await self.store.set_seats(table_id, seats)
                table.seats = seats
                await self.tables.commit(table, await self.tables.engine(table), [], set(), [Note("clock.seat_taken_over", {"seat": position, "was": was})])
            await self.tables.committed(table_id)
            return True

    async def pause(self, table_id: int, user_id: int, paused: bool) -> TableRow:
        async with self.tables.locked(table_id):
            table = await self.tables.table(table_id)
            require_host(table, user_id, open_in=("running",))
            if table.paused == paused:
                raise UserError("error.already_paused" if paused else "error.not_paused")
            if paused:
                left = None if table.deadline is None else max(table.deadline - self.tables.now(), 0)
                fields: dict[str, Any] = {"paused": 1, "remaining": left, "deadline": None, "remind_at": None}
            else:
                fields = {"paused": 0, "remaining": None}
                if table.remaining is not None and table.clock:
                    deadline = self.tables.now() + table.remaining
                    reminder = deadline - table.clock * REMIND_BEFORE
                    fields.update(deadline=deadline, remind_at=reminder if reminder > self.tables.now() else None)
            note = Note("table_cmd.paused_note" if paused else "table_cmd.resumed_note")
            engine = await self.tables.engine(table)
            async with self.store.transaction():
                await self.store.append_log(table_id, [("note", note.key, note.params, engine.deal_number)])
                await self.store.bump(table_id, logged=table.logged + 1, **fields)
            outcome = await self.tables.committed(table_id, engine)
            return outcome.table

    async def replace(self, table_id: int, user_id: int, position: int, new: tuple[int, str]) -> TableRow:
        """The host hands an empty (computer) or abandoned seat to another member."""
        async with self.tables.locked(table_id):
            table = await self.tables.table(table_id)
            require_host(table, user_id, open_in=("running",))
            if not 0 <= position < len(table.seats):
                raise UserError("error.no_such_seat")
            if not table.seats[position].played_by_computer:
                raise UserError("error.seat_taken")
            if table.seat_of(new[0]) is not None:
                raise UserError("error.already_seated")
            await self._seat_member(table, position, new)
            return await self.tables.table(table_id)

    async def _seat_member(self, table: TableRow, position: int, new: tuple[int, str]) -> None:
        """A member takes over a seat of a running table: its hand by a fresh DM, and a fresh clock."""
        seats = list(table.seats)
        before = seats[position]
        was = was_seat(before)
        former = computer_name(int(computer_number(before.name, position))) if before.is_computer else before.name
        seats[position] = Seat(position, new[0], new[1], level=table.computer_level, replaced=former)
        engine = await self.tables.engine(table)
        async with self.store.transaction():
            await self.store.set_seats(table.id, seats)
            await self.store.surfaces.clear_deliveries(table.id, position)
            table.seats = seats
            await self.tables.commit(table, engine, [], set(), [Note("clock.seat_replaced", {"seat": position, "was": was})])
        await self.tables.committed(table.id, engine)

    async def abandon(self, table_id: int, user_id: int) -> TableRow:
        """The host ends a running table without a result."""
        async with self.tables.locked(table_id):
            table = await self.tables.table(table_id)
            require_host(table, user_id, open_in=("lobby", "running"))
            if table.tournament_id is not None:
                raise UserError("error.tournament_table")
            await self.store.bump(
                table_id, status="cancelled", deadline=None, remind_at=None, computer_turn=0
            )
            self.tables.forget(table_id)
            return await self.tables.table(table_id)

    async def end_unrated(self, table_id: int) -> bool:
        """The bot left the table's server: the table ends where it is, without a result or a rating,
        and nothing more is shown (its channels are out of reach). False when it had ended."""
        async with self.tables.locked(table_id):
            table = await self.tables.table(table_id)
            if table.status not in ("lobby", "running"):
                return False
            await self.store.update_table(
                table_id, status="cancelled", rated=0, settled=1, dirty=0, locked=0, computer_turn=0,
                deadline=None, remind_at=None, version=table.version + 1,
            )
            self.tables.forget(table_id)
            return True
