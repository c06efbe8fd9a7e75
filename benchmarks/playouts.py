"""Random playouts per second for every game and player count, contract path against search path.

Usage: python benchmarks/playouts.py [--seconds S] [--seed N] [--games g1,g2]

From the same positions (taken uniformly over random games: a search runs at every stage of a game)
and with the same random moves, side by side:
- "contract": what the platform can do with the engine contract alone: rebuild the position by
  replaying its log, then play with ``legal_actions`` + ``apply`` (which validates every move);
- "search": what computer players do: ``clone()`` the position, then ``legal_actions`` +
  ``apply_fast`` (no validation).
Goal: the search path at least 2x the contract path for every game. Engines without
``determinize`` (no search support yet) are skipped.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bot.ai import searches  # noqa: E402
from bot.core.engine import Engine  # noqa: E402
from tests.support.engines import engine_classes  # noqa: E402

GOAL = 2.0


def playout(engine: Engine, rng: random.Random, fast: bool) -> int:
    moves = 0
    while not engine.is_terminal():
        seat = engine.to_act()[0]
        action = rng.choice(engine.legal_actions(seat))
        if fast:
            engine.apply_fast(seat, action)
        else:
            engine.apply(seat, action)
        moves += 1
    return moves


def positions(cls: type[Engine], n: int, count: int, seed: int) -> list[Engine]:
    """Positions at a uniformly random move of random games."""
    rng = random.Random(seed)
    out = []
    for game in range(count):
        engine = cls(n, seed * 1000 + game, {})
        playout(engine, rng, fast=False)
        cut = rng.randrange(len(engine.history))
        out.append(cls.replay(n, engine.seed, engine.options, engine.history[:cut]))
    return out


def measure(cls: type[Engine], n: int, seconds: float, seed: int) -> tuple[float, float, float]:
    """(contract playouts/s, search playouts/s, moves per playout), interleaved over one run."""
    starts = positions(cls, n, 60, seed)
    spent = [0.0, 0.0]
    done = [0, 0]
    moves = 0
    k = 0
    while min(spent) < seconds / 2:
        position = starts[k % len(starts)]
        k += 1
        start = time.process_time()
        engine = cls.replay(n, position.seed, position.options, position.history)
        moves += playout(engine, random.Random(k), fast=False)
        spent[0] += time.process_time() - start
        done[0] += 1
        start = time.process_time()
        playout(position.clone(), random.Random(k), fast=True)
        spent[1] += time.process_time() - start
        done[1] += 1
    return done[0] / spent[0], done[1] / spent[1], moves / done[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per row (both paths)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", default="", help="comma-separated game ids (default: all)")
    args = parser.parse_args()
    wanted = set(filter(None, args.games.split(",")))
    print(f"{'game':<16}{'players':>8}{'moves':>8}{'contract/s':>12}{'search/s':>10}{'ratio':>7}  goal {GOAL}x")
    for cls in engine_classes():
        if wanted and cls.game_id not in wanted:
            continue
        if not searches(cls(cls.min_players, 0, {})):
            print(f"{cls.game_id:<16}  skipped: no determinize yet")
            continue
        for n in range(cls.min_players, cls.max_players + 1):
            contract, search, moves = measure(cls, n, args.seconds, args.seed)
            ratio = search / contract
            flag = "" if ratio >= GOAL else "  BELOW GOAL"
            print(f"{cls.game_id:<16}{n:>8}{moves:>8.0f}{contract:>12.1f}{search:>10.1f}{ratio:>6.1f}x{flag}")


if __name__ == "__main__":
    main()
