"""The organizer corrects a finished table's result: places given side by side in seat order,
with a reason. The table's stored results (places and points) change, the event's log keeps
what was there before, what it became, why and who did it, the standings are ranked again (a
finished event's stored final standings too), and the players' ratings follow
(``RatingStore.correct``: the table re-rated from the ratings before it, later tables kept).

Elimination events are refused: who went through was decided from the result, and a later round
may already be seated from it."""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.errors import UserError
from bot.events import fairness as fair
from bot.events.lookup import get_tournament, tournament_in
from bot.events.ranking import Ranking
from bot.events.seating import places_at_table
from bot.events.standings import place_points
from bot.ratings.store import RatingStore, sides
from bot.storage.events import Tournament, TournamentStore
from bot.storage.locks import KeyedLocks
from bot.storage.store import Store

MAX_REASON = 200


@dataclass
class Correction:
    tournament: Tournament
    before: dict[int, int]  # player → place recorded
    after: dict[int, int]  # player → place now
    rated: bool  # the players' ratings moved with it


def normal_places(given: list[int]) -> list[int]:
    """Places as the tables record them: 1 best, tied sides share, the next place skips (1, 1, 3)."""
    return [1 + sum(other < mine for other in given) for mine in given]


class Corrections:
    def __init__(
        self, store: TournamentStore, locks: KeyedLocks, tables: Store, ratings: RatingStore, ranking: Ranking
    ) -> None:
        self.store = store
        self.locks = locks  # the service's
        self.tables = tables
        self.ratings = ratings
        self.ranking = ranking

    async def correct(
        self, tournament_id: int, round_no: int, number: int, given: list[int], reason: str, actor_id: int | None
    ) -> Correction:
        async with self.locks(tournament_id):
            t = await tournament_in(self.store, tournament_id, ("running", "finished"), "tournament.error.not_running")
            if t.format == "elimination":
                raise UserError("tournament.error.correct_elimination")
            reason = reason.strip()[:MAX_REASON]
            if not reason:
                raise UserError("tournament.error.correct_reason")
            row = next(
                (r for r in await self.store.round_tables(t.id, round_no) if r.number == number and number > 0), None
            )
            recorded = {r["user_id"]: r for r in await self.store.results(t.id) if row and r["table_id"] == row.table_id}
            table = await self.tables.get_table(row.table_id) if row and row.table_id and recorded else None
            if row is None or row.table_id is None or table is None:
                raise UserError("tournament.error.correct_unfinished", round=round_no, n=number)
            table_id = row.table_id
            groups = sides(table)
            if len(given) != len(groups) or not all(1 <= p <= len(groups) for p in given):
                raise UserError("tournament.error.correct_places", count=len(groups))
            places = normal_places(given)
            points = place_points(t.points, places, places_at_table(t))
            rows: list[dict[str, float]] = []
            after: dict[int, int] = {}
            for index, side in enumerate(groups):
                for seat in side:
                    user_id = table.seats[seat].user_id
                    if user_id is not None and user_id in recorded:
                        rows.append({"user_id": user_id, "place": places[index], "points": points[index]})
                        after[user_id] = places[index]
            before = {u: r["place"] for u, r in recorded.items()}
            if before == after:
                raise UserError("tournament.error.correct_same")
            rated = bool(table.rated) and await self.ratings.correct(table, places)
            data = {
                "table": number,
                "table_id": table_id,
                "reason": reason,
                "before": {str(u): p for u, p in before.items()},
                "after": {str(u): p for u, p in after.items()},
                "ratings": rated,
            }
            await self.store.correct_results(t.id, round_no, table_id, rows, actor_id, data)
            if t.status == "finished":  # the stored final standings are ranked again
                await self.store.update(t.id, final_standings=None)
                fresh = await get_tournament(self.store, t.id)
                players, teams = await self.ranking.standings(fresh), await self.ranking.team_standings(fresh)
                await self.store.update(t.id, final_standings=fair.freeze(players, teams))
            return Correction(await get_tournament(self.store, t.id), before, after, rated)
