"""Storage in SQLite (WAL, through aiosqlite: the default) or PostgreSQL (through asyncpg, for
several bot processes), with numbered migrations in ``bot/storage/migrations``.

A table is stored as its options, seed and action log; the engine state is rebuilt by replay, so
an action committed here is the single source of truth and Discord is only a view of it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.storage import dialect
from bot.storage.clicks import ClickRows
from bot.storage.database import Database, Row
from bot.storage.endings import EndRows
from bot.storage.invitations import Guest, InvitationRows
from bot.storage.launches import LaunchRows
from bot.storage.lobbies import LobbyRows
from bot.storage.lobby_posts import LobbyPostRows
from bot.storage.notices import NoticeRows
from bot.storage.rematches import Rematches
from bot.storage.row_cache import RowCache
from bot.storage.rows import insert_row, now, update_row
from bot.storage.servers import ServerRows
from bot.storage.shared_work import SharedWork
from bot.storage.sqlite import SQLiteDatabase
from bot.storage.surfaces import Surfaces

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


@dataclass
class Seat:
    position: int
    user_id: int | None
    name: str
    away: bool = False
    timeouts: int = 0
    level: str = "normal"
    replaced: str | None = None  # the stored name of whom this member took the seat over from

    @property
    def is_computer(self) -> bool:
        return self.user_id is None

    @property
    def played_by_computer(self) -> bool:
        """An empty seat, or one handed to a computer after its player timed out for good."""
        return self.user_id is None or self.away


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
    clock: int | None = None
    on_timeout: str = "computer_turn"
    timeout_limit: int = 3
    paused: bool = False
    deadline: float | None = None
    remind_at: float | None = None
    remaining: float | None = None
    turn_seats: list[int] = field(default_factory=list)
    turn_no: int = 0
    pinged_turn: int = 0
    ping_seats: list[int] = field(default_factory=list)
    rated: bool = False
    settled: bool = False
    tournament_id: int | None = None
    version: int = 0
    recorded: int = 0
    logged: int = 0  # the last row of its log (migration 029): the record is behind while recorded < logged
    ping_message_id: int | None = None
    computer_turn: bool = False
    talk: str | None = None  # table talk shown on the table message (Final Quest's open question)
    due_claim: float | None = None
    courier: str | None = None
    redraw: int = 0  # the table message must be drawn again (migration 017)
    shown_version: int | None = None  # every surface showed this version at the last whole pass (027)
    #: Each waiting member's seat -> (the turn their wait began at, when, whether the turn came
    #: round rather than went on after their own move): migration 021.
    waits: dict[int, tuple[int, float, bool]] = field(default_factory=dict)
    notify_at: float | None = None  # when the next wait reaches its grace period
    rematch_of: int | None = None  # the finished table this one is the rematch of (migration 019)
    computer_level: str = "normal"  # for seats that chose none (migration 022)
    #: Each member's seat -> how long their last few moves took, newest last (migration 028).
    think: dict[int, list[float]] = field(default_factory=dict)
    #: An invite-only lobby's members invited and their answers; empty: open to all (migration 030).
    guests: list[Guest] = field(default_factory=list)
    invites_lapse: float | None = None  # when the unanswered invitations lapse
    lobby_closes: float | None = None  # when a lobby nobody joins closes (migration 031)
    closed_why: str | None = None  # "idle": closed so, by the bot; None: by its host
    lfg_at: float | None = None  # when the server's role is called for it, still short (migration 032)
    posts: bool = False  # its pass follows its lobby posts: invitation DMs, a call (migration 034)
    seats: list[Seat] = field(default_factory=list)

    @property
    def home_channel_id(self) -> int:
        """Where the table's records and pings go: its thread, or its own channel."""
        return self.thread_id or self.channel_id

    def seat_of(self, user_id: int) -> int | None:
        return next((s.position for s in self.seats if s.user_id == user_id), None)

    def guest(self, user_id: int) -> Guest | None:
        """The member's invitation to this lobby, if they have one."""
        return next((g for g in self.guests if g.user_id == user_id), None)


ROW_FIELDS = {f.name for f in dataclasses.fields(TableRow)}
BOOLEAN = {"dirty", "locked", "paused", "rated", "settled", "computer_turn", "posts"}


def bumped_row(row: TableRow, fields: dict[str, Any]) -> TableRow:
    """The row as ``Store.bump(row.id, **fields)`` leaves it."""
    changes: dict[str, Any] = {k: bool(v) if k in BOOLEAN else v for k, v in fields.items()}
    return dataclasses.replace(row, version=row.version + 1, dirty=True, **changes)


def encoded(fields: dict[str, Any]) -> dict[str, Any]:
    """Fields of a game table as stored: its lists and maps as JSON."""
    out = dict(fields)
    for key in ("options", "turn_seats", "ping_seats"):
        if key in out:
            out[key] = json.dumps(out[key])
    if "guests" in out:
        out["guests"] = json.dumps([[g.user_id, g.name, g.state] for g in out["guests"]])
    if "think" in out:
        out["think"] = json.dumps({str(seat): times for seat, times in sorted(out["think"].items())})
    if "waits" in out:
        out["waits"] = json.dumps(
            [[seat, turn, since, int(came)] for seat, (turn, since, came) in sorted(out["waits"].items())]
        )
    return out


def table_select(kind: str) -> str:
    """A table row with its seats in one statement (a JSON array of [position, user, name, away,
    timeouts, level]), since every lookup of a table needs both."""
    return f"SELECT t.*, {dialect.seats_json(kind)} AS seats_json FROM game_tables t"


#: Overrides the config's ``database`` (a path, or a ``postgresql://`` URL); ``config.load`` applies it
#: too, and a store opened without a config (tools, tests) applies it here.
DATABASE_ENV = "TABLETOP_DATABASE"


async def connect(database: str) -> Database:
    """The database at ``database``: PostgreSQL for a ``postgresql://`` URL, otherwise an SQLite file."""
    if dialect.is_url(database):
        from bot.storage.postgres import PostgresDatabase  # asyncpg is needed only for PostgreSQL

        return await PostgresDatabase.open(database)
    if database != ":memory:":
        Path(database).parent.mkdir(parents=True, exist_ok=True)
    return await SQLiteDatabase.open(database)


class Store:
    """Every query on a game table and what hangs off it (seats, actions, the record's lines), with
    the rows behind its Discord messages (``surfaces``), the work processes share (``shared_work``),
    finished tables' rematches (``rematches``) and end-of-game DMs (``endings``) and what each
    server chose (``servers``)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.table_select = table_select(db.dialect)
        self.cached = RowCache(enabled=not db.shared)  # rows kept by a process alone on its database
        db.rolled_back.append(self.purged)  # a read inside may have kept what the rollback undid
        self.surfaces = Surfaces(db)
        self.clicks = ClickRows(db)
        self.notices = NoticeRows(db)
        self.shared_work = SharedWork(db)
        self.rematches = Rematches(db)
        self.servers = ServerRows(db, purged=self.purged)
        self.endings = EndRows(db)
        self.invitations = InvitationRows(db)
        self.lobbies = LobbyRows(db)
        self.lobby_posts = LobbyPostRows(db)
        self.launches = LaunchRows(db)  # the table each member launched the Activity from

    async def launched_table(self, user_id: int, guild_id: int, channel_id: int) -> int | None:
        """The table this member last pressed **Play in Discord** on, for an Activity running in
        this channel (``launches.py``)."""
        return await self.launches.launched_table(user_id, guild_id, channel_id)

    def purged(self) -> None:
        """A server's tables are about to be deleted, or a transaction was rolled back: what is
        kept in memory of any table goes."""
        self.cached.changed()
        self.surfaces.forget()
        self.notices.forget()

    @classmethod
    async def open(cls, path: str) -> Store:
        store = cls(await connect(os.environ.get(DATABASE_ENV) or path))
        await store.migrate()
        return store

    async def close(self) -> None:
        await self.db.close()

    def transaction(self) -> contextlib.AbstractAsyncContextManager[None]:
        """Everything inside commits together or not at all (see ``database.py``)."""
        return self.db.transaction()

    def table_lock(self, table_id: int) -> contextlib.AbstractAsyncContextManager[None]:
        """Mutual exclusion for one table across processes (PostgreSQL; SQLite has one process)."""
        return self.db.table_lock(table_id)

    async def migrate(self) -> int:
        version = await self.db.schema_version()
        for path in sorted(MIGRATIONS.glob("*.sql")):
            number = int(path.name.split("_")[0])
            if number <= version:
                continue
            await self.db.apply_migration(number, dialect.migration(path.read_text(), self.db.dialect))
            version = number
        return version

    # ---- tables -----------------------------------------------------------------------------
    async def create_table(self, **fields: Any) -> int:
        return await insert_row(
            self.db, "game_tables", {**encoded(fields), "options": json.dumps(fields.get("options", {}))}
        )

    async def update_table(self, table_id: int, **fields: Any) -> None:
        self.cached.changed(table_id)
        await update_row(self.db, "game_tables", table_id, encoded(fields))

    async def get_table(self, table_id: int) -> TableRow | None:
        kept = self.cached.get(table_id)
        if kept is not None:
            return kept
        began = self.cached.began()
        row = await self.db.fetchrow(f"{self.table_select} WHERE id = ?", (table_id,))
        if row is None:
            return None
        table = await self._with_seats(row)
        self.cached.keep(table, began)
        return table

    async def _with_seats(self, row: Row) -> TableRow:
        data = dict(row)
        data.pop("created_at"), data.pop("updated_at")
        seats_json = data.pop("seats_json", None)
        data["options"] = json.loads(data["options"])
        data["dirty"] = bool(data["dirty"])
        data["locked"] = bool(data["locked"])
        data["paused"] = bool(data["paused"])
        data["rated"] = bool(data["rated"])
        data["settled"] = bool(data["settled"])
        data["computer_turn"] = bool(data["computer_turn"])
        data["posts"] = bool(data["posts"])
        data["turn_seats"] = json.loads(data["turn_seats"])
        data["ping_seats"] = json.loads(data["ping_seats"])
        data["waits"] = {seat: (turn, since, bool(came)) for seat, turn, since, came in json.loads(data["waits"])}
        data["think"] = {int(seat): times for seat, times in json.loads(data["think"]).items()}
        data["guests"] = [Guest(user, name, state) for user, name, state in json.loads(data["guests"])]
        table = TableRow(**data)
        if seats_json is not None:
            table.seats = [Seat(p, u, n, bool(a), t, lv, r) for p, u, n, a, t, lv, r in json.loads(seats_json)]
            return table
        rows = await self.db.fetch(
            f"SELECT {dialect.SEAT_COLUMNS} FROM seats WHERE table_id = ?"
            " ORDER BY position",
            (table.id,),
        )
        table.seats = [
            Seat(r["position"], r["user_id"], r["name"], bool(r["away"]), r["timeouts"], r["level"], r["replaced"])
            for r in rows
        ]
        return table

    async def _tables(self, where: str, params: tuple[Any, ...] = ()) -> list[TableRow]:
        rows = await self.db.fetch(f"{self.table_select} {where}", params)
        return [await self._with_seats(r) for r in rows]

    async def unsettled_tables(self) -> list[TableRow]:
        """Finished tables whose rating (or tournament result) is not yet recorded."""
        return await self._tables(
            "WHERE status IN ('finished', 'cancelled') AND settled = 0"
            " AND (rated = 1 OR tournament_id IS NOT NULL) ORDER BY id"
        )

    async def claim_settled(self, table_id: int) -> bool:
        """Mark a finished table settled (its rating and tournament result recorded); False when it
        already was. Inside the transaction that records them, so of several processes one does."""
        self.cached.changed(table_id)
        return await self.db.execute("UPDATE game_tables SET settled = 1 WHERE id = ? AND settled = 0", (table_id,)) == 1

    async def tables_with_status(self, *statuses: str) -> list[TableRow]:
        marks = ", ".join("?" for _ in statuses)
        return await self._tables(f"WHERE status IN ({marks}) ORDER BY id", statuses)

    async def set_seats(self, table_id: int, seats: list[Seat]) -> None:
        self.cached.changed(table_id)
        async with self.db.transaction():
            await self.db.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
            await self.db.executemany(
                f"INSERT INTO seats (table_id, {dialect.SEAT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (table_id, s.position, s.user_id, s.name, int(s.away), s.timeouts, s.level, s.replaced)
                    for s in seats
                ],
            )
            await self.db.execute("UPDATE game_tables SET updated_at = ? WHERE id = ?", (now(), table_id))

    # ---- the action log ---------------------------------------------------------------------
    async def actions(self, table_id: int, start: int = 0) -> list[tuple[int, str]]:
        """The accepted actions from log position ``start`` on."""
        rows = await self.db.fetch(
            "SELECT seat, action FROM actions WHERE table_id = ? AND idx >= ? ORDER BY idx", (table_id, start)
        )
        return [(r["seat"], r["action"]) for r in rows]

    async def append_actions(
        self, table_id: int, start: int, entries: list[tuple[int, str, bool]], request: str | None = None
    ) -> None:
        """Commit accepted actions at log positions ``start``...; a taken position raises IntegrityError.
        ``request``: what asked for the first one (a click's interaction id), see ``played``."""
        stamp = now()
        await self.db.executemany(
            "INSERT INTO actions (table_id, idx, seat, action, by_computer, created_at, request)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (table_id, start + i, seat, action, int(bot), stamp, request if i == 0 else None)
                for i, (seat, action, bot) in enumerate(entries)
            ],
        )

    async def played(self, table_id: int, request: str) -> bool:
        """Whether ``request`` made a move at the table (it is committed)."""
        return await self.db.fetchval(
            "SELECT 1 FROM actions WHERE table_id = ? AND request = ?", (table_id, request)
        ) is not None

    # ---- what the record and the Discord surfaces follow -------------------------------------------
    async def bump(self, table_id: int, **fields: Any) -> None:
        """A committed change Discord must show: the version goes up and the table is dirty."""
        kept, token = self.cached.before(table_id)
        stored = {**encoded(fields), "updated_at": now()}
        sets = "".join(f", {k} = ?" for k in stored)
        await self.db.execute(
            f"UPDATE game_tables SET version = version + 1, dirty = 1{sets} WHERE id = ?",
            (*stored.values(), table_id),
        )
        if fields.keys() <= ROW_FIELDS:
            self.cached.after(kept, token, lambda row: bumped_row(row, fields))

    async def version(self, table_id: int) -> int | None:
        """The table's stored version: one read, to learn whether it moved on."""
        kept = self.cached.version(table_id)
        if kept is not None:
            return kept
        version: int | None = await self.db.fetchval("SELECT version FROM game_tables WHERE id = ?", (table_id,))
        return version

    async def redraw_if_moved(self, table_id: int, version: int) -> bool:
        """After a drawing of the table message from ``version`` reached Discord: when the table has
        moved on since, another drawing may have reached Discord first and been covered by this one,
        so the next pass draws the message again. True when it must."""
        if await self.version(table_id) in (None, version):
            return False  # the usual case: a read (none, when the row is kept in memory), no write
        self.cached.changed(table_id)
        await self.db.execute("UPDATE game_tables SET redraw = redraw + 1, dirty = 1 WHERE id = ?", (table_id,))
        return True

    async def redrawn(self, table_id: int, redraw: int) -> None:
        """The redraw asked for (``redraw`` as read before drawing) is done, unless asked again since."""
        self.cached.changed(table_id)
        await self.db.execute("UPDATE game_tables SET redraw = 0 WHERE id = ? AND redraw = ?", (table_id, redraw))

    async def clear_dirty(self, table_id: int, version: int, recorded: int | None = None) -> None:
        """Mark the table shown at ``version``, unless a change was committed after it was
        rendered; and store the record's position ``recorded`` when given."""
        kept, token = self.cached.before(table_id)
        await self.db.execute(
            "UPDATE game_tables SET dirty = CASE WHEN version = ? THEN 0 ELSE dirty END,"
            " shown_version = CASE WHEN version = ? THEN version ELSE shown_version END,"
            " recorded = COALESCE(?, recorded) WHERE id = ?",
            (version, version, recorded, table_id),
        )

        def shown(row: TableRow) -> TableRow:
            current = row.version == version
            return dataclasses.replace(
                row, dirty=row.dirty and not current, shown_version=version if current else row.shown_version,
                recorded=row.recorded if recorded is None else recorded,
            )

        self.cached.after(kept, token, shown)

    async def append_log(self, table_id: int, rows: list[tuple[str, str, dict[str, Any], int]]) -> None:
        """Record lines as data: (kind, code, data, deal) after the table's last line."""
        if not rows:
            return
        # Each row takes the next position as it is inserted: one statement, no read before it.
        await self.db.executemany(
            "INSERT INTO table_log (table_id, seq, kind, code, data, deal)"
            " SELECT ?, COALESCE(MAX(seq), 0) + 1, ?, ?, ?, ? FROM table_log WHERE table_id = ?",
            [(table_id, kind, code, json.dumps(data), deal, table_id) for kind, code, data, deal in rows],
        )

    async def log_after(self, table_id: int, seq: int) -> list[Row]:
        return await self.db.fetch(
            "SELECT * FROM table_log WHERE table_id = ? AND seq > ? ORDER BY seq", (table_id, seq)
        )

    async def computer_tables(self) -> list[int]:
        rows = await self.db.fetch(
            "SELECT id FROM game_tables WHERE status = 'running' AND computer_turn = 1 ORDER BY id"
        )
        return [r["id"] for r in rows]

    async def dirty_ids(self) -> list[int]:
        """Tables whose Discord side may lag behind the stored state, or may still be locked."""
        rows = await self.db.fetch("SELECT id FROM game_tables WHERE dirty = 1 OR locked = 1 ORDER BY id")
        return [r["id"] for r in rows]

    async def speech_tables(self, channel_id: int) -> list[TableRow]:
        return await self._tables(
            "WHERE channel_id = ? AND speech IS NOT NULL AND status = 'running'", (channel_id,)
        )

    async def running_tables_at(self, game: str, channel_id: int) -> list[TableRow]:
        """Running tables of ``game`` whose thread or channel is ``channel_id``."""
        return await self._tables(
            "WHERE game = ? AND status = 'running' AND (thread_id = ? OR channel_id = ?) ORDER BY id",
            (game, channel_id, channel_id),
        )

    async def next_due(self) -> float | None:
        """The earliest deadline, reminder or notice time among running, unpaused tables; for a table
        another process has claimed, the end of its claim."""
        due: float | None = await self.db.fetchval(
            "SELECT MIN(CASE WHEN due_claim > due THEN due_claim ELSE due END) FROM ("
            " SELECT due_claim, CASE WHEN notify_at IS NOT NULL AND (clocked IS NULL OR notify_at < clocked)"
            " THEN notify_at ELSE clocked END AS due FROM ("
            " SELECT due_claim, notify_at, CASE WHEN remind_at IS NOT NULL AND (deadline IS NULL OR remind_at < deadline)"
            " THEN remind_at ELSE deadline END AS clocked FROM game_tables"
            " WHERE status = 'running' AND paused = 0"
            " AND (deadline IS NOT NULL OR remind_at IS NOT NULL OR notify_at IS NOT NULL)) t) d"
        )
        return due

    async def notices_due(self, table_id: int, now: float) -> None:
        """The table's reminder or notice time has come: it is cleared, and the table is marked for
        the delivery pass that sends the notices (after a crash, the pass at start-up)."""
        self.cached.changed(table_id)
        await self.db.execute(
            "UPDATE game_tables SET dirty = 1,"
            " remind_at = CASE WHEN remind_at <= ? THEN NULL ELSE remind_at END,"
            " notify_at = CASE WHEN notify_at <= ? THEN NULL ELSE notify_at END WHERE id = ?",
            (now, now, table_id),
        )

    async def set_notify_at(self, table_id: int, version: int, at: float | None) -> bool:
        """When the table's next notice is due, as a delivery pass of ``version`` found it; a change
        committed since wins (the pass it asked for sets the time again). True when stored."""
        self.cached.changed(table_id)
        changed = await self.db.execute(
            "UPDATE game_tables SET notify_at = ? WHERE id = ? AND version = ?", (at, table_id, version)
        )
        return changed == 1

    async def tables_here(self, channel_id: int) -> list[TableRow]:
        """Tables in the lobby or running whose thread or channel is ``channel_id``."""
        return await self._tables(
            "WHERE status IN ('lobby', 'running') AND (thread_id = ? OR channel_id = ?) ORDER BY id DESC",
            (channel_id, channel_id),
        )

    async def tables_in_server(self, guild_id: int, limit: int = 60) -> list[TableRow]:
        """The server's tables in the lobby or running, newest first (``/tables``): no other
        server's."""
        return await self._tables(
            "WHERE guild_id = ? AND status IN ('lobby', 'running') ORDER BY id DESC LIMIT ?", (guild_id, limit)
        )

    async def tables_of_user(self, user_id: int) -> list[TableRow]:
        rows = await self.db.fetch(
            "SELECT t.* FROM game_tables t JOIN seats s ON s.table_id = t.id"
            " WHERE s.user_id = ? AND t.status IN ('lobby', 'running') ORDER BY t.id",
            (user_id,),
        )
        return [await self._with_seats(r) for r in rows]

    async def versions(self, table_ids: list[int]) -> dict[int, int]:
        """The stored version of each of ``table_ids`` (the ones that exist): what live pages
        compare to see a change another process committed."""
        if not table_ids:
            return {}
        marks = ", ".join("?" for _ in table_ids)
        rows = await self.db.fetch(f"SELECT id, version FROM game_tables WHERE id IN ({marks})", tuple(table_ids))
        return {r["id"]: r["version"] for r in rows}
