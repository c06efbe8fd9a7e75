"""Ratings per game per server, updated once per finished rated table.

A table's rating change and its ``settled`` mark are written in one transaction, so a crash can
neither skip a table nor rate it twice; at start-up every unsettled finished table is settled.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass

import aiosqlite

from bot.core.games import REGISTRY
from bot.ratings import model as ratings
from bot.storage.dialect import upsert
from bot.storage.locks import RATINGS, key_of
from bot.storage.store import TableRow, now


@dataclass
class Player:
    user_id: int
    name: str
    rating: ratings.Rating
    games: int = 0
    wins: int = 0

    @property
    def shown(self) -> int:
        return ratings.display(self.rating)


def sides(table: TableRow) -> list[list[int]]:
    """The seats that share a result: teams in a team game, otherwise one seat each."""
    teams = REGISTRY[table.game].engine.teams(len(table.seats)) if table.game in REGISTRY else None
    return teams or [[s.position] for s in table.seats]


def side_places(table: TableRow, result: dict) -> list[int]:
    """Each side's place (1 best; ties share): a side ranks as its worst seat, so a team with an
    absent member loses a table ended on time."""
    seat_ranks = result["ranks"]
    worst = [max(seat_ranks[s] for s in side) for side in sides(table)]
    return [1 + sum(other < mine for other in worst) for mine in worst]


class RatingStore:
    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db
        self.lock = asyncio.Lock()

    async def player(self, guild_id: int, game: str, user_id: int) -> Player | None:
        async with self.db.execute(
            "SELECT * FROM ratings WHERE guild_id = ? AND game = ? AND user_id = ?", (guild_id, game, user_id)
        ) as cur:
            row = await cur.fetchone()
        if row is None:
            return None
        return Player(
            row["user_id"], row["name"], ratings.Rating(row["mu"], row["sigma"]), row["games"], row["wins"]
        )

    async def conservative(self, guild_id: int, game: str, user_ids: list[int]) -> dict[int, float]:
        """Every listed player's conservative rating (a newcomer's is that of a fresh rating)."""
        out = {}
        for user_id in user_ids:
            player = await self.player(guild_id, game, user_id)
            out[user_id] = ratings.conservative(player.rating if player else ratings.fresh())
        return out

    async def leaderboard(
        self, guild_id: int, game: str, limit: int = 20, min_games: int = 1
    ) -> list[Player]:
        async with self.db.execute(
            "SELECT * FROM ratings WHERE guild_id = ? AND game = ? AND games >= ?",
            (guild_id, game, min_games),
        ) as cur:
            rows = await cur.fetchall()
        players = [
            Player(r["user_id"], r["name"], ratings.Rating(r["mu"], r["sigma"]), r["games"], r["wins"])
            for r in rows
        ]
        players.sort(key=lambda p: (-ratings.conservative(p.rating), -p.games, p.user_id))
        return players[:limit]

    async def history(self, guild_id: int, game: str, user_id: int, limit: int = 50) -> list[dict]:
        """The player's rated tables, oldest first (at most the newest ``limit``)."""
        async with self.db.execute(
            "SELECT * FROM rating_history WHERE guild_id = ? AND game = ? AND user_id = ?"
            " ORDER BY n DESC LIMIT ?",
            (guild_id, game, user_id, limit),
        ) as cur:
            rows = [dict(r) async for r in cur]
        return rows[::-1]

    async def changes(self, table_id: int) -> list[tuple[str, int, int]]:
        """Each rated player's (name, shown rating before, after) for one table, in seat order of rows."""
        async with self.db.execute(
            "SELECT h.*, r.name FROM rating_history h JOIN ratings r"
            " ON r.guild_id = h.guild_id AND r.game = h.game AND r.user_id = h.user_id"
            " WHERE h.table_id = ? ORDER BY h.place, h.pos",
            (table_id,),
        ) as cur:
            rows = [dict(r) async for r in cur]
        out = []
        for row in rows:
            async with self.db.execute(
                "SELECT mu, sigma FROM rating_history WHERE guild_id = ? AND game = ? AND user_id = ? AND n < ?"
                " ORDER BY n DESC LIMIT 1",
                (row["guild_id"], row["game"], row["user_id"], row["n"]),
            ) as cur:
                before = await cur.fetchone()
            old = ratings.Rating(before["mu"], before["sigma"]) if before else ratings.fresh()
            out.append(
                (row["name"], ratings.display(old), ratings.display(ratings.Rating(row["mu"], row["sigma"])))
            )
        return out

    async def games_of(self, guild_id: int, user_id: int) -> list[str]:
        async with self.db.execute(
            "SELECT game FROM ratings WHERE guild_id = ? AND user_id = ? ORDER BY games DESC",
            (guild_id, user_id),
        ) as cur:
            return [r["game"] async for r in cur]

    async def settle(self, table: TableRow) -> bool:
        """Apply the table's result to its players' ratings (humans only) and mark it settled, once.
        True when this call settled it. The ``settled`` mark is claimed first, by a conditional
        update in the same transaction, so of several processes finishing it only one rates it."""
        async with self.lock, self.db.transaction():
            # Across processes: one settlement at a time per server and game, since each reads the
            # ratings the one before wrote.
            await self.db.xact_lock(RATINGS, key_of(table.guild_id, table.game))
            cur = await self.db.execute(
                "UPDATE game_tables SET settled = 1 WHERE id = ? AND settled = 0", (table.id,)
            )
            if cur.rowcount != 1:
                return False
            await self._settle(table)
            return True

    async def _settle(self, table: TableRow) -> None:
        result = json.loads(table.result) if table.result else None
        rate = table.rated and table.status == "finished" and result and table.guild_id is not None
        changes: list[tuple[int, str, ratings.Rating, int, int]] = []
        if rate:
            places = side_places(table, result)
            groups = [
                (place, [table.seats[s] for s in side if not table.seats[s].is_computer])
                for place, side in zip(places, sides(table), strict=True)
            ]
            groups = [(place, members) for place, members in groups if members]
            if len(groups) >= 2:
                current = []
                for _place, members in groups:
                    team = []
                    for seat in members:
                        known = await self.player(table.guild_id, table.game, seat.user_id)
                        team.append(known.rating if known else ratings.fresh())
                    current.append(team)
                # Places among the rated humans only: computer seats do not count.
                human_places = [1 + sum(p < mine for p, _ in groups) for mine, _ in groups]
                updated = ratings.rate(current, human_places)
                for (place, members), team in zip(groups, updated, strict=True):
                    for seat, new in zip(members, team, strict=True):
                        changes.append((seat.user_id, seat.name, new, place, len(places)))
        stamp = now()
        for pos, (user_id, name, new, place, count) in enumerate(changes):
            async with self.db.execute(
                "INSERT INTO ratings (guild_id, game, user_id, name, mu, sigma, games, wins)"
                " VALUES (?, ?, ?, ?, ?, ?, 1, ?) ON CONFLICT (guild_id, game, user_id) DO UPDATE SET"
                " name = excluded.name, mu = excluded.mu, sigma = excluded.sigma,"
                " games = ratings.games + 1, wins = ratings.wins + excluded.wins RETURNING games",
                (table.guild_id, table.game, user_id, name, new.mu, new.sigma, int(place == 1)),
            ) as cur:
                (games,) = await cur.fetchone()
            await self.db.execute(
                upsert(
                    "rating_history",
                    ("table_id", "user_id", "guild_id", "game", "mu", "sigma", "place", "places", "at", "n", "pos"),
                    ("table_id", "user_id"),
                ),
                (table.id, user_id, table.guild_id, table.game, new.mu, new.sigma, place, count, stamp, games, pos),
            )
