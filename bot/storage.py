"""SQLite storage (WAL) through aiosqlite, with numbered migrations in ``bot/migrations``.

A table is stored as its options, seed and action log; the engine state is rebuilt by replay, so
an action committed here is the single source of truth and Discord is only a view of it.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass
class Seat:
    position: int
    user_id: int | None
    name: str

    @property
    def is_computer(self) -> bool:
        return self.user_id is None


@dataclass
class TableRow:
    id: int
    game: str
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    message_id: int | None
    host_id: int
    status: str
    size: int
    options: dict[str, Any]
    seed: int | None
    language: str
    dirty: bool
    result: str | None = None
    speech: str | None = None
    locked: bool = False
    seats: list[Seat] = field(default_factory=list)

    @property
    def home_channel_id(self) -> int:
        """Where the table's records and pings go: its thread, or its own channel."""
        return self.thread_id or self.channel_id

    def seat_of(self, user_id: int) -> int | None:
        return next((s.position for s in self.seats if s.user_id == user_id), None)


class Store:
    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db

    @classmethod
    async def open(cls, path: str) -> Store:
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(path)
        db.row_factory = sqlite3.Row
        for pragma in ("journal_mode=WAL", "foreign_keys=ON", "synchronous=NORMAL"):
            async with db.execute(f"PRAGMA {pragma}"):
                pass
        store = cls(db)
        await store.migrate()
        return store

    async def close(self) -> None:
        await self.db.close()

    async def migrate(self) -> int:
        async with self.db.execute("PRAGMA user_version") as cur:
            (version,) = await cur.fetchone()
        for path in sorted(MIGRATIONS.glob("*.sql")):
            number = int(path.name.split("_")[0])
            if number <= version:
                continue
            await self.db.executescript(f"BEGIN;\n{path.read_text()}\nPRAGMA user_version={number};\nCOMMIT;")
            version = number
        return version

    # ---- tables -----------------------------------------------------------------------------
    async def create_table(self, **fields: Any) -> int:
        fields = {**fields, "options": json.dumps(fields.get("options", {})), "created_at": now()}
        fields["updated_at"] = fields["created_at"]
        cols = ", ".join(fields)
        marks = ", ".join("?" for _ in fields)
        cur = await self.db.execute(
            f"INSERT INTO game_tables ({cols}) VALUES ({marks})", tuple(fields.values())
        )
        await self.db.commit()
        return cur.lastrowid

    async def update_table(self, table_id: int, **fields: Any) -> None:
        if "options" in fields:
            fields["options"] = json.dumps(fields["options"])
        fields["updated_at"] = now()
        sets = ", ".join(f"{k} = ?" for k in fields)
        await self.db.execute(f"UPDATE game_tables SET {sets} WHERE id = ?", (*fields.values(), table_id))
        await self.db.commit()

    async def get_table(self, table_id: int) -> TableRow | None:
        async with self.db.execute("SELECT * FROM game_tables WHERE id = ?", (table_id,)) as cur:
            row = await cur.fetchone()
        if row is None:
            return None
        return await self._with_seats(row)

    async def _with_seats(self, row: sqlite3.Row) -> TableRow:
        data = dict(row)
        data.pop("created_at"), data.pop("updated_at")
        data["options"] = json.loads(data["options"])
        data["dirty"] = bool(data["dirty"])
        data["locked"] = bool(data["locked"])
        table = TableRow(**data)
        async with self.db.execute(
            "SELECT position, user_id, name FROM seats WHERE table_id = ? ORDER BY position", (table.id,)
        ) as cur:
            table.seats = [Seat(r["position"], r["user_id"], r["name"]) async for r in cur]
        return table

    async def tables_with_status(self, *statuses: str) -> list[TableRow]:
        marks = ", ".join("?" for _ in statuses)
        async with self.db.execute(
            f"SELECT * FROM game_tables WHERE status IN ({marks}) ORDER BY id", statuses
        ) as cur:
            rows = await cur.fetchall()
        return [await self._with_seats(r) for r in rows]

    async def dirty_tables(self) -> list[TableRow]:
        """Tables whose Discord side may lag behind the stored state, or may still be locked."""
        async with self.db.execute(
            "SELECT * FROM game_tables WHERE dirty = 1 OR locked = 1 ORDER BY id"
        ) as cur:
            rows = await cur.fetchall()
        return [await self._with_seats(r) for r in rows]

    async def set_seats(self, table_id: int, seats: list[Seat]) -> None:
        await self.db.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
        await self.db.executemany(
            "INSERT INTO seats (table_id, position, user_id, name) VALUES (?, ?, ?, ?)",
            [(table_id, s.position, s.user_id, s.name) for s in seats],
        )
        await self.db.execute("UPDATE game_tables SET updated_at = ? WHERE id = ?", (now(), table_id))
        await self.db.commit()

    # ---- the action log ---------------------------------------------------------------------
    async def actions(self, table_id: int) -> list[tuple[int, str]]:
        async with self.db.execute(
            "SELECT seat, action FROM actions WHERE table_id = ? ORDER BY idx", (table_id,)
        ) as cur:
            return [(r["seat"], r["action"]) async for r in cur]

    async def append_actions(self, table_id: int, start: int, entries: list[tuple[int, str, bool]]) -> None:
        """Commit accepted actions at log positions ``start``...; a taken position raises IntegrityError."""
        stamp = now()
        await self.db.executemany(
            "INSERT INTO actions (table_id, idx, seat, action, by_computer, created_at) VALUES (?, ?, ?, ?, ?, ?)",
            [
                (table_id, start + i, seat, action, int(bot), stamp)
                for i, (seat, action, bot) in enumerate(entries)
            ],
        )
        await self.db.execute(
            "UPDATE game_tables SET dirty = 1, updated_at = ? WHERE id = ?", (stamp, table_id)
        )
        await self.db.commit()

    # ---- Discord messages the table owns ----------------------------------------------------
    async def delivery(self, table_id: int, seat: int, deal: int) -> sqlite3.Row | None:
        async with self.db.execute(
            "SELECT * FROM deliveries WHERE table_id = ? AND seat = ? AND deal = ?", (table_id, seat, deal)
        ) as cur:
            return await cur.fetchone()

    async def set_delivery(
        self,
        table_id: int,
        seat: int,
        deal: int,
        channel_id: int | None,
        message_id: int | None,
        failed: bool,
    ) -> None:
        await self.db.execute(
            "INSERT OR REPLACE INTO deliveries (table_id, seat, deal, channel_id, message_id, failed)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (table_id, seat, deal, channel_id, message_id, int(failed)),
        )
        await self.db.commit()

    async def any_failed_delivery(self, table_id: int, seat: int) -> bool:
        async with self.db.execute(
            "SELECT 1 FROM deliveries WHERE table_id = ? AND seat = ? AND failed = 1", (table_id, seat)
        ) as cur:
            return await cur.fetchone() is not None

    async def last_record(self, table_id: int) -> sqlite3.Row | None:
        async with self.db.execute(
            "SELECT * FROM records WHERE table_id = ? ORDER BY part DESC LIMIT 1", (table_id,)
        ) as cur:
            return await cur.fetchone()

    async def set_record(
        self, table_id: int, part: int, deal: int, message_id: int | None, lines: str
    ) -> None:
        await self.db.execute(
            "INSERT OR REPLACE INTO records (table_id, part, deal, message_id, lines) VALUES (?, ?, ?, ?, ?)",
            (table_id, part, deal, message_id, lines),
        )
        await self.db.commit()

    async def speech_tables(self, channel_id: int) -> list[TableRow]:
        async with self.db.execute(
            "SELECT * FROM game_tables WHERE channel_id = ? AND speech IS NOT NULL AND status = 'running'",
            (channel_id,),
        ) as cur:
            rows = await cur.fetchall()
        return [await self._with_seats(r) for r in rows]

    async def running_tables_at(self, game: str, channel_id: int) -> list[TableRow]:
        """Running tables of ``game`` whose thread or channel is ``channel_id``."""
        async with self.db.execute(
            "SELECT * FROM game_tables WHERE game = ? AND status = 'running' AND (thread_id = ? OR channel_id = ?)"
            " ORDER BY id",
            (game, channel_id, channel_id),
        ) as cur:
            rows = await cur.fetchall()
        return [await self._with_seats(r) for r in rows]
