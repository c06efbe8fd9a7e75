"""Does every decision keep to its level's CPU budget? The worst case, not the mean.

Usage: python benchmarks/ai_budget.py [--only game[:players],...] [--levels normal,hard]
       [--positions N] [--seed S]

Takes positions from random games (spread over whole games), lets a computer of each level choose
for the seat to act, and prints the CPU ms per decision: mean, 99th percentile and maximum next to
the level's budget (``bot.ai.BUDGET_MS``). Each game's first decision runs once before measuring,
so one-time tables (built at import) do not count. A worker process keeps its caches from move to
move, as here.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bot.ai import BUDGET_MS, choose_action, get, searches  # noqa: E402
from tests.support.engines import engine_classes, random_positions  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="")
    parser.add_argument("--levels", default="normal,hard")
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    wanted = [item.split(":") for item in filter(None, args.only.split(","))]
    print(f"{'game':<15}{'n':>3}  {'level':<7}{'decisions':>9}  {'ms mean':>7} {'p99':>7} {'max':>7}  budget")
    for cls in engine_classes():
        if not searches(cls(cls.min_players, 0, {})) and get(cls.game_id).player is None:
            continue
        for n in range(cls.min_players, cls.max_players + 1):
            if wanted and not any(w[0] == cls.game_id and (len(w) == 1 or int(w[1]) == n) for w in wanted):
                continue
            for level in args.levels.split(","):
                times: list[float] = []
                for k, engine in enumerate(
                    random_positions(cls, n, {}, args.positions * 4, seed=args.seed + n)
                ):
                    seat = engine.to_act()[0]
                    if len(engine.legal_actions(seat)) < 2:
                        continue
                    start = time.process_time()
                    choose_action(engine, seat, level, seed=k)
                    times.append(1000 * (time.process_time() - start))
                    if len(times) > args.positions:
                        break
                times = times[1:]  # the first decision builds what a worker builds once
                times.sort()
                p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
                print(
                    f"{cls.game_id:<15}{n:>3}  {level:<7}{len(times):>9}  {sum(times) / len(times):7.1f}"
                    f" {p99:7.1f} {times[-1]:7.1f}  {BUDGET_MS[level]}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
