"""Clicks whose answer was deferred, until they are answered (``bot.tables.deferred``)."""

from __future__ import annotations

from dataclasses import astuple, dataclass, fields

from bot.storage.database import Database


@dataclass
class DeferredClick:
    interaction_id: int
    token: str
    table_id: int
    user_id: int
    guild_id: int | None
    version: int
    action: str
    message_id: int
    language: str
    deferred_at: float
    claim_until: float


COLUMNS = tuple(f.name for f in fields(DeferredClick))


class ClickRows:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def add(self, click: DeferredClick) -> None:
        await self.db.execute(
            f"INSERT INTO deferred_clicks ({', '.join(COLUMNS)}) VALUES ({', '.join('?' for _ in COLUMNS)})"
            " ON CONFLICT (interaction_id) DO NOTHING",
            astuple(click),
        )

    async def claim(self, now: float, until: float, limit: int = 20) -> list[DeferredClick]:
        """Clicks nobody is finishing (their claim ran out), claimed for this process until ``until``;
        of several processes, each click goes to one."""
        skip = " FOR UPDATE SKIP LOCKED" if self.db.shared else ""
        async with self.db.transaction():  # a write returning rows: see ``sqlite.py``
            rows = await self.db.fetch(
                "UPDATE deferred_clicks SET claim_until = ? WHERE interaction_id IN (SELECT interaction_id"
                f" FROM deferred_clicks WHERE claim_until <= ? ORDER BY deferred_at LIMIT ?{skip})"
                f" RETURNING {', '.join(COLUMNS)}",
                (until, now, limit),
            )
        return sorted((DeferredClick(*r) for r in rows), key=lambda c: c.deferred_at)

    async def next_claim(self) -> float | None:
        """When the first stored click's claim runs out; None when none is stored."""
        due = await self.db.fetchval("SELECT MIN(claim_until) FROM deferred_clicks")
        return None if due is None else float(due)

    async def done(self, interaction_id: int) -> None:
        await self.db.execute("DELETE FROM deferred_clicks WHERE interaction_id = ?", (interaction_id,))

    async def release(self) -> None:
        """At start-up, when this process alone uses the database (SQLite): the process that
        deferred them is gone, so they are finished now."""
        await self.db.execute("UPDATE deferred_clicks SET claim_until = 0")
