"""A simulated Swiss event and the checks of its rounds, shared by the seating test files."""

from __future__ import annotations

import random
from collections import Counter

from bot.events.pairing import (
    Round,
    met_counts,
    swiss,
    table_sizes,
)


def repeated_pairs(met: Counter) -> int:
    """Meetings beyond the first, summed over pairs."""
    return sum(times - 1 for times in met.values() if times > 1)


def check_round(rnd: Round, units: list[int], size: int, min_size: int) -> None:
    seated = [u for table in rnd.tables for u in table]
    assert len(seated) == len(set(seated)), "a unit is seated twice"
    assert not set(seated) & set(rnd.byes), "a unit is seated and has a bye"
    assert sorted(seated + rnd.byes) == sorted(units), "a unit is missing or unknown"
    assert all(min_size <= len(table) <= size for table in rnd.tables)
    sizes, byes = table_sizes(len(units), size, min_size)
    assert sorted(map(len, rnd.tables), reverse=True) == sizes
    assert len(rnd.byes) == byes


class SwissEvent:
    def __init__(self, n: int, size: int, min_size: int, seed: int) -> None:
        self.rng = random.Random(seed)
        self.units = [100 + 7 * i for i in range(n)]  # ids unrelated to standing
        self.rating = {u: self.rng.random() for u in self.units}
        self.size, self.min_size, self.seed = size, min_size, seed
        self.points: Counter = Counter()
        self.met: Counter = Counter()
        self.byes_had: Counter = Counter()
        self.rounds: list[Round] = []

    def order(self) -> list[int]:
        return sorted(self.units, key=lambda u: (-self.points[u], -self.rating[u]))

    def play(self, order: list[int] | None = None) -> Round:
        order = self.order() if order is None else order
        rnd = swiss(order, self.size, self.min_size, self.met, self.byes_had, self.seed + len(self.rounds))
        return self.play_round(rnd)

    def play_round(self, rnd: Round) -> Round:
        """Random finishing places for a seated round, fed back into points, meetings and byes."""
        check_round(rnd, self.units, self.size, self.min_size)
        for table in rnd.tables:
            finish = list(table)
            self.rng.shuffle(finish)
            for place, unit in enumerate(finish):
                self.points[unit] += len(table) - 1 - place
        for unit in rnd.byes:
            self.points[unit] += 1
            self.byes_had[unit] += 1
        self.met.update(met_counts(rnd.tables))
        self.rounds.append(rnd)
        return rnd
