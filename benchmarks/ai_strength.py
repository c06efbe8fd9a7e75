"""How strong the computer levels are: every game and player count, seats rotated.

Usage: python benchmarks/ai_strength.py [--games N] [--row-seconds S] [--only donguri:4,saizen]
       [--pairings normal-random,hard-normal,hard-random,normal-closed,oracle-random] [--seed S]
       python benchmarks/ai_strength.py --checks

In a row, one seat (the subject; in team games its whole team) plays the first level and every
other seat the second; the subject's seat rotates from game to game. Per row: mean rank with a
95% confidence interval, first-place rate (a first place shared by k seats counts 1/k), and the
subject's CPU ms per decision (mean and max, over decisions with more than one legal move).
Each row runs ``--games`` games (default 200) unless ``--row-seconds`` of CPU run out first; the
output then says how many it ran. ``closed`` is a random player that never shows its hand: no
``show``, no ``reveal`` and no free question (Final Quest's goal is set against it); elsewhere it
is plain random. ``oracle`` is ``hard`` searching the true deal instead of determinizations of it
(later deals stay unknown): no fair player can reach it, so it bounds what reading this deal's
hidden cards is worth, and it is never a level a table can use. ``hard-normal`` is met when ``hard`` takes more than its share of first places. Engines without search support (no ``determinize`` and no
custom player) are skipped.

``--checks`` runs instead the few seeded games that were once unit tests (who wins is a matter of
strength, not of behaviour, so it is measured here): a ``normal`` Donguri or Saizen seat against
random seats, and a ``normal`` Final Quest team against ``easy`` seats. It exits 1 if one fails.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import pathlib
import random
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bot.ai import choose_action, get, searches  # noqa: E402
from bot.core.engine import Engine  # noqa: E402
from cogs.donguri.engine import DonguriEngine  # noqa: E402
from cogs.final_quest.engine import FinalQuestEngine  # noqa: E402
from cogs.saizen.engine import SaizenEngine  # noqa: E402
from tests.support.engines import engine_classes  # noqa: E402

LEVEL_NAMES = {
    "random": "easy", "closed": "easy", "easy": "easy", "normal": "normal", "hard": "hard", "oracle": "hard",
}
GOALS = {
    ("final_quest", 4, "normal-closed"): 0.95,
    ("donguri", 4, "normal-random"): 0.70,
    ("saizen", 4, "normal-random"): 0.85,
    ("othello_torite", 2, "normal-random"): 0.95,
    ("arsene", 4, "normal-random"): 0.55,
    ("donguri", 4, "hard-random"): 0.85,
    ("saizen", 4, "hard-random"): 0.95,
    ("arsene", 4, "hard-random"): 0.70,
    ("arsene", 3, "hard-random"): 0.85,
}


def play(cls: type[Engine], n: int, game: int, seed: int, subject: str, other: str) -> tuple[float, float, list[float]]:
    """One game: (subject's rank, its first-place share, its CPU ms per searched decision)."""
    engine = cls(n, seed * 100_000 + game, {})
    seat = game % n
    team = next((t for t in cls.teams(n) or [] if seat in t), [seat])
    times: list[float] = []
    while not engine.is_terminal():
        actor = engine.to_act()[0]
        level = subject if actor in team else other
        move_seed = (engine.seed * 7919 + len(engine.history)) * 31 + actor
        many = len(engine.legal_actions(actor)) > 1
        start = time.process_time()
        if level == "closed":
            action = closed_move(engine, actor, move_seed)
        else:
            with seeing_every_hand(cls) if level == "oracle" else contextlib.nullcontext():
                action = choose_action(engine, actor, LEVEL_NAMES[level], seed=move_seed)
        if actor in team and many:
            times.append(1000 * (time.process_time() - start))
        engine.apply(actor, action)
    ranks = engine.results()["ranks"]
    rank = ranks[seat]
    sides = cls.teams(n) or [[s] for s in range(n)]  # partners share one first place
    first = 1 / sum(ranks[side[0]] == 1 for side in sides) if rank == 1 else 0.0
    return rank, first, times


@contextlib.contextmanager
def seeing_every_hand(cls: type[Engine]):
    """``oracle``: while it chooses, a determinization is the true state with a fresh generator for
    later deals."""
    fair = cls.determinize

    def true_state(self: Engine, seat: int, rng: random.Random) -> Engine:
        state = self.clone()
        state.rng = random.Random(rng.getrandbits(64))
        return state

    cls.determinize = true_state
    try:
        yield
    finally:
        cls.determinize = fair


def closed_move(engine: Engine, seat: int, seed: int) -> str:
    """A random legal move that shows nothing of the hand and asks no free question."""
    legal = engine.legal_actions(seat)
    quiet = [a for a in legal if not a.startswith(("show:", "reveal", "ask:"))] or legal
    return random.Random(seed).choice(quiet)


def row(cls, n, pairing, games, row_seconds, seed) -> None:
    subject, other = pairing.split("-")
    ranks, firsts, times = [], [], []
    start = time.process_time()
    for game in range(games):
        rank, first, spent = play(cls, n, game, seed, subject, other)
        ranks.append(rank)
        firsts.append(first)
        times += spent
        if time.process_time() - start > row_seconds:
            break
    played = len(ranks)
    mean = sum(ranks) / played
    sd = math.sqrt(sum((r - mean) ** 2 for r in ranks) / (played - 1)) if played > 1 else 0.0
    ci = 1.96 * sd / math.sqrt(played) if played > 1 else float("nan")
    first_rate = sum(firsts) / played
    ms_mean = sum(times) / len(times) if times else 0.0
    ms_max = max(times) if times else 0.0
    goal = GOALS.get((cls.game_id, n, pairing))
    if goal is None and pairing == "hard-normal":
        goal = 1 / len(cls.teams(n) or range(n))  # its fair share of first places
    verdict = "" if goal is None else f"  goal {goal:.2f} {'met' if first_rate >= goal else 'NOT MET'}"
    note = "" if played == games else f"  (ran {played} of {games}: CPU limit)"
    print(
        f"{cls.game_id:<15}{n:>3}p  {pairing:<14}{played:>5}  {mean:5.2f} ± {ci:4.2f}  {first_rate:6.2f}"
        f"  {ms_mean:7.1f} {ms_max:7.1f}{verdict}{note}",
        flush=True,
    )


def against_random(engine: Engine, me: int, rng: random.Random) -> tuple[float, bool]:
    """Play ``engine`` out, ``me`` at ``normal`` (20 ms budget) and every other seat at random:
    (my score less the table's average, whether I ranked first)."""
    while not engine.is_terminal():
        seat = engine.to_act()[0]
        if seat == me:
            action = choose_action(engine, seat, "normal", budget_ms=20, seed=len(engine.history))
        else:
            action = rng.choice(engine.legal_actions(seat))
        engine.apply(seat, action)
    scores = engine.results()["scores"]
    return scores[me] - sum(scores) / len(scores), engine.results()["ranks"][me] == 1


def checks() -> bool:
    ok = True

    def report(name: str, passed: bool, detail: object) -> None:
        nonlocal ok
        ok &= passed
        print(f"{'ok  ' if passed else 'FAIL'}  {name}: {detail}", flush=True)

    # Short 4-player Donguri games, the computer's seat rotating: it ends with the fewest penalty
    # points in most games, and well below the table's average (a random seat expects as many as any).
    games = [against_random(DonguriEngine(4, 40 + g, {"length": "short"}), g % 4, random.Random(g)) for g in range(6)]
    margins, firsts = [m for m, _ in games], sum(f for _, f in games)
    report("normal Donguri seat beats random seats", firsts >= 3 and sum(margins) < -40, (firsts, margins))
    games = [against_random(SaizenEngine(3, 60 + g), g % 3, random.Random(g)) for g in range(3)]
    margins, firsts = [m for m, _ in games], sum(f for _, f in games)
    report("normal Saizen seat beats random seats", firsts >= 2 and sum(margins) > 6, (firsts, margins))
    # Against seats that never reveal or show (they ask random structured questions and call the
    # Final Quest only when certain: the ``easy`` level), the ``normal`` team wins.
    wins = 0
    for game in range(6):
        engine, team = FinalQuestEngine(4, 900 + game, {}), game % 2
        while not engine.is_terminal():
            seat = engine.to_act()[0]
            level = "normal" if seat % 2 == team else "easy"
            engine.apply(seat, choose_action(engine, seat, level, seed=len(engine.history)))
        wins += engine.results()["winner_team"] == team
    report("normal Final Quest team beats easy seats", wins >= 5, f"{wins} of 6")
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--row-seconds", type=float, default=float("inf"), help="CPU seconds per row")
    parser.add_argument("--only", default="", help="game or game:players, comma-separated")
    parser.add_argument("--pairings", default="normal-random,hard-normal,hard-random")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--checks", action="store_true", help="only the seeded strength checks; exit 1 on a failure")
    args = parser.parse_args()
    if args.checks:
        sys.exit(0 if checks() else 1)
    wanted = [item.split(":") for item in filter(None, args.only.split(","))]
    print(f"{'game':<15}{'n':>3}   {'pairing':<14}{'games':>5}  {'mean rank':>11}  {'first':>6}  {'ms mean':>7} {'ms max':>7}")
    for cls in engine_classes():
        probe = cls(cls.min_players, 0, {})
        if not searches(probe) and get(cls.game_id).player is None:
            print(f"{cls.game_id:<15}  skipped: no search support yet")
            continue
        for n in range(cls.min_players, cls.max_players + 1):
            if wanted and not any(w[0] == cls.game_id and (len(w) == 1 or int(w[1]) == n) for w in wanted):
                continue
            for pairing in args.pairings.split(","):
                row(cls, n, pairing, args.games, args.row_seconds, args.seed)


if __name__ == "__main__":
    main()
