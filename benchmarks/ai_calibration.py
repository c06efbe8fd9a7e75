"""Fit a game's search costs (``GameAI.move_us``, ``iteration_us``) on this machine.

Usage: python benchmarks/ai_calibration.py [--only game[:players],...] [--searches N] [--budget-ms MS]

Runs searches at positions from random games, records the simulated moves, the iterations and the
CPU time of each, and fits time = move_us * moves + iteration_us * iterations by least squares.
It prints the fitted values next to the registered ones, and how far the real CPU time of a
search strays from the virtual clock (the worst ratio should stay well under 1 / TARGET_SHARE, or
a search overruns its level's CPU budget).
"""

from __future__ import annotations

import argparse
import pathlib
import random
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bot.ai import TARGET_SHARE, get, searches  # noqa: E402
from bot.ai.search import Search  # noqa: E402
from tests.support.engines import engine_classes, random_positions  # noqa: E402


def fit(rows: list[tuple[int, int, float]]) -> tuple[float, float]:
    """Least squares without intercept for t = a * moves + b * iterations."""
    smm = sum(m * m for m, i, t in rows)
    sii = sum(i * i for m, i, t in rows)
    smi = sum(m * i for m, i, t in rows)
    smt = sum(m * t for m, i, t in rows)
    sit = sum(i * t for m, i, t in rows)
    det = smm * sii - smi * smi
    return (smt * sii - sit * smi) / det, (smm * sit - smi * smt) / det


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="")
    parser.add_argument("--searches", type=int, default=40)
    parser.add_argument("--budget-ms", type=float, default=100.0)
    args = parser.parse_args()
    wanted = [item.split(":") for item in filter(None, args.only.split(","))]
    for cls in engine_classes():
        if not searches(cls(cls.min_players, 0, {})):
            continue
        ai = get(cls.game_id)
        for n in range(cls.min_players, cls.max_players + 1):
            if wanted and not any(w[0] == cls.game_id and (len(w) == 1 or int(w[1]) == n) for w in wanted):
                continue
            rows = []
            for k, engine in enumerate(random_positions(cls, n, {}, args.searches * 3, seed=n)):
                seat = engine.to_act()[0]
                if len(engine.legal_actions(seat)) < 2:
                    continue
                search = Search(engine, seat, ai, random.Random(k), args.budget_ms * 1000 * TARGET_SHARE)
                start = time.process_time()
                search.run()
                rows.append((search.moves, search.iterations, 1e6 * (time.process_time() - start)))
                if len(rows) >= args.searches:
                    break
            move_us, iteration_us = fit(rows)
            ratios = [t / (ai.move_us * m + ai.iteration_us * i) for m, i, t in rows]
            print(
                f"{cls.game_id:<15}{n}p  fitted move_us {move_us:6.1f} iteration_us {iteration_us:6.1f}"
                f"  | registered {ai.move_us:.1f} / {ai.iteration_us:.1f}: real/virtual time"
                f" mean {sum(ratios) / len(ratios):.2f} max {max(ratios):.2f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
