"""The rows of a finished table's rematch (migration 019): its state and who has confirmed.

``Store.rematches``: ``bot.tables.rematch`` writes them under the finished table's lock, and the
delivery worker reads them to draw the final table message.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.storage.database import Database

OPEN, STARTED, DECLINED, EXPIRED = "open", "started", "declined", "expired"


@dataclass
class Rematch:
    table_id: int
    state: str
    expires_at: float
    declined_by: int | None = None
    new_table_id: int | None = None
    votes: list[int] = field(default_factory=list)  # members who confirmed
    #: The offer's message at the table (migration 027): where, its id (None: not posted yet; 0:
    #: none to post), and what it shows (``bot.tables.rematch_offer``).
    offer_channel_id: int | None = None
    offer_message_id: int | None = None
    offer_shows: str | None = None


class Rematches:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def get(self, table_id: int) -> Rematch | None:
        row = await self.db.fetchrow("SELECT * FROM rematches WHERE table_id = ?", (table_id,))
        if row is None:
            return None
        votes = await self.db.fetch("SELECT user_id FROM rematch_votes WHERE table_id = ?", (table_id,))
        return Rematch(
            row["table_id"], row["state"], row["expires_at"], row["declined_by"], row["new_table_id"],
            [v["user_id"] for v in votes], row["offer_channel_id"], row["offer_message_id"], row["offer_shows"],
        )

    async def open(self, table_id: int, expires_at: float) -> None:
        """The offer, opened by its first confirmation (or a decline before any)."""
        await self.db.execute(
            "INSERT INTO rematches (table_id, state, expires_at) VALUES (?, ?, ?)", (table_id, OPEN, expires_at)
        )

    async def set_offer(self, table_id: int, channel_id: int, message_id: int, shows: str) -> None:
        """The offer's message, posted (or 0: none to post), and what it shows now."""
        await self.db.execute(
            "UPDATE rematches SET offer_channel_id = ?, offer_message_id = ?, offer_shows = ? WHERE table_id = ?",
            (channel_id, message_id, shows, table_id),
        )

    async def vote(self, table_id: int, user_id: int) -> None:
        await self.db.execute("INSERT INTO rematch_votes (table_id, user_id) VALUES (?, ?)", (table_id, user_id))

    async def close(
        self, table_id: int, state: str, *, declined_by: int | None = None, new_table_id: int | None = None
    ) -> bool:
        """An open offer ends (``state``); False when it was no longer open."""
        changed = await self.db.execute(
            "UPDATE rematches SET state = ?, declined_by = ?, new_table_id = ? WHERE table_id = ? AND state = ?",
            (state, declined_by, new_table_id, table_id, OPEN),
        )
        return bool(changed)

    async def next_expiry(self) -> float | None:
        due: float | None = await self.db.fetchval("SELECT MIN(expires_at) FROM rematches WHERE state = ?", (OPEN,))
        return due

    async def expired(self, now: float) -> list[int]:
        """Open offers whose time has passed."""
        rows = await self.db.fetch(
            "SELECT table_id FROM rematches WHERE state = ? AND expires_at <= ? ORDER BY expires_at", (OPEN, now)
        )
        return [r["table_id"] for r in rows]
