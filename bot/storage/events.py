"""Every query on the tournaments' tables: the event, its entrants, each round's seating and
results (``bot.events`` runs the tournaments)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from bot.storage.database import Database, Row
from bot.storage.dialect import upsert
from bot.storage.rows import insert_row, now, update_row


@dataclass
class Entrant:
    user_id: int
    name: str
    joined: int
    status: str = "active"  # active | dropped | out
    team: int | None = None
    grp: int | None = None
    rating: float | None = None  # the tie-break rating, frozen when the entry starts playing
    replaced: str | None = None  # who this entry took over from (names, comma-separated)
    checked_in: int = 0

    @property
    def active(self) -> bool:
        return self.status == "active"


@dataclass
class Tournament:
    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    organizer_id: int
    name: str
    game: str
    format: str
    rounds: int
    table_size: int
    options: dict[str, Any]
    points: list[float]
    clock: int
    on_timeout: str
    signup_deadline: float | None
    auto_next: bool
    advance: int
    group_size: int | None
    teams: str | None
    language: str
    seed: int
    status: str
    round: int
    round_done: int
    pairing: str | None = None  # Swiss: "standings" or "repeats"; None: chosen by table size
    fill: str = "byes"  # "computers": computer seats fill tables instead of byes
    final_standings: str | None = None  # JSON stored when the event ends
    standings_message_id: int | None = None
    round_hours: int | None = None  # each round must end within this many hours
    round_deadline: float | None = None
    round_reminded: int = 0
    confirm_pairings: int = 0  # the organizer sees each round's seating and confirms it
    round_confirmed: int = 0
    checkin_minutes: int | None = None  # check-in opens this long before the sign-up deadline
    checkin_open: int = 0
    computer_level: str = "hard"  # computers seated, playing timed-out moves or taking seats
    organizer_name: str | None = None  # as they were called when they created the event
    entrants: list[Entrant] = field(default_factory=list)

    def entrant(self, user_id: int) -> Entrant | None:
        return next((e for e in self.entrants if e.user_id == user_id), None)

    def signed_up(self, user_id: int) -> Entrant:
        """The entrant of a player known to be signed up (seated, paired, ranked)."""
        entrant = self.entrant(user_id)
        if entrant is None:
            raise KeyError(f"tournament {self.id}: {user_id} is not signed up")
        return entrant

    @property
    def active(self) -> list[Entrant]:
        return [e for e in self.entrants if e.active]

    def name_of(self, user_id: int) -> str:
        entrant = self.entrant(user_id)
        return entrant.name if entrant else str(user_id)


@dataclass
class RoundTable:
    round: int
    number: int
    players: list[int | None]  # seat order (None: a computer fill-in); number 0 lists the byes
    table_id: int | None


@dataclass
class LogEntry:
    """Something an organizer changed (``kind`` "swap": ``data`` holds the two players, a and b;
    "correct": a finished table's result corrected, see ``bot.events.correction``)."""

    round: int
    kind: str
    actor_id: int | None
    data: dict[str, Any]
    at: str


class TournamentStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def create(self, **fields: Any) -> int:
        fields = {
            **fields,
            "options": json.dumps(fields.get("options", {})),
            "points": json.dumps(fields["points"]),
        }
        return await insert_row(self.db, "tournaments", fields)

    async def update(self, tournament_id: int, **fields: Any) -> None:
        await update_row(self.db, "tournaments", tournament_id, fields)

    async def get(self, tournament_id: int) -> Tournament | None:
        row = await self.db.fetchrow("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
        return None if row is None else await self._load(row)

    async def _load(self, row: Row) -> Tournament:
        data = dict(row)
        data.pop("created_at"), data.pop("updated_at")
        data["options"] = json.loads(data["options"])
        data["points"] = json.loads(data["points"])
        data["auto_next"] = bool(data["auto_next"])
        tournament = Tournament(**data)
        rows = await self.db.fetch("SELECT * FROM entrants WHERE tournament_id = ? ORDER BY joined", (tournament.id,))
        tournament.entrants = [
            Entrant(
                r["user_id"],
                r["name"],
                r["joined"],
                r["status"],
                r["team"],
                r["grp"],
                r["rating"],
                r["replaced"],
                r["checked_in"],
            )
            for r in rows
        ]
        return tournament

    async def with_status(self, *statuses: str) -> list[Tournament]:
        marks = ", ".join("?" for _ in statuses)
        rows = await self.db.fetch(f"SELECT * FROM tournaments WHERE status IN ({marks}) ORDER BY id", statuses)
        return [await self._load(r) for r in rows]

    async def in_guild(self, guild_id: int, statuses: tuple[str, ...]) -> list[Tournament]:
        marks = ", ".join("?" for _ in statuses)
        rows = await self.db.fetch(
            f"SELECT * FROM tournaments WHERE guild_id = ? AND status IN ({marks}) ORDER BY id DESC",
            (guild_id, *statuses),
        )
        return [await self._load(r) for r in rows]

    async def next_deadline(self) -> float | None:
        """The next sign-up deadline, round deadline, or reminder a fifth of a round before it."""
        signup: float | None = await self.db.fetchval(
            "SELECT MIN(CASE WHEN checkin_minutes IS NOT NULL AND checkin_open = 0"
            " THEN signup_deadline - checkin_minutes * 60 ELSE signup_deadline END)"
            " FROM tournaments WHERE status = 'signup'"
        )
        rounds: float | None = await self.db.fetchval(
            "SELECT MIN(CASE WHEN round_reminded = 0 THEN round_deadline - round_hours * 720"
            " ELSE round_deadline END) FROM tournaments WHERE status = 'running' AND round_deadline IS NOT NULL"
        )
        return min((t for t in (signup, rounds) if t is not None), default=None)

    # ---- entrants ---------------------------------------------------------------------------
    async def put_entrant(self, tournament_id: int, entrant: Entrant) -> None:
        await self.db.execute(
            upsert(
                "entrants",
                ("tournament_id", "user_id", "name", "joined", "status", "team", "grp", "rating", "replaced",
                 "checked_in"),
                ("tournament_id", "user_id"),
            ),
            (
                tournament_id,
                entrant.user_id,
                entrant.name,
                entrant.joined,
                entrant.status,
                entrant.team,
                entrant.grp,
                entrant.rating,
                entrant.replaced,
                entrant.checked_in,
            ),
        )

    async def delete_entrant(self, tournament_id: int, user_id: int) -> None:
        await self.db.execute(
            "DELETE FROM entrants WHERE tournament_id = ? AND user_id = ?", (tournament_id, user_id)
        )

    async def rename_entrant(self, tournament_id: int, old: int, new: int, name: str) -> None:
        """A replacement takes over the entrant's place, results and seat in later rounds; the entry
        remembers whom it replaced, for the standings."""
        async with self.db.transaction():
            await self.db.execute(
                "UPDATE entrants SET replaced = CASE WHEN replaced IS NULL THEN name ELSE replaced || ', ' || name END"
                " WHERE tournament_id = ? AND user_id = ?",
                (tournament_id, old),
            )
            for table in ("entrants", "tournament_results"):
                await self.db.execute(
                    f"UPDATE {table} SET user_id = ? WHERE tournament_id = ? AND user_id = ?",
                    (new, tournament_id, old),
                )
            await self.db.execute(
                "UPDATE entrants SET name = ? WHERE tournament_id = ? AND user_id = ?", (name, tournament_id, new)
            )

    # ---- rounds -----------------------------------------------------------------------------
    async def add_round(
        self, tournament_id: int, number: int, tables: list[list[int | None]], byes: list[int]
    ) -> None:
        """Store a round's seating and advance the round counter in one transaction."""
        rows = [(tournament_id, number, i + 1, json.dumps(p), None) for i, p in enumerate(tables)]
        if byes:
            rows.append((tournament_id, number, 0, json.dumps(byes), None))
        async with self.db.transaction():
            await self.db.executemany(
                "INSERT INTO tournament_tables (tournament_id, round, number, players, table_id) VALUES (?, ?, ?, ?, ?)",
                rows,
            )
            await self.db.execute(
                "UPDATE tournaments SET round = ?, status = 'running', updated_at = ? WHERE id = ?",
                (number, now(), tournament_id),
            )

    async def delete_round(self, tournament_id: int, number: int) -> None:
        """Forget a round's seating and its byes (before its tables open), to seat it again."""
        async with self.db.transaction():
            await self.db.execute(
                "DELETE FROM tournament_tables WHERE tournament_id = ? AND round = ?", (tournament_id, number)
            )
            await self.db.execute(
                "DELETE FROM tournament_results WHERE tournament_id = ? AND round = ? AND bye = 1",
                (tournament_id, number),
            )

    async def swap_players(
        self, tournament_id: int, rows: list[RoundTable], first: int, second: int, actor_id: int | None
    ) -> None:
        """Two players trade places in a round's seating (``rows``: the round's tables already
        changed), a bye moving with its place, and the event's log records it: one transaction."""
        number = rows[0].round
        async with self.db.transaction():
            for row in rows:
                await self.set_round_players(tournament_id, row.round, row.number, row.players)
            for old, new in ((first, -1), (second, first), (-1, second)):  # -1: out of the way
                await self.db.execute(
                    "UPDATE tournament_results SET user_id = ? WHERE tournament_id = ? AND round = ?"
                    " AND user_id = ? AND bye = 1",
                    (new, tournament_id, number, old),
                )
            await self.db.execute(
                "INSERT INTO tournament_log (tournament_id, round, kind, actor_id, data, at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (tournament_id, number, "swap", actor_id, json.dumps({"a": first, "b": second}), now()),
            )

    async def log(self, tournament_id: int) -> list[LogEntry]:
        rows = await self.db.fetch(
            "SELECT * FROM tournament_log WHERE tournament_id = ? ORDER BY id", (tournament_id,)
        )
        return [LogEntry(r["round"], r["kind"], r["actor_id"], json.loads(r["data"]), r["at"]) for r in rows]

    async def round_tables(self, tournament_id: int, number: int | None = None) -> list[RoundTable]:
        query = "SELECT * FROM tournament_tables WHERE tournament_id = ?"
        args: tuple[int, ...] = (tournament_id,)
        if number is not None:
            query += " AND round = ?"
            args += (number,)
        rows = await self.db.fetch(query + " ORDER BY round, number", args)
        return [RoundTable(r["round"], r["number"], json.loads(r["players"]), r["table_id"]) for r in rows]

    async def set_round_table(self, tournament_id: int, number: int, table_no: int, table_id: int) -> None:
        await self.db.execute(
            "UPDATE tournament_tables SET table_id = ? WHERE tournament_id = ? AND round = ? AND number = ?",
            (table_id, tournament_id, number, table_no),
        )

    async def set_round_players(
        self, tournament_id: int, number: int, table_no: int, players: list[int | None]
    ) -> None:
        await self.db.execute(
            "UPDATE tournament_tables SET players = ? WHERE tournament_id = ? AND round = ? AND number = ?",
            (json.dumps(players), tournament_id, number, table_no),
        )

    async def table_of(self, table_id: int) -> tuple[int, RoundTable] | None:
        r = await self.db.fetchrow("SELECT * FROM tournament_tables WHERE table_id = ?", (table_id,))
        if r is None:
            return None
        return r["tournament_id"], RoundTable(
            r["round"], r["number"], json.loads(r["players"]), r["table_id"]
        )

    # ---- results ----------------------------------------------------------------------------
    async def add_results(self, tournament_id: int, rows: list[dict[str, Any]]) -> None:
        """Record results; a row already recorded is left alone, so recording twice changes nothing."""
        await self.db.executemany(
            "INSERT INTO tournament_results"
            " (tournament_id, round, user_id, table_id, place, size, points, score, opponents, bye)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            [
                (
                    tournament_id,
                    r["round"],
                    r["user_id"],
                    r.get("table_id"),
                    r.get("place"),
                    r.get("size", 0),
                    r["points"],
                    r.get("score"),
                    json.dumps(r.get("opponents", [])),
                    int(r.get("bye", False)),
                )
                for r in rows
            ],
        )

    async def correct_results(
        self, tournament_id: int, number: int, table_id: int, rows: list[dict[str, Any]], actor_id: int | None,
        data: dict[str, Any],
    ) -> None:
        """An organizer's correction of a finished table: its players' places and points (``rows``)
        and its line in the event's log (``data``), in one transaction."""
        async with self.db.transaction():
            for r in rows:
                await self.db.execute(
                    "UPDATE tournament_results SET place = ?, points = ? WHERE tournament_id = ?"
                    " AND table_id = ? AND user_id = ?",
                    (r["place"], r["points"], tournament_id, table_id, r["user_id"]),
                )
            await self.db.execute(
                "INSERT INTO tournament_log (tournament_id, round, kind, actor_id, data, at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (tournament_id, number, "correct", actor_id, json.dumps(data), now()),
            )

    async def results(self, tournament_id: int) -> list[dict[str, Any]]:
        """Every recorded result; ``seat``: the player's seat at their table (None for a bye)."""
        rows = [
            dict(r)
            for r in await self.db.fetch(
                "SELECT r.*, t.players AS seated FROM tournament_results r"
                " LEFT JOIN tournament_tables t ON t.tournament_id = r.tournament_id"
                " AND t.round = r.round AND t.table_id = r.table_id"
                " WHERE r.tournament_id = ? ORDER BY r.round, r.table_id, r.place",
                (tournament_id,),
            )
        ]
        for row in rows:
            row["opponents"] = json.loads(row["opponents"])
            row["bye"] = bool(row["bye"])
            seated = json.loads(row.pop("seated") or "[]")
            row["seat"] = seated.index(row["user_id"]) if row["user_id"] in seated else None
        return rows

    async def recorded_tables(self, tournament_id: int) -> set[int]:
        rows = await self.db.fetch(
            "SELECT DISTINCT table_id FROM tournament_results WHERE tournament_id = ? AND table_id IS NOT NULL",
            (tournament_id,),
        )
        return {r["table_id"] for r in rows}
