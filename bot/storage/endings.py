"""The rows of each member's end-of-game DM (migration 027, ``bot.tables.result_dms``), read only
once a table has finished, by its delivery pass. (The rematch offer's message is stored with the
rematch: ``rematches.py``.)
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage import dialect
from bot.storage.database import Database


@dataclass(frozen=True)
class ResultDM:
    user_id: int
    channel_id: int
    message_id: int  # 0: none to edit (closed DMs, or a table finished before these DMs)
    shows: str  # what its buttons offer, as last drawn


class EndRows:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def result_dms(self, table_id: int) -> dict[int, ResultDM]:
        rows = await self.db.fetch(
            "SELECT user_id, channel_id, message_id, shows FROM result_dms WHERE table_id = ?", (table_id,)
        )
        return {r["user_id"]: ResultDM(r["user_id"], r["channel_id"], r["message_id"], r["shows"]) for r in rows}

    async def set_result_dm(self, table_id: int, dm: ResultDM) -> None:
        await self.db.execute(
            dialect.upsert(
                "result_dms", ("table_id", "user_id", "channel_id", "message_id", "shows"), ("table_id", "user_id")
            ),
            (table_id, dm.user_id, dm.channel_id, dm.message_id, dm.shows),
        )
