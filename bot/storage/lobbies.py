"""Lobbies left behind (migration 031): the next one due to close, and those due by a time."""

from __future__ import annotations

from bot.storage.database import Database


class LobbyRows:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def next_close(self) -> float | None:
        """When the next lobby nobody joined closes."""
        due: float | None = await self.db.fetchval(
            "SELECT MIN(lobby_closes) FROM game_tables WHERE status = 'lobby' AND lobby_closes IS NOT NULL"
        )
        return due

    async def closing(self, now: float) -> list[int]:
        """Lobbies due to close by ``now``."""
        rows = await self.db.fetch(
            "SELECT id FROM game_tables WHERE status = 'lobby' AND lobby_closes IS NOT NULL AND lobby_closes <= ?"
            " ORDER BY id",
            (now,),
        )
        return [r["id"] for r in rows]
