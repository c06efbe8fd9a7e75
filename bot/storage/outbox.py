"""The intents of ``bot.tables.outbox``: one row per new Discord message about to be sent, committed
before the send and deleted in the transaction that stores the sent message's id, so a pass
after a crash knows a send may have happened and looks for it first."""

from __future__ import annotations

from bot.storage.database import Database


class SendIntents:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def sent_after(self, table_id: int, surface: str) -> int | None:
        """The open intent's snowflake, after which the message would be in its channel; None when
        no send is under way."""
        after: int | None = await self.db.fetchval(
            "SELECT sent_after FROM send_intents WHERE table_id = ? AND surface = ?", (table_id, surface)
        )
        return after

    async def open(self, table_id: int, surface: str, channel_id: int, after: int) -> None:
        await self.db.execute(
            "INSERT INTO send_intents (table_id, surface, channel_id, sent_after) VALUES (?, ?, ?, ?)",
            (table_id, surface, channel_id, after),
        )

    async def close(self, table_id: int, surface: str) -> None:
        await self.db.execute("DELETE FROM send_intents WHERE table_id = ? AND surface = ?", (table_id, surface))

    async def forget(self, table_id: int) -> None:
        await self.db.execute("DELETE FROM send_intents WHERE table_id = ?", (table_id,))
