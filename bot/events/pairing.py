"""Seating for tournaments: who sits at which table each round, and who sits out.

These are pure functions (no Discord, storage, clock or global randomness) so the tournament service
can recompute a round from stored standings and get the same tables, and so the rules can be tested on
simulated events. Units are ints: player ids, or team ids in team games; the caller decides which.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from math import ceil

from bot.events import swiss_search
from bot.events.colours import colour_need, colour_order  # noqa: F401 (re-exported)
from bot.events.swiss_search import PAIRING_MODES  # noqa: F401 (re-exported)

PairCost = Callable[[int, int], int]
_RESTARTS = 5  # extra greedy passes per round-robin round; more barely helped in trials


@dataclass(frozen=True)
class Round:
    tables: list[list[int]]  # units per table, in seat order; tables listed best-standing first
    byes: list[int]  # units sitting out this round


def pair_key(a: int, b: int) -> frozenset[int]:
    """Unordered, so a meeting of a and b counts the same whoever sat first."""
    return frozenset((a, b))


def met_counts(tables_history: list[list[int]]) -> Counter:
    met: Counter = Counter()
    for table in tables_history:
        for a, b in combinations(table, 2):
            met[pair_key(a, b)] += 1
    return met


def table_sizes(n: int, size: int, min_size: int) -> tuple[list[int], int]:
    """Seat as many units as possible, at tables of ``size`` where they can be.

    Order of preference: fewest byes, then the smallest shortfall of the smallest table (two tables
    one seat short beat one table two seats short), then the fewest short tables (30 at tables of
    4: six of 4 and two of 3, not ten of 3: a short table may play a different game), then the
    most even short tables. Returns (sizes largest first, number of byes).
    """
    if not 2 <= min_size <= size:
        raise ValueError(f"need 2 <= min_size <= size, got min_size={min_size}, size={size}")
    if n < 0:
        raise ValueError("n must not be negative")
    for byes in range(n + 1):
        seated = n - byes
        if seated == 0:
            break
        options = []
        for count in range(ceil(seated / size), seated // min_size + 1):
            for full in range(count + 1):
                short, left = count - full, seated - full * size
                if short == 0:
                    if left == 0:
                        options.append((0, 0, 0, [size] * count))
                    continue
                # The short tables' most even split is the best one for this many full tables.
                small, extra = divmod(left, short)
                if small < min_size or small + (1 if extra else 0) > size - 1:
                    continue
                sizes = [size] * full + [small + 1] * extra + [small] * (short - extra)
                options.append((size - small, short, (1 if extra else 0), sizes))
        if options:
            return min(options)[-1], byes
    return [], n


def choose_byes(order: list[int], count: int, byes_had: dict[int, int]) -> list[int]:
    """Fewest byes so far first, then lowest standing, so nobody gets a second bye before everyone had one
    and a bye (which scores) is not handed to a leader. Returned in `order`."""
    _check_distinct(order)
    if not 0 <= count <= len(order):
        raise ValueError(f"cannot give {count} byes to {len(order)} units")
    position = {unit: i for i, unit in enumerate(order)}
    chosen = set(sorted(order, key=lambda u: (byes_had.get(u, 0), -position[u]))[:count])
    return [u for u in order if u in chosen]


def swiss(
    order: list[int],
    size: int,
    min_size: int,
    met: Counter,
    byes_had: dict[int, int],
    seed: int,
    points: dict[int, float] | None = None,
    mode: str = "repeats",
    place_value: float = 1.0,
    colours: dict[int, list[int]] | None = None,
) -> Round:
    """Players of similar standing share a table, and tablemates from earlier rounds are avoided.

    ``mode`` "repeats": a repeat meeting costs more than any difference in standing, so the seating
    has the fewest repeats possible. "standings": a repeat costs as much as ``place_value`` points of
    spread within a table, so late rounds still seat the leaders together. Which tables are short is
    part of the search. ``colours`` (two-seat tables): each unit's past seats, so that nobody gets a
    third seat running or two more of one seat where a seating allows it (bot/events/colours.py). Tables are listed best first, each in standing order;
    the seed only breaks exact ties, so the same inputs always give the same round.
    """
    sizes, bye_count = table_sizes(len(order), size, min_size)
    byes = choose_byes(order, bye_count, byes_had)
    bye_set = set(byes)
    seated = [u for u in order if u not in bye_set]
    position = {unit: i for i, unit in enumerate(seated)}
    costs = swiss_search.seating_costs(seated, len(sizes), met, points or {}, mode, place_value, colours)
    tables = swiss_search.seat(seated, sizes, costs, seed)
    return Round(tables=_in_order(tables, position), byes=byes)


def round_robin_groups(order: list[int], group_size: int) -> list[list[int]]:
    """Snake seeding (1..k, then k..1) so every group gets a fair mix of strong and weak seeds.

    Uses as many groups as needed for none to exceed group_size; sizes then differ by at most one.
    """
    _check_distinct(order)
    if group_size < 1:
        raise ValueError("group_size must be at least 1")
    count = ceil(len(order) / group_size)
    groups: list[list[int]] = [[] for _ in range(count)]
    for i, unit in enumerate(order):
        row, col = divmod(i, count)
        groups[col if row % 2 == 0 else count - 1 - col].append(unit)
    return groups


def round_robin(
    groups: list[list[int]],
    size: int,
    min_size: int,
    met: Counter,
    byes_had: dict[int, int],
    round_index: int,
    seed: int,
) -> Round:
    """Two-player tables follow the circle (Berger) method, a fixed schedule in which every pair meets
    exactly once. Larger tables have no such simple schedule, so each round is searched for tables that
    seat as many new pairs as possible.

    The schedule is built on each group sorted by id, so standings may reorder a group between rounds
    without breaking it; tables and byes are then listed in the given order (best first). `met` and
    `byes_had` should hold this stage only. Nothing depends on `seed` (ties go to id order), which is
    what lets round_robin_rounds promise a round count; `seed` is accepted for a uniform call signature.
    """
    if not 2 <= min_size <= size:
        raise ValueError(f"need 2 <= min_size <= size, got min_size={min_size}, size={size}")
    _check_distinct([u for group in groups for u in group])
    tables: list[list[int]] = []
    byes: list[int] = []
    for group in groups:
        rank = {unit: i for i, unit in enumerate(group)}
        fixed = sorted(group)
        if size == 2:  # keeps the Berger seat order, which alternates
            group_tables, group_byes = _berger_round(fixed, round_index)
        else:
            group_tables, group_byes = _group_round(fixed, size, min_size, met, byes_had, round_index)
            group_tables = [sorted(table, key=rank.__getitem__) for table in group_tables]
        tables.extend(sorted(group_tables, key=lambda table: min(map(rank.__getitem__, table))))
        byes.extend(sorted(group_byes, key=rank.__getitem__))
    return Round(tables=tables, byes=byes)


def round_robin_rounds(group_size: int, size: int, min_size: int | None = None) -> int:
    """Two-player tables: the Berger schedule length. Larger tables: the searched schedule has no formula,
    so replay round_robin on a fresh group and count the rounds until every pair has met. The count is
    exact for what round_robin produces (it is at least ceil((g-1)/(size-1))). Without min_size, the
    largest count over every possible min_size is returned, which is always enough. Groups may differ in
    size by one: ask for each size and take the largest.
    """
    if group_size < 2:
        return 0
    if size == 2:
        return group_size - 1 if group_size % 2 == 0 else group_size
    if min_size is None:
        return max(round_robin_rounds(group_size, size, m) for m in range(2, min(size, group_size) + 1))
    if group_size < min_size:
        raise ValueError(f"a group of {group_size} cannot fill a table of at least {min_size}")
    group = list(range(group_size))
    wanted = group_size * (group_size - 1) // 2
    met: Counter = Counter()
    byes_had: Counter = Counter()
    for played in range(1, wanted + 1):
        rnd = round_robin([group], size, min_size, met, byes_had, played - 1, seed=0)
        met.update(met_counts(rnd.tables))
        byes_had.update(rnd.byes)
        if len(met) == wanted:
            return played
    raise RuntimeError(f"round robin of {group_size} at {min_size}..{size} seats never completes")


def elimination(order: list[int], size: int, min_size: int, byes_had: dict[int, int]) -> Round:
    """Snake seeding keeps top seeds apart until late rounds. A bye advances, so it goes to a top seed;
    among the top seeds, those with fewer byes so far go first, so a leader is not waved through every
    round without playing.
    """
    _check_distinct(order)
    if len(order) < 2:
        raise ValueError("an elimination round needs at least two units")
    if len(order) <= size:
        return Round(tables=[list(order)], byes=[])
    sizes, bye_count = table_sizes(len(order), size, min_size)
    bye_set = set(choose_byes(order[::-1], bye_count, byes_had))
    pending = [u for u in order if u not in bye_set]
    tables: list[list[int]] = [[] for _ in sizes]
    forward = True
    while pending:
        lane = range(len(tables)) if forward else reversed(range(len(tables)))
        for t in lane:
            if pending and len(tables[t]) < sizes[t]:
                tables[t].append(pending.pop(0))
        forward = not forward
    return Round(tables=tables, byes=[u for u in order if u in bye_set])


def advancing(places: dict[int, int], k: int) -> list[int]:
    """A tie across the cut lets every tied unit through: the table did not separate them, and
    eliminating one of them by an arbitrary rule would be unfair. So more than k may advance.
    Ties keep the order of `places`.
    """
    ranked = sorted(places, key=lambda u: places[u])
    if k <= 0:
        return []
    if k >= len(ranked):
        return ranked
    cut = places[ranked[k - 1]]
    return [u for u in ranked if places[u] <= cut]


def team_seating(players: list[int], partnered: Counter) -> list[int]:
    """Only three seatings differ (who partners players[0]); take the one with the fewest past
    partnerships, the first of them on a tie."""
    _check_distinct(players)
    if len(players) != 4:
        raise ValueError("team seating needs exactly four players")
    first, others = players[0], players[1:]
    options = []
    for partner in others:
        left, right = (p for p in others if p != partner)
        repeats = partnered[pair_key(first, partner)] + partnered[pair_key(left, right)]
        options.append((repeats, [first, left, partner, right]))
    return min(options, key=lambda option: option[0])[1]


def draw_teams(players: list[int], seed: int) -> list[tuple[int, int]]:
    """Teams stay fixed for the event, so the draw is random but reproducible from the seed."""
    _check_distinct(players)
    if len(players) % 2:
        raise ValueError("a team event needs an even number of players")
    shuffled = list(players)
    random.Random(seed).shuffle(shuffled)
    return [(shuffled[i], shuffled[i + 1]) for i in range(0, len(shuffled), 2)]


# ---- helpers ---------------------------------------------------------------------------------


def _check_distinct(units: list[int]) -> None:
    if len(set(units)) != len(units):
        raise ValueError("a unit is listed twice")


def _in_order(tables: list[list[int]], position: dict[int, int]) -> list[list[int]]:
    seated = [sorted(table, key=position.__getitem__) for table in tables]
    return sorted(seated, key=lambda table: position[table[0]])


def _joining_cost(unit: int, table: list[int], cost: PairCost) -> int:
    return sum(cost(unit, other) for other in table if other != unit)


def _arrange(units: list[int], sizes: list[int], cost: PairCost, tiebreak: dict[int, int]) -> list[list[int]]:
    """A greedy fill keeps the best-placed units together but leaves the last tables with whoever is
    left; swaps between tables then repair most of that without an exhaustive search."""
    remaining = list(units)
    tables = []
    for size in sizes:
        table = [remaining.pop(0)]
        while len(table) < size:
            _, _, best = min((_joining_cost(c, table, cost), tiebreak[c], c) for c in remaining)
            remaining.remove(best)
            table.append(best)
        tables.append(table)
    _improve_by_swaps(tables, cost)
    return tables


def _improve_by_swaps(tables: list[list[int]], cost: PairCost) -> None:
    """Take the best swap while one lowers the total cost; costs are ints, so this ends."""
    while True:
        best_gain, best_swap = 0, None
        for i, j in combinations(range(len(tables)), 2):
            for a in tables[i]:
                for b in tables[j]:
                    before = _joining_cost(a, tables[i], cost) + _joining_cost(b, tables[j], cost)
                    after = (
                        _joining_cost(b, tables[i], cost)
                        - cost(b, a)
                        + _joining_cost(a, tables[j], cost)
                        - cost(a, b)
                    )
                    if before - after > best_gain:
                        best_gain, best_swap = before - after, (i, a, j, b)
        if best_swap is None:
            return
        i, a, j, b = best_swap
        tables[i][tables[i].index(a)] = b
        tables[j][tables[j].index(b)] = a


def _group_round(
    group: list[int], size: int, min_size: int, met: Counter, byes_had: dict[int, int], round_index: int
) -> tuple[list[list[int]], list[int]]:
    """Scored for coverage: any pair that already met costs heavily, so each round seats as many new
    pairs as it can, and a little more for each past meeting, to spread the repeats. Byes still rotate,
    but among the units due one they go to those with the fewest opponents left to meet. A few restarts
    from shuffled starting orders (seeded by the round, not by ids, so a replay on other ids gives the
    same shape) avoid the worst local optima of a single greedy pass.
    """
    sizes, bye_count = table_sizes(len(group), size, min_size)
    left = {u: sum(1 for v in group if v != u and not met[pair_key(u, v)]) for u in group}
    bye_set = set(choose_byes(sorted(group, key=lambda u: -left[u]), bye_count, byes_had))
    seated = [u for u in group if u not in bye_set]
    position = {unit: i for i, unit in enumerate(seated)}
    heavy = len(group) ** 2

    def cost(a: int, b: int) -> int:
        times = met[pair_key(a, b)]
        return heavy * (times > 0) + times

    rng = random.Random(round_index)
    starts = [seated] + [rng.sample(seated, len(seated)) for _ in range(_RESTARTS)]
    candidates = [_arrange(start, sizes, cost, position) for start in starts]
    best = min(candidates, key=lambda tables: sum(_joining_cost(u, t, cost) for t in tables for u in t))
    return _in_order(best, position), [u for u in group if u in bye_set]


def _berger_round(group: list[int], round_index: int) -> tuple[list[list[int]], list[int]]:
    """Circle method: the first unit stays put, the rest rotate one place per round; an odd group
    gets a phantom whose opponent has the bye."""
    units: list[int | None] = list(group) + ([None] if len(group) % 2 else [])
    if len(units) < 2:
        return [], list(group)
    n = len(units)
    turn = round_index % (n - 1)
    rest = units[1:]
    circle = [units[0]] + rest[len(rest) - turn :] + rest[: len(rest) - turn]
    tables: list[list[int]] = []
    byes: list[int] = []
    for i in range(n // 2):
        a, b = circle[i], circle[n - 1 - i]
        if a is None or b is None:
            byes.extend(u for u in (a, b) if u is not None)  # the phantom's opponent
        elif i == 0 and turn % 2:
            tables.append([b, a])  # the fixed unit changes seat every other round
        else:
            tables.append([a, b])
    return tables, byes
