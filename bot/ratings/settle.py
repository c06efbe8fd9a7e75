"""Rating a table once it ends, and telling its players how their ratings moved.

A listener of ``TableHooks.finished`` (registered in ``bot/wiring.py``): tables announce the end,
ratings act on it, so ``bot.tables`` never calls up into this package.
"""

from __future__ import annotations

from collections.abc import Callable

import discord

from bot.core.i18n import Lang
from bot.ratings.store import RatingStore
from bot.storage.store import TableRow
from bot.tables.budget import paced_calls


class Settlement:
    def __init__(self, ratings: RatingStore, messageable: Callable[[int], discord.abc.Messageable]) -> None:
        self.ratings = ratings
        self.messageable = messageable

    async def __call__(self, table: TableRow) -> None:
        """Rate the table (it is marked settled in the same transaction, so never twice) and post
        the changes at the table; a tournament table is always settled here, rated or not."""
        if not (table.rated or table.tournament_id is not None):
            return
        if not await self.ratings.settle(table):
            return
        changes = await self.ratings.changes(table.id)
        if not changes:
            return
        tr = Lang(table.language)
        parts = [tr("rating.change", name=n, before=b, after=a, delta=f"{a - b:+d}") for n, b, a in changes]
        with paced_calls():
            await self.messageable(table.home_channel_id).send(
                tr("rating.changes", changes=" · ".join(parts))[:2000],
                allowed_mentions=discord.AllowedMentions.none(),
            )
