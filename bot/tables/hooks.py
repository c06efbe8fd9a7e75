"""What happens to tables that higher packages act on. Tables announce; ratings and events listen.

``bot.tables`` sits below ``bot.ratings``, ``bot.events`` and ``bot.web`` and never calls them: a
finished table is announced here, and each package that cares registers a listener in the
composition root (``bot/wiring.py``), in the order they must run (its rating before its tournament
result).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.storage.store import TableRow

Listener = Callable[[TableRow], Awaitable[None]]
#: Told a table's id when a change to it has been committed; it must not block (a live page wakes).
Watcher = Callable[[int], None]
#: The address of a table's web page, or None when Discord must not link to one.
Link = Callable[[TableRow], Awaitable[str | None]]


async def no_link(table: TableRow) -> str | None:
    return None


class TableHooks:
    def __init__(self) -> None:
        #: Called once per table that ended (finished or cancelled) and is not yet settled, after
        #: its last state reached Discord; again after a restart until the table is marked settled.
        self.finished: list[Listener] = []
        #: Called with a table's id after each committed change Discord is asked to show (the
        #: delivery worker's requests: moves, lobby changes, clocks), possibly more than once.
        self.changed: list[Watcher] = []
        #: The table's web page, which its message links to (its title; when finished, "Replay"):
        #: ``bot/web`` sets it when the pages have a public address.
        self.table_page: Link = no_link

    async def table_finished(self, table: TableRow) -> None:
        for listener in self.finished:
            await listener(table)

    def table_changed(self, table_id: int) -> None:
        for watcher in self.changed:
            watcher(table_id)
