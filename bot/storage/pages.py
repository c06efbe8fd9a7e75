"""What the web pages (``bot/web``) read besides the game tables: the key that signs their
addresses, and what the operators' ``/healthz`` and ``/metrics`` report. The pages change nothing
else: a visitor's request never writes."""

from __future__ import annotations

from typing import Any

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

    # ---- what the operators' /healthz and /metrics report ------------------------------------------
    async def reachable(self) -> bool:
        """One round trip to the database."""
        answer: int = await self.db.fetchval("SELECT 1")
        return answer == 1

    async def backlog(self) -> tuple[int, str | None]:
        """The tables whose committed state Discord does not show yet (``dirty``), of every process
        sharing the database, and the oldest of their last commits (ISO time; None: no backlog)."""
        row = await self.db.fetchrow("SELECT COUNT(*) AS n, MIN(updated_at) AS oldest FROM game_tables WHERE dirty = 1")
        if row is None:
            return 0, None
        return int(row["n"]), row["oldest"]

    async def open_tables(self) -> list[tuple[str, str, int]]:
        """(game, status, how many) of the tables in the lobby or in play."""
        rows = await self.db.fetch(
            "SELECT game, status, COUNT(*) AS n FROM game_tables WHERE status IN ('lobby', 'running')"
            " GROUP BY game, status ORDER BY game, status"
        )
        return [(r["game"], r["status"], int(r["n"])) for r in rows]

    async def event_stamps(self, event_ids: list[int]) -> dict[int, tuple[Any, ...]]:
        """For each tournament of ``event_ids`` that exists, what changes when its page would: its
        row, its entrants (in, out, checked in), its results and the tables opened. One query for
        every event someone watches."""
        if not event_ids:
            return {}
        marks = ", ".join("?" for _ in event_ids)
        rows = await self.db.fetch(
            "SELECT t.id, t.updated_at, t.status, t.round, t.round_done,"
            " (SELECT COUNT(*) FROM entrants e WHERE e.tournament_id = t.id) AS entrants,"
            " (SELECT COUNT(*) FROM entrants e WHERE e.tournament_id = t.id AND e.status <> 'active') AS gone,"
            " (SELECT COUNT(*) FROM entrants e WHERE e.tournament_id = t.id AND e.checked_in = 1) AS checked,"
            " (SELECT COUNT(*) FROM tournament_results r WHERE r.tournament_id = t.id) AS results,"
            " (SELECT COUNT(*) FROM tournament_tables r WHERE r.tournament_id = t.id AND r.table_id IS NOT NULL)"
            " AS opened"
            f" FROM tournaments t WHERE t.id IN ({marks})",
            tuple(event_ids),
        )
        return {r["id"]: tuple(r[k] for k in ("updated_at", "status", "round", "round_done", "entrants", "gone",
                                              "checked", "results", "opened")) for r in rows}

    async def server_stamps(self, guild_ids: list[int]) -> dict[int, tuple[Any, ...]]:
        """For each server of ``guild_ids``, what changes when its index would: the tables in the
        lobby (each join, leave or setting bumps a version) and in play (not their moves: the index
        shows none), and its events. Two queries for every server someone watches."""
        if not guild_ids:
            return {}
        marks = ", ".join("?" for _ in guild_ids)
        stamps: dict[int, list[Any]] = {g: [] for g in guild_ids}
        rows = await self.db.fetch(
            "SELECT guild_id, status, COUNT(*) AS n, MAX(id) AS top, SUM(id) AS ids,"
            " SUM(CASE WHEN status = 'lobby' THEN version ELSE 0 END) AS versions"
            f" FROM game_tables WHERE guild_id IN ({marks}) AND status IN ('lobby', 'running')"
            " GROUP BY guild_id, status ORDER BY guild_id, status",
            tuple(guild_ids),
        )
        for r in rows:
            stamps[r["guild_id"]].append((r["status"], int(r["n"]), r["top"], int(r["ids"]), int(r["versions"])))
        events = await self.db.fetch(
            "SELECT guild_id, COUNT(*) AS n, MAX(updated_at) AS changed"
            f" FROM tournaments WHERE guild_id IN ({marks}) GROUP BY guild_id",
            tuple(guild_ids),
        )
        for r in events:
            stamps[r["guild_id"]].append(("events", int(r["n"]), r["changed"]))
        return {g: tuple(s) for g, s in stamps.items()}
