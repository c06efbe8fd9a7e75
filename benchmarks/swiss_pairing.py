"""How well and how fast Swiss seating works, per field size and round, in both pairing modes
(a benchmark, not a test).

Usage: python benchmarks/swiss_pairing.py [--rounds R] [--size S] [--fields 13,32,256]

Each event plays R rounds with random finishing places scored as the bot scores them (short tables
included). Per round it prints, for "group by standings" and "avoid repeats first":
- spread: the average spread of standings points within a table, against random seating of the
  same players at the same table sizes (the mean of 20 draws);
- repeats: tablemate pairs that had met before, against a lower bound: the exact minimum (a full
  branch-and-bound over repeats alone) for small fields, else a counting bound (a player seated
  with more tablemates than they have not met yet must repeat);
- the time to seat the round. Seating 256 players must stay under 3 s a round.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import sys
import time
from collections import Counter
from itertools import combinations

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bot.events import swiss_search  # noqa: E402
from bot.events.fairness import place_value  # noqa: E402
from bot.events.pairing import choose_byes, met_counts, pair_key, swiss, table_sizes  # noqa: E402
from bot.events.standings import default_points, place_points  # noqa: E402

MODES = ("standings", "repeats")


def spread(tables: list[list[int]], points: Counter) -> float:
    return sum(max(points[u] for u in t) - min(points[u] for u in t) for t in tables) / max(1, len(tables))


def random_spread(seated: list[int], sizes: list[int], points: Counter, rng: random.Random) -> float:
    total = 0.0
    for _ in range(20):
        shuffled = rng.sample(seated, len(seated))
        tables, start = [], 0
        for size in sizes:
            tables.append(shuffled[start : start + size])
            start += size
        total += spread(tables, points)
    return total / 20


def repeat_bound(seated: list[int], sizes: list[int], met: Counter) -> tuple[int, str]:
    """The fewest repeats any seating can have: exact for small fields, else a counting bound."""
    if len(seated) <= swiss_search.EXACT_MAX:
        neighbours: dict[int, dict[int, int]] = {}
        for key, times in met.items():
            a, b = tuple(key)
            neighbours.setdefault(a, {})[b] = times
            neighbours.setdefault(b, {})[a] = times
        costs = swiss_search.Costs(
            value=dict.fromkeys(seated, 0), pos=dict.fromkeys(seated, 0), met=neighbours, repeat=1, scale=0
        )
        upper = sum(met[pair_key(a, b)] for a, b in combinations(seated, 2)) + 1
        best, complete = swiss_search.branch_and_bound(seated, sizes, costs, upper, budget=2_000_000)
        if best is not None and complete:
            return swiss_search.total(best, costs), "exact"
    smallest = min(sizes)
    present = set(seated)
    excess = 0
    for unit in seated:
        fresh = sum(1 for other in present if other != unit and not met[pair_key(unit, other)])
        excess += max(0, smallest - 1 - fresh)
    return (excess + 1) // 2, "count"


def run(players: int, size: int, rounds: int, seed: int) -> list[dict]:
    """Both modes on the same results stream, round by round."""
    points_per_place = default_points(size)
    value = place_value(points_per_place, size)
    rows = []
    events = {mode: (Counter({p: 0.0 for p in range(players)}), Counter(), Counter()) for mode in MODES}
    rng_results = {mode: random.Random(seed) for mode in MODES}
    for number in range(rounds):
        row: dict = {"round": number + 1}
        for mode in MODES:
            points, met, byes = events[mode]
            order = sorted(points, key=lambda p: (-points[p], p))
            sizes, bye_count = table_sizes(players, size, max(2, size - 1))
            bye_set = set(choose_byes(order, bye_count, byes))
            seated = [u for u in order if u not in bye_set]
            started = time.perf_counter()
            laid = swiss(order, size, max(2, size - 1), met, byes, seed + number, dict(points), mode, value)
            elapsed = time.perf_counter() - started
            repeats = sum(met[pair_key(a, b)] for t in laid.tables for a, b in combinations(t, 2))
            bound, kind = repeat_bound(seated, sizes, met)
            row[mode] = {
                "spread": spread(laid.tables, points),
                "random": random_spread(seated, sizes, points, random.Random(number)),
                "repeats": repeats,
                "bound": bound,
                "kind": kind,
                "ms": elapsed * 1000,
            }
            byes.update(laid.byes)
            for unit in laid.byes:
                points[unit] += sum(points_per_place) / size
            for table in laid.tables:
                finish = rng_results[mode].sample(table, len(table))
                scored = place_points(points_per_place, list(range(1, len(table) + 1)), size)
                for place, unit in enumerate(finish):
                    points[unit] += scored[place]
            met.update(met_counts(laid.tables))
        rows.append(row)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--size", type=int, default=4)
    parser.add_argument("--fields", default="13,32,64,128,256")
    args = parser.parse_args()
    print(f"tables of {args.size} (one seat short allowed), {args.rounds} rounds, random results")
    print("mode: spread (random seating) · repeats/bound · time")
    slowest = 0.0
    for players in (int(f) for f in args.fields.split(",")):
        print(f"-- {players} players")
        for row in run(players, args.size, args.rounds, seed=1):
            parts = []
            for mode in MODES:
                r = row[mode]
                slowest = max(slowest, r["ms"]) if players >= 256 else slowest
                parts.append(
                    f"{mode:9s} {r['spread']:5.2f} ({r['random']:5.2f}) · "
                    f"{r['repeats']:3d}/{r['bound']:<3d}{r['kind'][0]} · {r['ms']:7.1f} ms"
                )
            print(f"  round {row['round']}: " + " | ".join(parts))
    if slowest:
        print(f"slowest round at 256 players: {slowest / 1000:.2f} s (goal: under 3 s)")


if __name__ == "__main__":
    main()
