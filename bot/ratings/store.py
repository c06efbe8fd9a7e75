"""Ratings per game per server, updated once per finished rated table.

A table's rating change and its ``settled`` mark are written in one transaction, so a crash can
neither skip a table nor rate it twice; at start-up every unsettled finished table is settled.
The rating math is here; the rows are read and written by ``bot/storage/ratings.py``.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass

from bot.core.games import REGISTRY
from bot.ratings import model as ratings
from bot.storage.database import Row
from bot.storage.ratings import RatingRows
from bot.storage.rows import now
from bot.storage.store import Store, TableRow


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


def humans(table: TableRow, side: list[int]) -> list[tuple[int, str]]:
    """The ids and names of a side's people: computer seats are not rated."""
    return [(seat.user_id, seat.name) for seat in (table.seats[s] for s in side) if seat.user_id is not None]


def player_of(row: Row) -> Player:
    return Player(row["user_id"], row["name"], ratings.Rating(row["mu"], row["sigma"]), row["games"], row["wins"])


class RatingStore:
    def __init__(self, rows: RatingRows, tables: Store) -> None:
        self.rows = rows
        self.tables = tables  # whose ``settled`` mark is claimed in the rating's transaction
        self.lock = asyncio.Lock()

    async def player(self, guild_id: int, game: str, user_id: int) -> Player | None:
        row = await self.rows.rating(guild_id, game, user_id)
        return None if row is None else player_of(row)

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
        players = [player_of(r) for r in await self.rows.ratings(guild_id, game, min_games)]
        players.sort(key=lambda p: (-ratings.conservative(p.rating), -p.games, p.user_id))
        return players[:limit]

    async def history(self, guild_id: int, game: str, user_id: int, limit: int = 50) -> list[dict]:
        """The player's rated tables, oldest first (at most the newest ``limit``)."""
        return (await self.rows.history(guild_id, game, user_id, limit))[::-1]

    async def changes(self, table_id: int) -> list[tuple[str, int, int]]:
        """Each rated player's (name, shown rating before, after) for one table, in seat order of rows."""
        out = []
        for row in await self.rows.table_history(table_id):
            before = await self.rows.rating_before(row["guild_id"], row["game"], row["user_id"], row["n"])
            old = ratings.Rating(before["mu"], before["sigma"]) if before else ratings.fresh()
            out.append(
                (row["name"], ratings.display(old), ratings.display(ratings.Rating(row["mu"], row["sigma"])))
            )
        return out

    async def games_rated(self, guild_id: int) -> list[tuple[str, int]]:
        return await self.rows.games_rated(guild_id)

    async def games_of(self, guild_id: int, user_id: int) -> list[str]:
        return await self.rows.games_of(guild_id, user_id)

    async def settle(self, table: TableRow) -> bool:
        """Apply the table's result to its players' ratings (humans only) and mark it settled, once.
        True when this call settled it. The ``settled`` mark is claimed first, by a conditional
        update in the same transaction, so of several processes finishing it only one rates it."""
        async with self.lock, self.rows.settling(table.guild_id, table.game):
            if not await self.tables.claim_settled(table.id):
                return False
            await self._settle(table)
            return True

    async def _settle(self, table: TableRow) -> None:
        result = json.loads(table.result) if table.result else None
        guild_id = table.guild_id
        if not (table.rated and table.status == "finished" and result and guild_id is not None):
            return
        changes: list[tuple[int, str, ratings.Rating, int, int]] = []
        places = side_places(table, result)
        groups = [(place, humans(table, side)) for place, side in zip(places, sides(table), strict=True)]
        groups = [(place, members) for place, members in groups if members]
        if len(groups) >= 2:
            current = []
            for _place, members in groups:
                team = []
                for user_id, _name in members:
                    known = await self.player(guild_id, table.game, user_id)
                    team.append(known.rating if known else ratings.fresh())
                current.append(team)
            # Places among the rated humans only: computer seats do not count.
            human_places = [1 + sum(p < mine for p, _ in groups) for mine, _ in groups]
            updated = ratings.rate(current, human_places)
            for (place, members), team in zip(groups, updated, strict=True):
                for (user_id, name), new in zip(members, team, strict=True):
                    changes.append((user_id, name, new, place, len(places)))
        stamp = now()
        for pos, (user_id, name, new, place, count) in enumerate(changes):
            await self.rows.record(
                table.id, guild_id, table.game, user_id, name, (new.mu, new.sigma), place, count, stamp, pos
            )

    async def correct(self, table: TableRow, places: list[int]) -> bool:
        """Ratings follow a corrected result (``places``: one per side): each rated player's rating
        after the table is worked out again from their rating before it, and their current rating
        moves by the difference, so later tables keep their own changes (they are not re-rated).
        False when the table changed no rating (unrated, or no two rated sides)."""
        guild_id = table.guild_id
        if guild_id is None:
            return False
        async with self.lock, self.rows.settling(guild_id, table.game):
            recorded = {r["user_id"]: r for r in await self.rows.table_history(table.id)}
            groups = [
                (place, [u for u, _name in humans(table, side) if u in recorded])
                for place, side in zip(places, sides(table), strict=True)
            ]
            groups = [(place, members) for place, members in groups if members]
            if len(groups) < 2:
                return False
            before = []
            for _place, members in groups:
                team = []
                for user_id in members:
                    row = await self.rows.rating_before(guild_id, table.game, user_id, recorded[user_id]["n"])
                    team.append(ratings.Rating(row["mu"], row["sigma"]) if row else ratings.fresh())
                before.append(team)
            human_places = [1 + sum(p < mine for p, _ in groups) for mine, _ in groups]
            updated = ratings.rate(before, human_places)
            for (place, members), team in zip(groups, updated, strict=True):
                for user_id, new in zip(members, team, strict=True):
                    old = recorded[user_id]
                    shift = (new.mu - old["mu"], new.sigma - old["sigma"])
                    win = int(place == 1) - int(old["place"] == 1)
                    await self.rows.adjust(
                        table.id, guild_id, table.game, user_id, (new.mu, new.sigma), shift, place, win
                    )
            return True
