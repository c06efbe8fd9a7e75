"""The rules that keep an event fair, shared by the service, the messages and the exports: what a
place is worth, how Swiss seats (by standings or avoiding repeats), computer fill-ins, colours at
two-seat tables, when a round robin has done its work, and final standings that stay final.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import asdict
from itertools import combinations
from math import ceil

from bot.events.pairing import pair_key, table_sizes
from bot.events.standings import Standing, table_points
from bot.storage.events import RoundTable, Tournament

FILLS = ("byes", "computers")


def place_value(points: list[float], places: int) -> float:
    """What one place is worth on average: the gap between first and last over the places between.
    In the "standings" pairing mode a repeat tablemate costs this much points spread."""
    if places < 2:
        return 1.0
    full = table_points(points, places, places)
    return float(full[0] - full[-1]) / (places - 1) or 1.0


def pairing_mode(tournament: Tournament, unit_size: int) -> str:
    """The organizer's choice, or by default: two-seat tables avoid rematches first, as Swiss
    events always have; larger tables group by standings, so the leaders meet in the last rounds."""
    if tournament.pairing:
        return tournament.pairing
    return "repeats" if unit_size == 2 else "standings"


def computer_fill(units: int, size: int, min_size: int) -> int:
    """How many computer units to seat instead of byes: enough to fill the last table, when that
    takes at most one per table; otherwise none (byes and short tables as usual)."""
    _sizes, byes = table_sizes(units, size, min_size)
    if not byes:
        return 0
    missing = -units % size
    return missing if missing <= ceil(units / size) else 0


def computer_units(count: int) -> list[int]:
    """Computer fill-ins are paired as units with negative ids; the pairing keeps them apart."""
    return [-(i + 1) for i in range(count)]


def keep_apart(met: Counter, computers: list[int]) -> None:
    for a, b in combinations(computers, 2):
        met[pair_key(a, b)] += 1


def colour_history(rows: list[RoundTable]) -> dict[int, list[int]]:
    """Each player's seats (0 = first, the first colour) at two-seat tables, oldest first."""
    seats: defaultdict[int, list[int]] = defaultdict(list)
    for row in sorted(rows, key=lambda r: (r.round, r.number)):
        if row.number and len(row.players) == 2:
            for index, player in enumerate(row.players):
                if player is not None:
                    seats[player].append(index)
    return dict(seats)


def round_robin_done(groups: dict[int, list[int]], met: Counter) -> bool:
    """Every pair of units still in each group has met: the event is over, even if drops left
    rounds of the planned count unplayed."""
    return all(met[pair_key(a, b)] for members in groups.values() for a, b in combinations(members, 2))


def group_sizes(tournament: Tournament) -> list[int]:
    counts = Counter(e.grp for e in tournament.entrants if e.grp is not None and e.status != "dropped")
    return sorted(counts.values(), reverse=True)


# ---- final standings ----------------------------------------------------------------------------


def freeze(players: list[Standing], teams: list[Standing] | None) -> str:
    return json.dumps(
        {"players": [asdict(s) for s in players], "teams": [asdict(s) for s in teams] if teams else None}
    )


def thawed(tournament: Tournament) -> tuple[list[Standing], list[Standing] | None] | None:
    """The standings stored when the event ended, or None before that."""
    if not tournament.final_standings:
        return None
    data = json.loads(tournament.final_standings)
    teams = data.get("teams")
    return [Standing(**s) for s in data["players"]], [Standing(**s) for s in teams] if teams else None


def podium(rows: list[Standing]) -> list[Standing]:
    """The prize places: the best three who did not drop out."""
    return [r for r in rows if not r.dropped][:3]
