"""Every query on the ratings' tables: each player's rating per server and game, and its history
per rated table (``bot.ratings`` computes the ratings)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from bot.storage.database import Database, Row
from bot.storage.dialect import upsert
from bot.storage.locks import RATINGS, key_of

HISTORY = ("table_id", "user_id", "guild_id", "game", "mu", "sigma", "place", "places", "at", "n", "pos")


class RatingRows:
    def __init__(self, db: Database) -> None:
        self.db = db

    @contextlib.asynccontextmanager
    async def settling(self, guild_id: int | None, game: str) -> AsyncIterator[None]:
        """A transaction holding the lock of one server's ratings in one game, across processes:
        each settlement reads the ratings the one before wrote."""
        async with self.db.transaction():
            await self.db.xact_lock(RATINGS, key_of(guild_id, game))
            yield

    async def rating(self, guild_id: int, game: str, user_id: int) -> Row | None:
        return await self.db.fetchrow(
            "SELECT * FROM ratings WHERE guild_id = ? AND game = ? AND user_id = ?", (guild_id, game, user_id)
        )

    async def ratings(self, guild_id: int, game: str, min_games: int) -> list[Row]:
        """The ratings of every player with at least ``min_games`` rated tables, in no order."""
        return await self.db.fetch(
            "SELECT * FROM ratings WHERE guild_id = ? AND game = ? AND games >= ?", (guild_id, game, min_games)
        )

    async def history(self, guild_id: int, game: str, user_id: int, limit: int) -> list[dict[str, Any]]:
        """The player's newest ``limit`` rated tables, newest first."""
        rows = await self.db.fetch(
            "SELECT * FROM rating_history WHERE guild_id = ? AND game = ? AND user_id = ?"
            " ORDER BY n DESC LIMIT ?",
            (guild_id, game, user_id, limit),
        )
        return [dict(r) for r in rows]

    async def table_history(self, table_id: int) -> list[dict[str, Any]]:
        """Each rated player's rating after one table, with their name, by place."""
        rows = await self.db.fetch(
            "SELECT h.*, r.name FROM rating_history h JOIN ratings r"
            " ON r.guild_id = h.guild_id AND r.game = h.game AND r.user_id = h.user_id"
            " WHERE h.table_id = ? ORDER BY h.place, h.pos",
            (table_id,),
        )
        return [dict(r) for r in rows]

    async def rating_before(self, guild_id: int, game: str, user_id: int, n: int) -> Row | None:
        """The player's rating (mu, sigma) after their rated table before the ``n``-th; None before
        their first."""
        return await self.db.fetchrow(
            "SELECT mu, sigma FROM rating_history WHERE guild_id = ? AND game = ? AND user_id = ? AND n < ?"
            " ORDER BY n DESC LIMIT 1",
            (guild_id, game, user_id, n),
        )

    async def games_rated(self, guild_id: int) -> list[tuple[str, int]]:
        """(game, how many players are rated in it) for every game rated in the server."""
        rows = await self.db.fetch(
            "SELECT game, COUNT(*) AS n FROM ratings WHERE guild_id = ? GROUP BY game ORDER BY game", (guild_id,)
        )
        return [(r["game"], int(r["n"])) for r in rows]

    async def games_of(self, guild_id: int, user_id: int) -> list[str]:
        rows = await self.db.fetch(
            "SELECT game FROM ratings WHERE guild_id = ? AND user_id = ? ORDER BY games DESC", (guild_id, user_id)
        )
        return [r["game"] for r in rows]

    async def record(
        self,
        table_id: int,
        guild_id: int,
        game: str,
        user_id: int,
        name: str,
        rating: tuple[float, float],
        place: int,
        places: int,
        at: str,
        pos: int,
    ) -> None:
        """A player's new ``rating`` (mu, sigma) after a table, their game counted (a win at place
        1), and its line in their history; inside ``settling``."""
        mu, sigma = rating
        games = await self.db.fetchval(
            "INSERT INTO ratings (guild_id, game, user_id, name, mu, sigma, games, wins)"
            " VALUES (?, ?, ?, ?, ?, ?, 1, ?) ON CONFLICT (guild_id, game, user_id) DO UPDATE SET"
            " name = excluded.name, mu = excluded.mu, sigma = excluded.sigma,"
            " games = ratings.games + 1, wins = ratings.wins + excluded.wins RETURNING games",
            (guild_id, game, user_id, name, mu, sigma, int(place == 1)),
        )
        await self.db.execute(
            upsert("rating_history", HISTORY, ("table_id", "user_id")),
            (table_id, user_id, guild_id, game, mu, sigma, place, places, at, games, pos),
        )

    async def adjust(
        self,
        table_id: int,
        guild_id: int,
        game: str,
        user_id: int,
        rating: tuple[float, float],
        shift: tuple[float, float],
        place: int,
        win: int,
    ) -> None:
        """A corrected table's result moves the player's current rating by ``shift`` (mu, sigma:
        what the corrected result gives minus what the recorded one gave), their wins by ``win``,
        and the table's history line to the corrected ``rating`` and place; inside ``settling``."""
        await self.db.execute(
            "UPDATE ratings SET mu = mu + ?,"
            " sigma = CASE WHEN sigma + ? < 0.001 THEN 0.001 ELSE sigma + ? END, wins = wins + ?"
            " WHERE guild_id = ? AND game = ? AND user_id = ?",
            (shift[0], shift[1], shift[1], win, guild_id, game, user_id),
        )
        await self.db.execute(
            "UPDATE rating_history SET mu = ?, sigma = ?, place = ? WHERE table_id = ? AND user_id = ?",
            (rating[0], rating[1], place, table_id, user_id),
        )
