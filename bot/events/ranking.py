"""An event's standings: tie-break ratings frozen when each entry started playing, final standings
read back once stored, and fixed teams ranked as teams."""

from __future__ import annotations

from collections import defaultdict

from bot.events import fairness as fair
from bot.events.standings import Standing, finishes, in_team_order, standings, team_finishes, team_ratings
from bot.ratings.store import RatingStore
from bot.storage.events import Tournament, TournamentStore


class Ranking:
    def __init__(self, store: TournamentStore, ratings: RatingStore) -> None:
        self.store = store
        self.ratings = ratings

    async def live_ratings(self, tournament: Tournament, players: list[int]) -> dict[int, float]:
        return await self.ratings.conservative(tournament.guild_id, tournament.game, players)

    async def tie_break_ratings(self, tournament: Tournament) -> dict[int, float]:
        """The ratings frozen when each entry started playing (live ones before the start)."""
        if tournament.status == "signup":
            return await self.live_ratings(tournament, [e.user_id for e in tournament.entrants])
        return {e.user_id: e.rating or 0.0 for e in tournament.entrants}

    async def standings(self, tournament: Tournament) -> list[Standing]:
        """Every player, best first; in a fixed-teams event, team by team in the teams' order (the
        one order of the team standings, the podium, the text and the exports)."""
        stored = fair.thawed(tournament)
        if stored is not None:
            players = stored[0]
        else:
            dropped = {e.user_id for e in tournament.entrants if e.status == "dropped"}
            players = await self.ranked(tournament, None, dropped)
        teams = await self.team_standings(tournament)
        return players if teams is None else in_team_order(players, teams, team_members(tournament))

    async def team_standings(self, tournament: Tournament) -> list[Standing] | None:
        """Fixed teams are ranked as teams (``player`` is the team number); None otherwise."""
        if tournament.teams != "fixed" or tournament.status == "signup":
            return None
        stored = fair.thawed(tournament)
        if stored is not None:
            return stored[1]
        dropped = {e.team for e in tournament.entrants if e.status == "dropped" and e.team is not None}
        return await self.ranked(tournament, team_members(tournament), dropped)

    async def ranked(
        self, tournament: Tournament, teams: dict[int, list[int]] | None, dropped: set[int]
    ) -> list[Standing]:
        """The players, or with ``teams`` the fixed teams, ranked from the recorded results."""
        results = finishes(await self.store.results(tournament.id))
        ratings = await self.tie_break_ratings(tournament)
        units = [e.user_id for e in tournament.entrants]
        if teams is not None:
            units, results, ratings = list(teams), team_finishes(teams, results), team_ratings(teams, ratings)
        elimination = tournament.format == "elimination"
        return standings(units, results, ratings, tournament.seed, dropped=dropped, elimination=elimination)


def team_members(tournament: Tournament) -> dict[int, list[int]]:
    """Each fixed team's players, by team number."""
    teams: defaultdict[int, list[int]] = defaultdict(list)
    for entrant in tournament.entrants:
        if entrant.team is not None:
            teams[entrant.team].append(entrant.user_id)
    return dict(sorted(teams.items()))
