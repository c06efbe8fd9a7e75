"""The rows of a lobby's own messages (migration 034, ``bot.tables.lobby_posts``): each guest's
invitation DM and what it shows, the lines in the table's thread, a call for players due. Read by
the table's delivery pass only while the table's ``posts`` says there is something to follow."""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage import dialect
from bot.storage.database import Database

COLUMNS = ("table_id", "surface", "channel_id", "message_id", "shows")


@dataclass(frozen=True)
class Post:
    surface: str
    channel_id: int | None
    message_id: int | None  # None: due, not sent yet; 0: none to edit
    shows: str = ""


class LobbyPostRows:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def of(self, table_id: int) -> dict[str, Post]:
        rows = await self.db.fetch(
            "SELECT surface, channel_id, message_id, shows FROM lobby_posts WHERE table_id = ?", (table_id,)
        )
        return {r["surface"]: Post(r["surface"], r["channel_id"], r["message_id"], r["shows"]) for r in rows}

    async def set(self, table_id: int, post: Post) -> None:
        await self.db.execute(
            dialect.upsert("lobby_posts", COLUMNS, ("table_id", "surface")),
            (table_id, post.surface, post.channel_id, post.message_id, post.shows),
        )

    async def set_shows(self, table_id: int, surface: str, message_id: int, shows: str) -> None:
        """What a DM shows now, as a click's own answer drew it (only if it is the DM stored)."""
        await self.db.execute(
            "UPDATE lobby_posts SET shows = ? WHERE table_id = ? AND surface = ? AND message_id = ?",
            (shows, table_id, surface, message_id),
        )
