"""Which table each member last launched the Activity from (migration 035): **Play in Discord**
writes it just before Discord opens the Activity, and the Activity's web side reads it back
(``launched_table``) to open at that table rather than at a picker."""

from __future__ import annotations

from bot.storage import dialect
from bot.storage.database import Database

COLUMNS = ("user_id", "guild_id", "channel_id", "table_id", "at")


class LaunchRows:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def remember(self, user_id: int, guild_id: int, channel_id: int, table_id: int, at: float) -> None:
        """The member launched from ``table_id``; the Activity will open in ``channel_id`` (where
        Discord runs it: a table in a thread is remembered under the thread's parent)."""
        await self.db.execute(
            dialect.upsert("activity_launches", COLUMNS, ("user_id", "guild_id", "channel_id")),
            (user_id, guild_id, channel_id, table_id, at),
        )

    async def launched_table(self, user_id: int, guild_id: int, channel_id: int) -> int | None:
        """The table the member last launched the Activity from in this channel; None if none
        (opened from the App Launcher without a press, or the table is gone)."""
        table_id: int | None = await self.db.fetchval(
            "SELECT table_id FROM activity_launches WHERE user_id = ? AND guild_id = ? AND channel_id = ?",
            (user_id, guild_id, channel_id),
        )
        return table_id
