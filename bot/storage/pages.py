"""What the web pages (``bot/web``) read besides the game tables: the key that signs their
addresses. The pages change nothing else: a visitor's request never writes."""

from __future__ import annotations

from bot.storage.database import Database


class PageRows:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def key(self, name: str, fresh: str) -> str:
        """The stored key ``name``; ``fresh`` is stored first when there is none. Of several
        processes starting at once, the first to store it wins and all read the same."""
        await self.db.execute(
            "INSERT INTO web_keys (name, secret) VALUES (?, ?) ON CONFLICT (name) DO NOTHING", (name, fresh)
        )
        secret: str = await self.db.fetchval("SELECT secret FROM web_keys WHERE name = ?", (name,))
        return secret
