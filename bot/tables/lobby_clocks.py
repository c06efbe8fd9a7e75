"""A lobby's own due times, as ``Scheduler`` sources: a lobby nobody joined closing, its
invitations lapsing.

The times are stored on the table's row, so a restart arms the timer for them again and one that
passed meanwhile is handled at start-up. With several processes, the change is made under the
table's lock by whichever comes first (``LobbyOps.lapse`` returns None to the others). The host's
notice of a lapse is the table's delivery pass's (``invite_dms.py``): sent once, even across a
crash, and retried.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.tables.delivery import Delivery
    from bot.tables.lobby_ops import LobbyOps

log = logging.getLogger(__name__)


class IdleLobbies:
    """A lobby nobody joined for a day closes: its message says so, and so does a line in its
    thread (pinging nobody), both drawn by its pass. Run before the invitations' lapse: a lobby
    that closes at the moment its invitations lapse only closes."""

    def __init__(self, lobby: LobbyOps, delivery: Delivery) -> None:
        self.lobby = lobby
        self.store = lobby.store
        self.delivery = delivery

    async def next_due(self) -> float | None:
        return await self.store.lobbies.next_close()

    async def run_due(self, now: float) -> None:
        for table_id in await self.store.lobbies.closing(now):
            try:
                if await self.lobby.close_idle(table_id, now):
                    self.delivery.request(table_id)
            except Exception:
                log.exception("table %s: closing the lobby failed", table_id)


class InviteLapses:
    """Invitations left unanswered lapse at their time: the lobby shows it, and its pass tells the host."""

    def __init__(self, lobby: LobbyOps, delivery: Delivery) -> None:
        self.lobby = lobby
        self.store = lobby.store
        self.delivery = delivery  # redraws the lobby and tells the host

    async def next_due(self) -> float | None:
        return await self.store.invitations.next_lapse()

    async def run_due(self, now: float) -> None:
        for table_id in await self.store.invitations.lapsing(now):
            try:
                if await self.lobby.lapse(table_id, now) is not None:  # None: another process did it
                    self.delivery.request(table_id)
            except Exception:
                log.exception("table %s: lapsing its invitations failed", table_id)
