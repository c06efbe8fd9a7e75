"""Where a member's change to a table enters, whichever front end sends it: a Discord click or
command (``desk.py``), and the web's (a page or the Activity, with a signed member session and no
interaction at all).

A front end says who acts, on which table, from which version of it they saw, and what; this
checks it, commits it in one transaction with whatever the front end keeps alongside (``also``: a
click's token, a question's text), and returns what an answer needs. Then it asks the delivery
worker to bring every surface of the table up to the committed version (the table message, every
DM, the web pages watching it), whoever made the change. A front end whose own answer shows one of
those surfaces (a clicked DM redrawn in the interaction's response) says so to the worker
beforehand (``Delivery.answers``), so it is not drawn twice.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.core.engine import Engine, Event
from bot.core.meters import NO_METERS, Meters
from bot.storage.store import TableRow
from bot.tables.lobby_ops import LobbyOps
from bot.tables.service import TableService

#: Writes more in a move's transaction, given the state the move leaves: (table, engine, seat).
Also = Callable[[TableRow, Engine, int], Awaitable[None]]


@dataclass
class Played:
    """A committed move: the table and game as it left them, the mover's seat, what happened."""

    table: TableRow
    engine: Engine
    seat: int
    events: list[Event] = field(default_factory=list)
    again: bool = False  # committed before, by the same request: the table as it stands now


@dataclass
class Lobby:
    """A committed lobby change: the table as it left it, and its game when the change started it."""

    table: TableRow
    engine: Engine | None = None


class Moves:
    def __init__(
        self,
        service: TableService,
        lobby: LobbyOps,
        moved: Callable[[int], None],
        changed: Callable[[int], None],
        meters: Meters = NO_METERS,
    ) -> None:
        self.service = service
        self.meters = meters
        self.lobby = lobby
        self.moved = moved  # the delivery worker, after a move or a start: the hands first
        self.changed = changed  # the delivery worker, after a lobby change

    async def play(
        self,
        table_id: int,
        member_id: int,
        seen: int,
        action: str,
        *,
        check: Callable[[TableRow], None] | None = None,
        also: Also | None = None,
        request: str | None = None,
    ) -> Played:
        """The member's move ``action``, made from the game as it was after ``seen`` actions: applied
        and committed, or refused unchanged (a UserError or IllegalAction says why). ``check`` may
        refuse it first, on the row read under the table's lock. ``request``: the front end's id
        for it (a click's), so that asking again applies it once (``Played.again`` then)."""
        entered = time.perf_counter()
        outcome = await self.service.act(
            table_id, member_id, seen, action, check=check, also=also, request=request
        )
        if not outcome.again:
            self.meters.committed(outcome.table.game, time.perf_counter() - entered)
        seat = outcome.table.seat_of(member_id)
        assert seat is not None  # the move was this member's: act found their seat
        # Played again (a click left behind by a process that died after its commit): that process
        # may have died before delivering it too, so this one brings the table up to date.
        self.moved(table_id)
        return Played(outcome.table, outcome.engine, seat, outcome.events, outcome.again)

    # ---- the lobby ----------------------------------------------------------------------------
    async def join(self, table_id: int, member_id: int, name: str) -> Lobby:
        """The member takes a seat; the table starts once the last one is taken."""
        return await self._start_when_full(await self.lobby.join(table_id, (member_id, name)))

    async def add_computer(self, table_id: int, member_id: int, level: str) -> Lobby:
        """The host seats a computer of ``level``; the table starts once the last seat is taken."""
        return await self._start_when_full(await self.lobby.add_computer(table_id, member_id, level))

    async def leave(self, table_id: int, member_id: int) -> Lobby:
        return self._changed(await self.lobby.leave(table_id, member_id))

    async def remove(self, table_id: int, member_id: int, position: int) -> Lobby:
        """The host takes seat ``position`` from whoever holds it."""
        return self._changed(await self.lobby.remove(table_id, member_id, position))

    async def configure(self, table_id: int, member_id: int, setting: str, value: Any) -> Lobby:
        return self._changed(await self.lobby.configure(table_id, member_id, setting, value))

    async def decline(self, table_id: int, member_id: int) -> Lobby:
        """An invited member declines the invitation."""
        return self._changed(await self.lobby.decline(table_id, member_id))

    async def cancel(self, table_id: int, member_id: int) -> Lobby:
        return self._changed(await self.lobby.cancel(table_id, member_id))

    async def start(self, table_id: int, member_id: int | None, seed: int | None = None) -> Lobby:
        """Start the table: by its host (``member_id``), or None once it is full."""
        outcome = await self.lobby.start(table_id, member_id, secrets.randbits(63) if seed is None else seed)
        self.moved(table_id)
        return Lobby(outcome.table, outcome.engine)

    async def _start_when_full(self, table: TableRow) -> Lobby:
        if self.lobby.ready_to_start(table):
            return await self.start(table.id, None)
        return self._changed(table)

    def _changed(self, table: TableRow) -> Lobby:
        self.changed(table.id)
        return Lobby(table)
