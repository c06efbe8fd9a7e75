"""The exact part of the Swiss seating search: a branch and bound over every seating (small fields,
and each run of a few neighbouring tables in large ones), its budget a count of nodes.

``polish`` re-seats each run of ``POLISH_WIDTH`` tables next to each other in the standings exactly:
a chain of moves through three tables, each worse on its own, is out of reach of the swaps of
``swiss_search.improve`` and of its kicks, and missing it left a 29-player round a point or more of
spread above what another seed found (issue 49).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.events.swiss_search import Costs

NODE_BUDGET = 40_000
POLISH_WIDTH = 3  # tables re-seated together; four would often exhaust the budget unfinished
POLISH_BUDGET = 3_000  # nodes per run of tables: three tables of four finish well within it


def polish(tables: list[list[int]], costs: Costs, settled: set[frozenset[frozenset[int]]]) -> None:
    """Re-seat each run of neighbouring tables exactly while that lowers the cost. ``settled``:
    the runs already found best as they are (kept across calls, as a kick changes few tables)."""
    improved = True
    while improved:
        improved = False
        order = sorted(range(len(tables)), key=lambda t: min(costs.pos[u] for u in tables[t]))
        for start in range(max(1, len(order) - POLISH_WIDTH + 1)):
            run = order[start : start + POLISH_WIDTH]
            key = frozenset(frozenset(tables[t]) for t in run)
            if len(run) < 2 or key in settled:
                continue
            units = sorted((u for t in run for u in tables[t]), key=costs.pos.__getitem__)
            before = sum(costs.table(tables[t]) for t in run)
            better, _complete = branch_and_bound(units, [len(tables[t]) for t in run], costs, before, POLISH_BUDGET)
            if better is None:
                settled.add(key)
                continue
            for t, members in zip(run, better, strict=True):
                tables[t] = members
            improved = True


def branch_and_bound(
    units: list[int], sizes: list[int], costs: Costs, upper: int, budget: int = NODE_BUDGET
) -> tuple[list[list[int]] | None, bool]:
    """The cheapest seating below ``upper`` (None when none is cheaper), and whether the search was
    complete: when the budget runs out first, what was found is still a valid, cheaper seating.

    Adding a unit never makes a table cheaper, so the cost so far bounds every completion; units
    come in standing order, so good seatings are met early and prune the rest."""
    count = len(sizes)
    tables: list[list[int]] = [[] for _ in sizes]
    low_v, high_v = [0] * count, [0] * count
    low_p, high_p = [0] * count, [0] * count
    met, clash, value, pos = costs.met, costs.clash, costs.value, costs.pos
    repeat, scale = costs.repeat, costs.scale
    best: list[list[int]] | None = None
    best_cost = upper
    nodes = 0

    def place(index: int, spent: int) -> None:
        nonlocal best, best_cost, nodes
        if index == len(units):
            if spent < best_cost:
                best_cost, best = spent, [list(t) for t in tables]
            return
        nodes += 1
        if nodes > budget:
            return
        unit = units[index]
        v, p = value[unit], pos[unit]
        mine, rivals = met.get(unit, {}), clash.get(unit, {})
        options = []
        tried_empty: set[int] = set()
        for t in range(count):
            members = tables[t]
            if len(members) >= sizes[t]:
                continue
            if not members:
                if sizes[t] in tried_empty:
                    continue  # empty tables of one size are interchangeable
                tried_empty.add(sizes[t])
                options.append((0, t))
                continue
            extra = 0
            for other in members:
                extra += repeat * mine.get(other, 0) + rivals.get(other, 0)
            lv, hv, lp, hp = low_v[t], high_v[t], low_p[t], high_p[t]
            extra += scale * (max(hv, v) - min(lv, v) - hv + lv) + max(hp, p) - min(lp, p) - hp + lp
            options.append((extra, t))
        options.sort()
        for extra, t in options:
            if spent + extra >= best_cost:
                break
            saved = (low_v[t], high_v[t], low_p[t], high_p[t])
            if tables[t]:
                low_v[t], high_v[t] = min(low_v[t], v), max(high_v[t], v)
                low_p[t], high_p[t] = min(low_p[t], p), max(high_p[t], p)
            else:
                low_v[t] = high_v[t] = v
                low_p[t] = high_p[t] = p
            tables[t].append(unit)
            place(index + 1, spent + extra)
            tables[t].pop()
            low_v[t], high_v[t], low_p[t], high_p[t] = saved
            if nodes > budget:
                return

    place(0, 0)
    return best, nodes <= budget
