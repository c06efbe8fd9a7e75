"""Tournament points and standings, computed from scratch from the recorded finishes.

Nothing here is stored: the standings are rebuilt from every player's ``Finish`` rows whenever
they are shown, so a corrected result or a dropped player can never leave stale totals behind.
Every tie is broken by a fixed list of keys ending in a seeded lot, so the same tournament always
prints the same order and a rank is never shared. Head-to-head comes right after the opponents'
average: in a round robin everyone tied has the same opponents' average, so there the direct
result is in effect the first tie-break, and in a Swiss it follows the strength of schedule.
"""

from __future__ import annotations

import random
from collections.abc import Collection
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from bot.events.head_to_head import mini_table

#: Floating-point sums of shared points (e.g. thirds) can differ in the last bit for equal values;
#: keys are rounded to this many decimals before comparing so such values still tie.
PRECISION = 9


def default_points(size: int) -> list[float]:
    """Points for places 1..size. The winner gets a two-point lead over second place (size, then
    size-2, size-3, ... 0), so winning a table is worth more than merely placing well."""
    if size <= 0:
        return []
    return [float(size)] + [float(p) for p in range(size - 2, -1, -1)]


def place_points(points: list[float], ranks: list[int], places: int | None = None) -> list[float]:
    """Points per unit at one table; tied units share the average of the places they occupy, so a
    tie never creates or destroys points. Places past the end of ``points`` score 0.

    ``places``: how many places a full table has. At a shorter table each place stands for an equal
    share of the full table's places and scores their average (see ``table_points``)."""
    scale = table_points(points, len(ranks), places or len(ranks))
    order = sorted(ranks)
    result = []
    for rank in ranks:
        first = order.index(rank)
        count = order.count(rank)
        result.append(float(sum(scale[first : first + count]) / count))
    return result


def table_points(points: list[float], size: int, places: int) -> list[Fraction]:
    """Points for places 1..size at a table of ``size`` when a full table has ``places`` places.

    A short table's places are stretched over the full table's: at 3 of 4 places, first covers
    places 1 and a third of 2, and so on, and scores the average of what it covers. So a table's
    size never changes what a player earns on average, and first and last stay best and worst."""
    full = [Fraction(p).limit_denominator(1000) for p in points[:places]]
    full += [Fraction(0)] * (max(places, size) - len(full))
    if size >= places:
        return full[:size]
    result = []
    for i in range(size):
        low, high = Fraction(i * places, size), Fraction((i + 1) * places, size)
        covered = sum(
            (
                full[k] * (min(high, Fraction(k + 1)) - max(low, Fraction(k)))
                for k in range(places)
                if low < k + 1 and k < high
            ),
            Fraction(0),
        )
        result.append(covered / (high - low))
    return result


def bye_points(points: list[float], places: int) -> float:
    """A bye scores the average place: the same as an average player earns at any table."""
    return float(sum(table_points(points, places, places)) / places) if places else 0.0


@dataclass(frozen=True)
class Finish:
    """One player's result in one round."""

    round: int
    player: int
    points: float
    place: int | None = None  # 1 = best; None for a bye
    size: int = 0  # number of places at the table (units: teams in a team game); 0 for a bye
    opponents: tuple[int, ...] = ()  # players faced (not partners)
    bye: bool = False


def finishes(results: list[dict[str, Any]]) -> list[Finish]:
    """The finishes of a tournament's stored results (``TournamentStore.results``)."""
    return [
        Finish(
            round=r["round"],
            player=r["user_id"],
            points=r["points"],
            place=r["place"],
            size=r["size"],
            opponents=tuple(r["opponents"]),
            bye=r["bye"],
        )
        for r in results
    ]


@dataclass(frozen=True)
class Standing:
    rank: int  # 1..n, unique (the final tie-break is a seeded lot)
    player: int
    points: float
    opponents: float  # tie-break 1: average current points of the opponents faced
    wins: int  # tie-break 3: number of first places (shared firsts count)
    place: float  # tie-break 4: average relative place, 0.0 = always first, 1.0 = always last
    rating: float  # tie-break 5: conservative rating given by the caller
    played: int  # tables played (byes excluded)
    byes: int
    reached: int  # highest round played or byed (used by elimination)
    dropped: bool
    # tie-break 2: the head-to-head score among those tied on points and opponents (head_to_head)
    direct: float = 0.0


#: The order ties are broken in, for the help text.
TIE_BREAKS = ("points", "opponents", "direct", "wins", "place", "rating", "lot")


def standings(
    players: list[int],
    finishes: list[Finish],
    ratings: dict[int, float],
    seed: int,
    dropped: Collection[int] = frozenset(),
    elimination: bool = False,
) -> list[Standing]:
    """All ``players``, best first, with ranks 1..n.

    Swiss and round robin sort by ``TIE_BREAKS``. Elimination first sorts by how far a player got
    and by their place in that last round (a bye counts as first), because points from earlier
    rounds must not lift a player above someone who outlasted them. Dropped players keep their
    results (their opponents' tie-breaks count them) but rank below everyone who played on, so a
    prize place always goes to someone who finished the event.
    """
    totals: dict[int, float] = {}
    for f in finishes:
        totals[f.player] = totals.get(f.player, 0.0) + f.points

    lots = sorted(set(players))
    random.Random(seed).shuffle(lots)
    lot = {player: i for i, player in enumerate(lots)}

    rows: list[tuple[tuple, tuple, Standing]] = []
    for player in dict.fromkeys(players):
        own = [f for f in finishes if f.player == player]
        tables = [f for f in own if not f.bye]
        faced = [opponent for f in tables for opponent in f.opponents]
        relative = [(f.place - 1) / (f.size - 1) for f in tables if f.place is not None and f.size > 1]
        standing = Standing(
            rank=0,
            player=player,
            points=totals.get(player, 0.0),
            opponents=sum(totals.get(o, 0.0) for o in faced) / len(faced) if faced else 0.0,
            wins=sum(1 for f in tables if f.place == 1),
            place=sum(relative) / len(relative) if relative else 0.0,
            rating=ratings.get(player, 0.0),
            played=len(tables),
            byes=sum(1 for f in own if f.bye),
            reached=max((f.round for f in own), default=0),
            dropped=player in dropped,
        )
        head: tuple[float, ...] = (-round(standing.points, PRECISION), -round(standing.opponents, PRECISION))
        if elimination:
            head = (-standing.reached, last_place(own, standing.reached)) + head
        tail = (-standing.wins, round(standing.place, PRECISION), -round(standing.rating, PRECISION), lot[player])
        rows.append(((standing.dropped,) + head, tail, standing))

    tied: dict[tuple, list[int]] = {}
    for head, _, standing in rows:
        tied.setdefault(head, []).append(standing.player)
    direct: dict[int, float] = {}
    for group in tied.values():
        if len(group) > 1:
            direct |= mini_table(group, finishes)
    ranked = sorted(
        ((head + (-direct.get(s.player, 0.0),) + tail, replace(s, direct=direct.get(s.player, 0.0)))
         for head, tail, s in rows),
        key=lambda row: row[0],
    )
    return [replace(standing, rank=i) for i, (_, standing) in enumerate(ranked, start=1)]


def last_place(own: list[Finish], reached: int) -> float:
    """The place in the last round reached, a bye counting as a win; infinity when nothing was played."""
    places = [1.0 if f.bye else float(f.place) for f in own if f.round == reached and f.place is not None]
    places += [1.0 for f in own if f.round == reached and f.bye and f.place is None]
    return min(places, default=float("inf"))


def team_finishes(teams: dict[int, list[int]], finishes: list[Finish]) -> list[Finish]:
    """The finishes of fixed teams, for ``standings`` to rank the teams (``player`` holds the team
    number): partners share every result, so a team's finishes are its members' (one per round)
    and its opponents are the teams it faced."""
    team_of = {player: team for team, members in teams.items() for player in members}
    rows: dict[tuple[int, int], Finish] = {}
    for f in finishes:
        team = team_of.get(f.player)
        if team is None or (f.round, team) in rows:
            continue
        opponents = tuple(dict.fromkeys(team_of[o] for o in f.opponents if o in team_of))
        rows[(f.round, team)] = replace(f, player=team, opponents=opponents)
    return list(rows.values())


def team_ratings(teams: dict[int, list[int]], ratings: dict[int, float]) -> dict[int, float]:
    """A fixed team's tie-break rating is its members' average."""
    return {
        team: sum(ratings.get(p, 0.0) for p in members) / len(members)
        for team, members in teams.items()
        if members
    }


def in_team_order(players: list[Standing], teams: list[Standing], members: dict[int, list[int]]) -> list[Standing]:
    """The player standings of a fixed-teams event listed team by team, in the teams' order, and
    ranked again 1..n: partners share every result, so the team standings decide, and a list of
    players must never part partners or order two teams otherwise. Within a team, the players'
    own order; a player of no team (none should be) comes last."""
    row_of = {row.player: row for row in players}
    listed: list[Standing] = []
    for team in teams:
        listed += sorted((row_of[p] for p in members.get(team.player, []) if p in row_of), key=players.index)
    seen = {row.player for row in listed}
    listed += [row for row in players if row.player not in seen]
    return [replace(row, rank=i) for i, row in enumerate(listed, start=1)]
