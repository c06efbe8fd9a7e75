"""Time to seat one Swiss round, and the repeat tablemates it leaves, for events of growing size
(a benchmark, not a test).

Usage: python benchmarks/swiss_pairing.py [--rounds R] [--size S]

Each event plays R rounds with random results; standings are points, so the pairing meets the
same mix of leaders and repeats a real event would.
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

from bot.events.pairing import pair_key, swiss  # noqa: E402


def run(players: int, size: int, rounds: int, seed: int) -> tuple[float, int]:
    rng = random.Random(seed)
    points = Counter({p: 0 for p in range(players)})
    met: Counter = Counter()
    byes: Counter = Counter()
    slowest = 0.0
    for number in range(rounds):
        order = sorted(points, key=lambda p: (-points[p], p))
        started = time.perf_counter()
        laid = swiss(order, size, max(2, size - 1), met, byes, seed + number)
        slowest = max(slowest, time.perf_counter() - started)
        byes.update(laid.byes)
        for table in laid.tables:
            met.update(pair_key(a, b) for a, b in combinations(table, 2))
            for place, player in enumerate(rng.sample(table, len(table))):
                points[player] += len(table) - place
    repeats = sum(count - 1 for count in met.values() if count > 1)
    return slowest, repeats


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--size", type=int, default=4)
    args = parser.parse_args()
    print(f"tables of {args.size}, {args.rounds} rounds")
    for players in (16, 32, 64, 128, 256):
        slowest, repeats = run(players, args.size, args.rounds, seed=1)
        print(f"{players:4d} players: slowest round {slowest * 1000:8.1f} ms, repeated pairs {repeats}")


if __name__ == "__main__":
    main()
