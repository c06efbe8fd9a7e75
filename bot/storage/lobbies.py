"""Lobbies left behind (migration 031): the next one due to close, and those due by a time; and
the calls for players (migration 032): the lobbies due one, the last call in each channel."""

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

    async def next_call(self) -> float | None:
        """When the next lobby still short of players is due its call."""
        due: float | None = await self.db.fetchval(
            "SELECT MIN(lfg_at) FROM game_tables WHERE status = 'lobby' AND lfg_at IS NOT NULL"
        )
        return due

    async def calling(self, now: float) -> list[int]:
        """Lobbies due their call by ``now``."""
        rows = await self.db.fetch(
            "SELECT id FROM game_tables WHERE status = 'lobby' AND lfg_at IS NOT NULL AND lfg_at <= ? ORDER BY id",
            (now,),
        )
        return [r["id"] for r in rows]

    async def last_call(self, channel_id: int) -> float | None:
        called: float | None = await self.db.fetchval(
            "SELECT called_at FROM lfg_calls WHERE channel_id = ?", (channel_id,)
        )
        return called

    async def claim_call(self, channel_id: int, guild_id: int, now: float, gap: float) -> bool:
        """The channel's call, if none was made there in the last ``gap`` seconds: whether this
        took it (of several processes, one does)."""
        changed = await self.db.execute(
            "INSERT INTO lfg_calls (channel_id, guild_id, called_at) VALUES (?, ?, ?)"
            " ON CONFLICT (channel_id) DO UPDATE SET called_at = excluded.called_at"
            " WHERE lfg_calls.called_at <= ?",
            (channel_id, guild_id, now, now - gap),
        )
        return changed > 0

    async def set_call(self, table_ids: list[int], at: float | None) -> None:
        """The lobbies' next call (None: called, or none to make)."""
        await self.db.executemany("UPDATE game_tables SET lfg_at = ? WHERE id = ?", [(at, t) for t in table_ids])
