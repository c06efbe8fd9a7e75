"""What happens to tables that higher packages act on. Tables announce; ratings and events listen.

``bot.tables`` sits below ``bot.ratings`` and ``bot.events`` and never calls them: a finished table
is announced here, and each package that cares registers a listener in the composition root
(``bot/wiring.py``), in the order they must run (its rating before its tournament result).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.storage.store import TableRow

Listener = Callable[[TableRow], Awaitable[None]]


class TableHooks:
    def __init__(self) -> None:
        #: Called once per table that ended (finished or cancelled) and is not yet settled, after
        #: its last state reached Discord; again after a restart until the table is marked settled.
        self.finished: list[Listener] = []

    async def table_finished(self, table: TableRow) -> None:
        for listener in self.finished:
            await listener(table)
