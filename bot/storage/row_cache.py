"""The table rows a process alone on its database keeps in memory (SQLite, issue 44).

Such a process writes every table row itself, through ``Store``: each write forgets the row it
changes, so a row kept here is the one stored. A move then reads its table once, and the delivery
pass after it, the hands and the record find it here. With several processes sharing the database
(PostgreSQL) another one may have changed any row: nothing is kept and every read goes to the
database.

A read that overlaps a write (the read's statement before, its result after) is not kept, since it
may hold the row from before the write. Rows are handed out as copies: a caller changing its row
(its seats, say) changes nothing here.
"""

from __future__ import annotations

import dataclasses
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.storage.store import TableRow

KEPT = 4096  # rows; about 3 KB each


def copied(row: TableRow) -> TableRow:
    return dataclasses.replace(
        row,
        options=dict(row.options),
        turn_seats=list(row.turn_seats),
        ping_seats=list(row.ping_seats),
        waits=dict(row.waits),
        think={seat: list(times) for seat, times in row.think.items()},
        seats=[dataclasses.replace(s) for s in row.seats],
    )


class RowCache:
    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.rows: OrderedDict[int, TableRow] = OrderedDict()
        self.writes = 0  # counts every write: a read that began before one is not kept

    def get(self, table_id: int) -> TableRow | None:
        row = self.rows.get(table_id)
        if row is None:
            return None
        self.rows.move_to_end(table_id)
        return copied(row)

    def began(self) -> int:
        """Before a read: the token ``keep`` takes."""
        return self.writes

    def keep(self, row: TableRow, began: int) -> None:
        if not self.enabled or began != self.writes:
            return
        self.rows[row.id] = copied(row)
        self.rows.move_to_end(row.id)
        while len(self.rows) > KEPT:
            self.rows.popitem(last=False)

    def changed(self, table_id: int | None = None) -> None:
        """A write to the table's row or seats (to every table's, with None) is about to run."""
        self.writes += 1
        if table_id is None:
            self.rows.clear()
        else:
            self.rows.pop(table_id, None)

    def version(self, table_id: int) -> int | None:
        row = self.rows.get(table_id)
        return None if row is None else row.version

    def before(self, table_id: int) -> tuple[TableRow | None, int]:
        """A write whose outcome is known is about to run: the kept row, taken out until ``after``."""
        row = self.rows.pop(table_id, None)
        self.writes += 1
        return row, self.writes

    def after(self, row: TableRow | None, token: int, change: Callable[[TableRow], TableRow]) -> None:
        """The write ran: the row is kept as it left it, unless another write came meanwhile (a
        transaction rolled back later forgets every row: ``Store``)."""
        if row is not None and token == self.writes:
            self.rows[row.id] = change(row)
