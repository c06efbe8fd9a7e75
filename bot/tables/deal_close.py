"""A deal's hand DM, closed when the next deal's DM is sent.

Each deal has a DM of its own, and a deal's last state was never drawn in it: the pass that
follows a deal's last card finds the next deal dealt. A member whose last move of a deal a
computer made (a turn that ran out, a seat handed over) kept "Your turn" and live buttons there
for good. So the earlier DM is edited once, to say the deal is over and where the next hand is.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.core.i18n import Lang
from bot.storage.store import Store, TableRow
from bot.tables import render
from bot.tables.budget import Budgets, Later
from bot.tables.notices import jump_url

Edit = Callable[..., Awaitable[None]]
log = logging.getLogger(__name__)


async def close_earlier_deal(store: Store, budgets: Budgets, edit: Edit, table: TableRow, seat: int, deal: int, tr: Lang) -> None:
    """Once the seat's DM of ``deal`` is sent: the DM of the deal before it says it is over, with no
    buttons. Once, and at best: the new DM is what the member plays from, so a close put off by the
    DM channel's budget, a failure, or a crash before it is not tried again (tried again, it spent
    the channel's budget that the new DM waited for, and the two took turns for good)."""
    row = await store.surfaces.earlier_delivery(table.id, seat, deal)
    if row is None or row["failed"]:
        return
    rendered = closed(table, tr)
    try:
        async with budgets.spending(row["channel_id"]):
            await edit(row["channel_id"], row["message_id"], **rendered.edit_kwargs())
    except (Later, discord.HTTPException, OSError, TimeoutError) as exc:
        log.info("table %s: the earlier hand DM of seat %s stays as it was: %r", table.id, seat, exc)


def closed(table: TableRow, tr: Lang) -> render.Rendered:
    embed: Any = discord.Embed(title=render.game_title(table, tr), description=tr("dm.deal_over", url=jump_url(table)))
    return render.Rendered(embed=embed)
