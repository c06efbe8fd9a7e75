"""Player skill ratings: a thin wrapper over openskill's full-pairing Bradley-Terry model.

It handles free-for-all games of any size, ties and team games (Final Quest plays two teams of
two) with one update rule, so every game the bot hosts rates the same way. It compares every pair
of places, so a shared first place still ranks the third above the fourth (openskill's
Plackett-Luce gives third the same change as the tied winners). The wrapper
keeps openskill's mutable rating objects out of the rest of the bot: callers store and pass plain
frozen ``Rating`` values, and the only numbers shown to players come from ``display``.
"""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import BradleyTerryFull

#: One shared model with openskill's defaults (mu 25, sigma 25/3), so stored ratings stay comparable.
MODEL = BradleyTerryFull()


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float


def fresh() -> Rating:
    """The rating of a player who has not played yet: the model's prior, so changing the model's
    defaults changes new players too."""
    prior = MODEL.rating()
    return Rating(prior.mu, prior.sigma)


def rate(teams: list[list[Rating]], ranks: list[int]) -> list[list[Rating]]:
    """Ratings after one game, in the same shape and order as ``teams``.

    ``ranks`` holds one rank per team (1 = best, equal ranks = a tie). A free-for-all passes
    single-member teams; the result is independent of the order the teams are listed in.
    """
    if len(ranks) != len(teams):
        raise ValueError("one rank per team")
    model_teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma) for r in team] for team in teams]
    rated = MODEL.rate(model_teams, ranks=[float(rank) for rank in ranks])
    return [[Rating(r.mu, r.sigma) for r in team] for team in rated]


def conservative(r: Rating) -> float:
    """A rating we are fairly sure the player has earned (mu - 3 sigma, openskill's ordinal), so a
    lucky newcomer does not top the leaderboard after one game."""
    return MODEL.rating(mu=r.mu, sigma=r.sigma).ordinal()


def display(r: Rating) -> int:
    """The number players see: scaled so a new player shows a familiar 1000 and games move it in
    steps large enough to notice."""
    return displayed(conservative(r))


def displayed(conservative_rating: float) -> int:
    """A conservative rating as players see it (a tournament's tie-break keeps the conservative)."""
    return round(1000 + 40 * conservative_rating)
