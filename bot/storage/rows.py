"""Writing a row of a table with an ``id`` and creation and update stamps (game tables,
tournaments), shared by the stores that own such tables."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from bot.storage.database import Database


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


async def insert_row(db: Database, table: str, fields: dict[str, Any]) -> int:
    """Insert one row with creation and update stamps; returns its id."""
    fields = {**fields, "created_at": now()}
    fields["updated_at"] = fields["created_at"]
    cols = ", ".join(fields)
    marks = ", ".join("?" for _ in fields)
    async with db.transaction():  # a write returning a row: see ``sqlite.py``
        row_id: int = await db.fetchval(
            f"INSERT INTO {table} ({cols}) VALUES ({marks}) RETURNING id", tuple(fields.values())
        )
    return row_id


async def update_row(db: Database, table: str, row_id: int, fields: dict[str, Any]) -> None:
    fields = {**fields, "updated_at": now()}
    sets = ", ".join(f"{k} = ?" for k in fields)
    await db.execute(f"UPDATE {table} SET {sets} WHERE id = ?", (*fields.values(), row_id))
