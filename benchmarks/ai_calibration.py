"""Fit a game's search costs (``GameAI.move_us``, ``iteration_us``) on this machine.

Usage: python benchmarks/ai_calibration.py [--only game[:players],...] [--searches N] [--budget-ms MS]

Runs searches at positions from random games, records the simulated moves, the iterations and the
CPU time of each, and fits time = move_us * moves + iteration_us * iterations by least squares.
It prints the fitted values next to the registered ones, and how far the real CPU time of a
search strays from the virtual clock (the worst ratio should stay well under 1 / TARGET_SHARE, or
a search overruns its level's CPU budget).

Arsène has its own player with its own virtual clock (``cogs/arsene/ai.py``: ``DET_US``,
``MOVE_US``, ``POLICY_MOVE_US``, ``PLAYOUT_US``, ``KEY_US``); for it this prints each cost measured
on its own (``policy move``: the heuristic playout of ``hard``) and the real/virtual ratio of whole
decisions with the valuation cache emptied first (the worst case).
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
    if not wanted or any(w[0] == "arsene" for w in wanted):
        arsene(args.searches, args.budget_ms)
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


def arsene(searches: int, budget_ms: float) -> None:
    from cogs.arsene import ai as arsene_ai
    from cogs.arsene.engine import ArseneEngine
    from cogs.arsene.policy import policy

    rng = random.Random(1)
    cost = {"determinize": [], "move": [], "policy move": [], "clone": [], "cold valuation": []}
    for n in (3, 4):
        for engine in random_positions(ArseneEngine, n, {}, searches, seed=9 + n):
            start = time.process_time()
            state = engine.determinize(engine.to_act()[0], rng)
            cost["determinize"].append(time.process_time() - start)
            start = time.process_time()
            state.clone()
            cost["clone"].append(time.process_time() - start)
            probe, start, moves = state.clone(), time.process_time(), 0
            while not probe.over and probe.deal_no == state.deal_no:  # the heuristic of ``hard``
                actor = probe.to_act()[0]
                probe.apply_fast(actor, policy(probe, actor, rng))
                moves += 1
            cost["policy move"].append((time.process_time() - start) / max(moves, 1))
            start, moves, deal = time.process_time(), 0, state.deal_no
            while not state.over and state.deal_no == deal:
                actor = state.to_act()[0]
                state.apply_fast(actor, arsene_ai.playout(state, actor, rng))
                moves += 1
            cost["move"].append((time.process_time() - start) / max(moves, 1))
            if not state.over:
                arsene_ai.future_values.cache_clear()
                start = time.process_time()
                arsene_ai.future_values(arsene_ai.position_key(state))
                cost["cold valuation"].append(time.process_time() - start)
    print(
        "arsene costs, µs mean/max: "
        + ", ".join(f"{k} {1e6 * sum(v) / len(v):.0f}/{1e6 * max(v):.0f}" for k, v in cost.items())
    )
    ratios = []
    for n in (3, 4):
        for k, engine in enumerate(random_positions(ArseneEngine, n, {}, searches * 3, seed=n)):
            seat = engine.to_act()[0]
            if len(engine.legal_actions(seat)) < 2:
                continue
            arsene_ai.future_values.cache_clear()
            clock = arsene_ai.Clock(budget_ms * 1000 * TARGET_SHARE)
            start = time.process_time()
            arsene_ai.choose(engine, seat, "normal", int(budget_ms), random.Random(k), clock)
            ratios.append(1e6 * (time.process_time() - start) / clock.spent())
            if len(ratios) >= searches * (n - 2):
                break
    print(
        f"arsene real/virtual time, cold cache: mean {sum(ratios) / len(ratios):.2f} max {max(ratios):.2f}",
        flush=True,
    )


if __name__ == "__main__":
    main()
