"""A lobby's own due times, as ``Scheduler`` sources: a lobby nobody joined closing, its
invitations lapsing.

The times are stored on the table's row, so a restart arms the timer for them again and one that
passed meanwhile is handled at start-up. With several processes, the change is made under the
table's lock by whichever comes first (``LobbyOps.lapse`` returns None to the others), and only
that one tells the host, so the host is told once.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from bot.core.i18n import Lang
from bot.core.mentions import pinging
from bot.tables.invite_render import closed_text
from bot.tables.notices import jump_url

if TYPE_CHECKING:
    from bot.storage.invitations import Guest
    from bot.storage.store import TableRow
    from bot.tables.delivery import Delivery
    from bot.tables.lobby_ops import LobbyOps

log = logging.getLogger(__name__)


def lapse_text(table: TableRow, late: list[Guest], tr: Lang) -> str:
    """The host's notice, in the table's thread (or channel): whose invitations lapsed, and what the
    lobby can do now."""
    host = tr("clock.addressee", player=f"<@{table.host_id}>")
    members = tr.join(tr("clock.addressee", player=f"**{g.name}**") for g in late)
    return tr("lobby.lapsed", host=host, members=members, count=len(late), url=jump_url(table))


class IdleLobbies:
    """A lobby nobody joined for a day closes: its message says so, and so does a line in its
    thread (pinging nobody). Run before the invitations' lapse: a lobby that closes at the moment
    its invitations lapse only closes."""

    def __init__(self, lobby: LobbyOps, delivery: Delivery) -> None:
        self.lobby = lobby
        self.store = lobby.store
        self.delivery = delivery

    async def next_due(self) -> float | None:
        return await self.store.lobbies.next_close()

    async def run_due(self, now: float) -> None:
        for table_id in await self.store.lobbies.closing(now):
            try:
                if not await self.lobby.close_idle(table_id, now):
                    continue
                self.delivery.request(table_id)
                table = await self.lobby.tables.table(table_id)
                text = closed_text(table, Lang(table.language))
                channel_id = table.home_channel_id
                async with self.delivery.budgets.spending(channel_id):
                    await self.delivery.messageable(channel_id).send(f"⌛ {text}")
            except Exception:
                log.exception("table %s: closing the lobby failed", table_id)


class InviteLapses:
    """Invitations left unanswered lapse at their time: the lobby shows it, and its host is told."""

    def __init__(self, lobby: LobbyOps, delivery: Delivery) -> None:
        self.lobby = lobby
        self.store = lobby.store
        self.delivery = delivery  # redraws the lobby; the host's notice goes through its channels

    async def next_due(self) -> float | None:
        return await self.store.invitations.next_lapse()

    async def run_due(self, now: float) -> None:
        for table_id in await self.store.invitations.lapsing(now):
            try:
                before = await self.lobby.tables.table(table_id)
                late = await self.lobby.lapse(table_id, now)
                if late is None:
                    continue  # another process did it, or the lobby moved on
                self.delivery.request(table_id)
                if late:
                    await self.tell_host(before, late)
            except Exception:
                log.exception("table %s: lapsing its invitations failed", table_id)

    async def tell_host(self, table: TableRow, late: list[Guest]) -> None:
        text = lapse_text(table, late, Lang(table.language))
        channel_id = table.home_channel_id
        async with self.delivery.budgets.spending(channel_id):
            await self.delivery.messageable(channel_id).send(text, allowed_mentions=pinging([table.host_id]))
