"""A deal's hand DM, closed when the next deal's DM is sent.

Each deal has a DM of its own, and a deal's last state was never drawn in it: the pass that
follows a deal's last card finds the next deal dealt. A member whose last move of a deal a
computer made (a turn that ran out, a seat handed over) kept "Your turn" and live buttons there
for good. So the earlier DM is edited once, to say the deal is over and where the next hand is.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.core.i18n import Lang
from bot.storage.store import Store, TableRow
from bot.tables import render
from bot.tables.budget import Budgets
from bot.tables.notices import jump_url

Edit = Callable[..., Awaitable[None]]


async def close_earlier_deal(store: Store, budgets: Budgets, edit: Edit, table: TableRow, seat: int, deal: int, tr: Lang) -> None:
    """Before the seat's DM of ``deal`` is sent: the DM of the deal before it says it is over, with
    no buttons (a crash between the two edits it again, alike)."""
    row = await store.surfaces.earlier_delivery(table.id, seat, deal)
    if row is None or row["failed"]:
        return
    rendered = closed(table, tr)
    try:
        async with budgets.spending(row["channel_id"]):
            await edit(row["channel_id"], row["message_id"], **rendered.edit_kwargs())
    except (discord.NotFound, discord.Forbidden):
        pass  # deleted, or the DMs closed since: the next deal's DM is what counts


def closed(table: TableRow, tr: Lang) -> render.Rendered:
    embed: Any = discord.Embed(title=render.game_title(table, tr), description=tr("dm.deal_over", url=jump_url(table)))
    return render.Rendered(embed=embed)
