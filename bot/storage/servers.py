"""What each server chose (``/settings``), the counter that tells processes a choice changed, and
the servers the bot left, whose data is purged a while later.

``Store.servers``: the settings cache (``bot.servers.settings``), the joining and leaving of servers
(``bot.guilds``) and the sweeper (``bot.tables.sweep``) read and write these.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from bot.storage import dialect
from bot.storage.database import Database

#: Tables whose rows belong to one server, by its ``guild_id``. A game table's seats, actions,
#: record and Discord rows, and a tournament's entrants, seating and results, go with it
#: (``ON DELETE CASCADE``).
SERVER_TABLES = ("game_tables", "tournaments", "ratings", "rating_history", "server_settings", "lfg_calls")


class ServerRows:
    def __init__(self, db: Database, purged: Callable[[], None] = lambda: None) -> None:
        self.db = db
        self.purged = purged  # a server's tables are about to go: rows kept in memory are forgotten

    # ---- settings -------------------------------------------------------------------------------
    async def settings(self, guild_id: int) -> dict[str, Any]:
        """The settings the server changed: name -> value."""
        rows = await self.db.fetch("SELECT name, value FROM server_settings WHERE guild_id = ?", (guild_id,))
        return {r["name"]: json.loads(r["value"]) for r in rows}

    async def change(self, guild_id: int, values: dict[str, Any], reset: tuple[str, ...] = ()) -> int:
        """Store ``values`` and drop the settings named in ``reset`` (back to their default), with the
        counter raised, in one transaction; the counter's new value. Of two processes changing
        settings at once, the second waits for the first's commit (the counter's row is locked), so
        counters are committed in order."""
        async with self.db.transaction():
            version: int = await self.db.fetchval(
                "INSERT INTO settings_version (id, version) VALUES (1, 1)"
                " ON CONFLICT (id) DO UPDATE SET version = settings_version.version + 1 RETURNING version"
            )
            if values:
                await self.db.executemany(
                    dialect.upsert("server_settings", ("guild_id", "name", "value"), ("guild_id", "name")),
                    [(guild_id, name, json.dumps(value)) for name, value in values.items()],
                )
            if reset:
                marks = ", ".join("?" for _ in reset)
                await self.db.execute(
                    f"DELETE FROM server_settings WHERE guild_id = ? AND name IN ({marks})", (guild_id, *reset)
                )
        return version

    async def version(self) -> int:
        version: int = await self.db.fetchval("SELECT COALESCE(MAX(version), 0) FROM settings_version")
        return version

    # ---- servers left ---------------------------------------------------------------------------
    async def left(self, guild_id: int, at: float) -> None:
        """The bot left the server (or was removed) at ``at``: its data is kept, then purged."""
        await self.db.execute(
            dialect.upsert("departed_servers", ("guild_id", "left_at"), ("guild_id",)), (guild_id, at)
        )

    async def returned(self, guild_id: int) -> bool:
        """The bot is in the server again: nothing of it is purged. True when it had left."""
        return await self.db.execute("DELETE FROM departed_servers WHERE guild_id = ?", (guild_id,)) > 0

    async def left_at(self, guild_id: int) -> float | None:
        at: float | None = await self.db.fetchval(
            "SELECT left_at FROM departed_servers WHERE guild_id = ?", (guild_id,)
        )
        return at

    async def left_before(self, at: float) -> list[int]:
        rows = await self.db.fetch(
            "SELECT guild_id FROM departed_servers WHERE left_at < ? ORDER BY guild_id", (at,)
        )
        return [r["guild_id"] for r in rows]

    async def purge(self, guild_id: int, before: float) -> bool:
        """Delete everything stored of a server the bot left before ``before``, in one transaction;
        False when it has come back since (or was purged already)."""
        async with self.db.transaction():
            gone = await self.db.execute(
                "DELETE FROM departed_servers WHERE guild_id = ? AND left_at < ?", (guild_id, before)
            )
            if not gone:
                return False
            self.purged()
            for table in SERVER_TABLES:
                await self.db.execute(f"DELETE FROM {table} WHERE guild_id = ?", (guild_id,))
        return True

    async def open_tables(self, guild_id: int) -> list[int]:
        """The server's tables in the lobby or in play."""
        rows = await self.db.fetch(
            "SELECT id FROM game_tables WHERE guild_id = ? AND status IN ('lobby', 'running') ORDER BY id",
            (guild_id,),
        )
        return [r["id"] for r in rows]

    async def holds(self, guild_id: int) -> dict[str, int]:
        """How many rows each of the server's tables holds (for tests and the operator)."""
        counts = {}
        for table in SERVER_TABLES:
            counts[table] = await self.db.fetchval(f"SELECT COUNT(*) FROM {table} WHERE guild_id = ?", (guild_id,))
        return counts
