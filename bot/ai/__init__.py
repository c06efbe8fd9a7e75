"""Computer players: ``choose_action`` is the one entry point, for the tables and for benchmarks.

Levels: ``easy`` plays a uniformly random legal move; ``normal`` and ``hard`` search (see
``bot.ai.search``) with about 100 ms and 1 s of CPU per move on the reference 2-core machine.
A player only ever sees ``engine.determinize(seat, rng)`` and the seat's own legal moves, never the
real hidden state: ``choose_action`` hands a game's player and the search that copy, not the game
(its seed and log are the copy's own too, so replaying them leads nowhere near the real deal). The
same seed gives the same move on any machine and under any load: the
budget is a number of steps, counted on a virtual clock calibrated per game (``GameAI.move_us``,
``iteration_us``; ``benchmarks/ai_calibration.py`` fits them). No clock is read while choosing.
"""

from __future__ import annotations

import random

from bot.ai.registry import GameAI, get, register
from bot.ai.search import Search, rank_values
from bot.core.engine import Engine

LEVELS = ("easy", "normal", "hard")
BUDGET_MS = {"easy": 0, "normal": 100, "hard": 1000}
#: Share of the CPU budget the virtual clock aims at; the rest is headroom for a slower machine.
TARGET_SHARE = 0.5

__all__ = ["LEVELS", "BUDGET_MS", "GameAI", "choose_action", "get", "register", "rank_values", "searches"]


def searches(engine: Engine) -> bool:
    """Whether the engine supports search (it implements ``determinize``)."""
    return type(engine).determinize is not Engine.determinize


def choose_action(
    engine: Engine, seat: int, level: str, budget_ms: int | None = None, seed: int = 0
) -> str:
    """The move a computer of ``level`` makes for ``seat`` (which must be one of ``to_act()``).

    ``budget_ms`` overrides the level's CPU budget; ``seed`` makes the choice reproducible.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}")
    legal = engine.legal_actions(seat)
    if not legal:
        raise ValueError(f"seat {seat} has nothing to play")
    rng = random.Random(seed)
    budget = BUDGET_MS[level] if budget_ms is None else budget_ms
    if not searches(engine):
        return rng.choice(legal)
    ai = get(engine.game_id)
    if ai.player is None and (len(legal) == 1 or level == "easy" or budget <= 0):
        return legal[0] if len(legal) == 1 else rng.choice(legal)
    view = engine.determinize(seat, rng)  # all a computer player is handed of the game
    if ai.player is not None:
        return ai.player(view, seat, level, budget, rng)
    return Search(view, seat, ai, rng, budget * 1000 * TARGET_SHARE).run()
