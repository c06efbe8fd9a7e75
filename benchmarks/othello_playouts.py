"""Random full-game playouts per second for the Othello de Torite engine (a benchmark, not a test).

Usage: python benchmarks/othello_playouts.py [--games N] [--seed S]

Three measurements:
- "api": what the platform does, ``legal_actions`` strings + ``apply`` (validates every action).
- "fast": what a computer player searching positions would do: ``clone()`` a position, pick from the
  ``legal_moves()`` bitboards and call ``place()`` directly (no string round trip, no validation).
- "movegen": bare legal-move generations per second (both suits) on positions from real games.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from cogs.othello_torite.engine import BLUE, RED, OthelloToriteEngine  # noqa: E402
from cogs.othello_torite.rules_board import square_bits  # noqa: E402


def playout_api(seed: int, rng: random.Random) -> OthelloToriteEngine:
    engine = OthelloToriteEngine(2, seed)
    while not engine.is_terminal():
        seat = engine.to_act()[0]
        engine.apply(seat, rng.choice(engine.legal_actions(seat)))
    return engine


def playout_fast(start: OthelloToriteEngine, rng: random.Random) -> OthelloToriteEngine:
    engine = start.clone()
    while engine.turn is not None:
        red, blue = engine.legal_moves()
        options = [(RED, sq) for sq in square_bits(red)] + [(BLUE, sq) for sq in square_bits(blue)]
        suit, sq = rng.choice(options)
        engine.place(engine.turn, suit, sq)
    return engine


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    t0 = time.perf_counter()
    outcomes = [0, 0, 0]
    for g in range(args.games):
        res = playout_api(g, rng).results()
        outcomes[2 if res["winner"] is None else res["winner"]] += 1
    api = time.perf_counter() - t0

    start = OthelloToriteEngine(2, 0)
    t0 = time.perf_counter()
    for _ in range(args.games):
        playout_fast(start, rng)
    fast = time.perf_counter() - t0

    positions = []
    for g in range(50):
        engine = OthelloToriteEngine(2, g)
        while engine.turn is not None:
            positions.append((engine.turn, engine.clone()))
            red, blue = engine.legal_moves()
            suit = RED if red and (not blue or rng.random() < 0.5) else BLUE
            engine.place(engine.turn, suit, rng.choice(square_bits(red if suit == RED else blue)))
    t0 = time.perf_counter()
    for seat, pos in positions:
        pos.placements(seat, RED)
        pos.placements(seat, BLUE)
    gen = time.perf_counter() - t0

    print(f"games: {args.games}  (black wins {outcomes[0]}, white wins {outcomes[1]}, draws {outcomes[2]})")
    print(f"api  playouts/s: {args.games / api:9.1f}   ({1000 * api / args.games:.2f} ms per game)")
    print(f"fast playouts/s: {args.games / fast:9.1f}   ({1000 * fast / args.games:.2f} ms per game)")
    print(f"move generations/s (one suit): {2 * len(positions) / gen:,.0f}")


if __name__ == "__main__":
    main()
