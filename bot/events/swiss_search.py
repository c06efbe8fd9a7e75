"""Finding the best Swiss seating: which units share each table, given the sizes of the tables.

A seating's cost adds, table by table, a weight per repeat meeting, the spread of standings points
within the table, at two-seat tables what the colours cost (bot/events/colours.py: a broken rule
outweighs every spread), and (far smaller, to settle ties and round 1) the spread of standing
positions.
Costs are integers so every comparison is exact and every run gives the same tables.

Small fields are searched exactly (branch and bound, tables of one size being interchangeable,
bot/events/swiss_exact.py); large ones by a local search (swaps between tables, which also moves
who sits at a short table, then each run of three neighbouring tables re-seated exactly)
restarted from several layouts and from kicked copies of the best one. Budgets are counts, never
clock time, so the result does not depend on the machine.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import combinations

from bot.events.colours import ColourWeights, pair_cost
from bot.events.swiss_exact import NODE_BUDGET, branch_and_bound, polish  # noqa: F401 (re-exported)

EXACT_MAX = 16  # units; beyond this the exact search rarely finishes within its node budget
POLISH_EVERY = 64  # units; up to this many each kick's result is polished, beyond only the best
WINDOW = 3  # tables either side tried for swaps; a table with a repeat tries all


@dataclass
class Costs:
    """How a table is scored. ``value``: standings points as integers; ``pos``: standing position."""

    value: dict[int, int]
    pos: dict[int, int]
    met: dict[int, dict[int, int]]
    repeat: int  # cost of one repeat meeting
    scale: int  # cost of one unit of points spread; position spread costs 1
    clash: dict[int, dict[int, int]] = field(default_factory=dict)  # extra pair costs (colours)

    def table(self, members: Iterable[int]) -> int:
        members = list(members)
        if not members:
            return 0
        total = 0
        for a, b in combinations(members, 2):
            total += self.repeat * self.met.get(a, {}).get(b, 0) + self.clash.get(a, {}).get(b, 0)
        values = [self.value[u] for u in members]
        places = [self.pos[u] for u in members]
        return total + self.scale * (max(values) - min(values)) + max(places) - min(places)

    def weight(self, a: int, b: int) -> int:
        """What seating a and b together costs beyond the spreads."""
        return self.repeat * self.met.get(a, {}).get(b, 0) + self.clash.get(a, {}).get(b, 0)

    def repeats(self, members: Iterable[int]) -> int:
        return sum(self.met.get(a, {}).get(b, 0) for a, b in combinations(list(members), 2))


def total(tables: list[list[int]], costs: Costs) -> int:
    return sum(costs.table(t) for t in tables)


def seat(units: list[int], sizes: list[int], costs: Costs, seed: int) -> list[list[int]]:
    """Tables for ``units`` (best standing first) with the given sizes; the lowest cost found."""
    if not sizes:
        return []
    rng = random.Random(seed)
    best = local_search(units, sizes, costs, rng)
    if len(units) <= EXACT_MAX:
        exact, _complete = branch_and_bound(units, sizes, costs, total(best, costs))
        if exact is not None:
            best = exact
    return best


# ---- costs ----------------------------------------------------------------------------------------


POINT_STEPS = 120  # standings points are compared in 1/120ths: exact for shared places and scaled tables


def seating_costs(
    seated: list[int],
    tables: int,
    met: Counter,
    points: dict[int, float],
    mode: str,
    place_value: float,
    colours: dict[int, list[int]] | None = None,
) -> Costs:
    """The integer weights of a Swiss seating's cost (see bot/events/swiss_search.py)."""
    if mode not in PAIRING_MODES:
        raise ValueError(f"unknown pairing mode {mode!r}")
    value = {u: round(points.get(u, 0.0) * POINT_STEPS) for u in seated}
    pos = {u: i for i, u in enumerate(seated)}
    neighbours: dict[int, dict[int, int]] = {}
    members = set(seated)
    for key, times in met.items():
        a, b = tuple(key)
        if times and a in members and b in members:
            neighbours.setdefault(a, {})[b] = times
            neighbours.setdefault(b, {})[a] = times
    scale = tables * len(seated) + 1  # one step of points outweighs every position difference
    place = max(1, round(place_value * POINT_STEPS)) * scale
    clash: dict[int, dict[int, int]] = {}
    # A lost wish to alternate costs less than any difference in points over the whole seating
    # (the smallest is half a place) and, where that leaves room, more than every position
    # difference together: of two seatings otherwise equal, the one giving more players their due
    # colour wins. The two rules of bot/events/colours.py outweigh everything but, in "repeats"
    # mode, a repeat: an uneven count costs more than every spread, wish and (in "standings" mode)
    # repeat of a seating together, a third seat running more than every uneven count.
    mild = max(1, min(scale, place // (2 * tables + 2)))
    spread = max(value.values(), default=0) - min(value.values(), default=0)
    spreads = tables * (scale * (spread + 1) + len(seated))
    if colours is not None:
        repeats = place * tables * max(neighbours_met(neighbours), 1) if mode == "standings" else 0
        uneven = spreads + 2 * mild * tables + repeats + 1
        weights = ColourWeights(third=uneven * (len(seated) + 1), uneven=uneven, wish=mild)
        for a, b in combinations(seated, 2):
            weight = pair_cost(colours.get(a, []), colours.get(b, []), weights)
            if weight:
                clash.setdefault(a, {})[b] = clash.setdefault(b, {})[a] = weight
    if mode == "standings":
        repeat = place
    else:
        clashes = sum(v for row in clash.values() for v in row.values())
        repeat = spreads + clashes + 1
    return Costs(value=value, pos=pos, met=neighbours, repeat=repeat, scale=scale, clash=clash)


PAIRING_MODES = ("standings", "repeats")


def neighbours_met(neighbours: dict[int, dict[int, int]]) -> int:
    """The most times two units met."""
    return max((times for row in neighbours.values() for times in row.values()), default=0)


# ---- local search ---------------------------------------------------------------------------------


def layouts(units: list[int], sizes: list[int]) -> list[list[list[int]]]:
    """Starting points: the standings cut into tables, with the short tables at the bottom, at the
    top, and spread through the field."""
    orders = [sorted(sizes, reverse=True), sorted(sizes)]
    if len(set(sizes)) > 1:
        full, short = [s for s in sizes if s == max(sizes)], sorted(s for s in sizes if s < max(sizes))
        mixed: list[int] = []
        step = max(1, len(sizes) // max(1, len(short)))
        for i in range(len(sizes)):
            mixed.append(
                short.pop() if short and i % step == step // 2 else full.pop() if full else short.pop()
            )
        orders.append(mixed)
    result = []
    for order in orders:
        tables, start = [], 0
        for size in order:
            tables.append(list(units[start : start + size]))
            start += size
        result.append(tables)
    return result


def local_search(units: list[int], sizes: list[int], costs: Costs, rng: random.Random) -> list[list[int]]:
    best, best_cost = None, None
    settled: set[frozenset[frozenset[int]]] = set()
    each = len(units) <= POLISH_EVERY
    for tables in layouts(units, sizes):
        improve(tables, costs)
        if each:
            polish(tables, costs, settled)
        cost = total(tables, costs)
        if best_cost is None or cost < best_cost:
            best, best_cost = tables, cost
    assert best is not None and best_cost is not None
    kicks = max(8, min(40, 4000 // max(1, len(units))))
    for _ in range(kicks if len(best) > 1 else 0):
        tables = [list(t) for t in best]
        improve(tables, costs, kick(tables, rng))
        if each:
            polish(tables, costs, settled)
        cost = total(tables, costs)
        if cost < best_cost:
            best, best_cost = tables, cost
    if not each:
        polish(best, costs, settled)
    return best


def kick(tables: list[list[int]], rng: random.Random) -> set[int]:
    """A few random swaps between neighbouring tables, to leave a local optimum; the tables touched."""
    touched: set[int] = set()
    for _ in range(max(2, min(8, len(tables) // 4))):
        i = rng.randrange(len(tables))
        j = min(len(tables) - 1, max(0, i + rng.choice((-2, -1, 1, 2))))
        if i != j:
            a, b = rng.randrange(len(tables[i])), rng.randrange(len(tables[j]))
            tables[i][a], tables[j][b] = tables[j][b], tables[i][a]
            touched.update((i, j))
    return touched


def improve(tables: list[list[int]], costs: Costs, start: Iterable[int] | None = None) -> None:
    """Swap units between tables while a swap lowers the cost (best swap per pair of tables, costs
    are ints so it ends). Only the tables in ``start`` (default all) and those a swap changes are
    looked at, and within ``WINDOW`` tables of each other unless a table holds a repeat."""
    count = len(tables)
    info = [_summary(t, costs) for t in tables]
    pending = sorted(range(count) if start is None else start, reverse=True)
    queued = set(pending)
    while pending:
        i = pending.pop()
        queued.discard(i)
        partners = range(count) if info[i][0] else range(max(0, i - WINDOW), min(count, i + WINDOW + 1))
        for j in partners:
            if j == i or _settled(info[i], info[j]):
                continue
            if swap_best(tables, info, i, j, costs):
                for k in (i, j):
                    if k not in queued:
                        queued.add(k)
                        pending.append(k)


def _settled(a: tuple, b: tuple) -> bool:
    """No swap can help two tables without pair costs when one lies wholly above the other in both
    standing and points: a contiguous split already has the smallest spreads."""
    if a[0] or b[0]:
        return False
    _, _, lv, hv, lp, hp, _ = a
    _, _, lv2, hv2, lp2, hp2, _ = b
    return (hp < lp2 and lv >= hv2) or (hp2 < lp and lv2 >= hv)


def swap_best(tables: list[list[int]], info: list[tuple], i: int, j: int, costs: Costs) -> bool:
    """Make the best improving swap between tables i and j, if there is one. Each candidate swap is
    priced in constant time from the tables' summaries, as this is the search's inner loop."""
    left, right = tables[i], tables[j]
    weight = costs.weight
    rest_left, rest_right = info[i][6], info[j][6]
    into_left = [sum(weight(b, x) for x in left) for b in right]
    into_right = [sum(weight(a, x) for x in right) for a in left]
    value, pos, scale = costs.value, costs.pos, costs.scale
    before = info[i][1] + info[j][1]
    best_gain, best = 0, None
    for ia, a in enumerate(left):
        own_a, lv, hv, lp, hp = rest_left[ia]
        va, pa = value[a], pos[a]
        for ib, b in enumerate(right):
            own_b, lv2, hv2, lp2, hp2 = rest_right[ib]
            vb, pb = value[b], pos[b]
            w = weight(a, b)
            new_left = (
                own_a + into_left[ib] - w + scale * (max(hv, vb) - min(lv, vb)) + max(hp, pb) - min(lp, pb)
            )
            new_right = (
                own_b
                + into_right[ia]
                - w
                + scale * (max(hv2, va) - min(lv2, va))
                + max(hp2, pa)
                - min(lp2, pa)
            )
            gain = before - new_left - new_right
            if gain > best_gain:
                best_gain, best = gain, (ia, ib)
    if best is None:
        return False
    ia, ib = best
    left[ia], right[ib] = right[ib], left[ia]
    info[i], info[j] = _summary(left, costs), _summary(right, costs)
    return True


def _summary(table: list[int], costs: Costs) -> tuple:
    """(pair costs, cost, lowest and highest points, lowest and highest position, per member: the
    pair costs among the others and the others' bounds). A table of one leaves bounds adding nothing."""
    weight, value, pos = costs.weight, costs.value, costs.pos
    pairs = sum(weight(a, b) for a, b in combinations(table, 2))
    values = [value[x] for x in table]
    places = [pos[x] for x in table]
    rests = []
    for k, unit in enumerate(table):
        if len(table) == 1:
            rests.append((0, values[0], values[0], places[0], places[0]))
            continue
        own = pairs - sum(weight(unit, x) for x in table if x != unit)
        vs = values[:k] + values[k + 1 :]
        ps = places[:k] + places[k + 1 :]
        rests.append((own, min(vs), max(vs), min(ps), max(ps)))
    lv, hv, lp, hp = min(values), max(values), min(places), max(places)
    cost = pairs + costs.scale * (hv - lv) + hp - lp
    return (pairs, cost, lv, hv, lp, hp, rests)
