"""Per-game hooks for computer players, kept out of the platform so ``bot`` imports no game.

A game that wants more than the generic search writes ``cogs/<game>/ai.py`` and calls ``register``
at import time. ``get`` imports that module lazily (a game without one gets the plain search), so
the bot never imports a cog statically and a worker process finds the hooks on its own.
"""

from __future__ import annotations

import importlib
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from bot.core.engine import Engine

E = TypeVar("E", bound=Engine)



def share_ahead(points: Sequence[float], seat: int, scale: float, *, lower_wins: bool) -> float:
    """Expected share of the other seats ``seat`` will finish ahead of, from the gaps in ``points``
    so far: a logistic curve (close to the normal CDF) as wide as ``scale``, the spread of what is
    still to come. For an ``evaluate`` hook."""
    mine = points[seat]
    sign = 1.0 if lower_wins else -1.0
    total = 0.0
    for other, theirs in enumerate(points):
        if other != seat:
            total += 1.0 / (1.0 + math.exp(sign * (mine - theirs) / scale))
    return total / (len(points) - 1)


@dataclass
class GameAI(Generic[E]):
    """What a game adds to the generic search, for its engine class ``E``; every field is optional.

    - ``evaluate(engine, seat) -> value in [0, 1]``: how good the state is for ``seat`` (1 = sure
      first place). When given, playouts stop at the end of the deal the search started in
      (``engine.deal_number`` changes) and this value stands for the rest of the game.
    - ``playout(engine, seat, rng) -> action``: the move of ``seat`` (one of ``engine.to_act()``) in
      a playout; default: a uniformly random legal action.
    - ``player(view, seat, level, budget_ms, rng) -> action``: a complete player that replaces the
      generic search at every level. ``view`` is a determinization for ``seat``
      (``engine.determinize(seat, rng)``), never the real game: it agrees with everything ``seat``
      has seen, and the player may determinize it again.
    - ``move_us`` and ``iteration_us``: CPU microseconds one simulated move, and the fixed part of
      one search iteration (a determinization, a new node, an evaluation), take on the reference
      machine. The search charges these instead of reading a clock, so its choices stay
      deterministic while keeping to the CPU budget.
    """

    evaluate: Callable[[E, int], float] | None = None
    playout: Callable[[E, int, random.Random], str] | None = None
    player: Callable[[E, int, str, int, random.Random], str] | None = None
    move_us: float = 30.0
    iteration_us: float = 150.0


# One entry per game, each for its own engine class: the platform hands a game's hooks only that
# game's engines, which no static type can say of a table looked up by id.
_REGISTRY: dict[str, GameAI[Any]] = {}
_LOOKED_UP: set[str] = set()


def register(game_id: str, ai: GameAI[Any]) -> None:
    _REGISTRY[game_id] = ai


def get(game_id: str) -> GameAI[Any]:
    """The game's hooks, importing ``cogs.<game_id>.ai`` the first time; a default when it has none."""
    if game_id not in _REGISTRY and game_id not in _LOOKED_UP:
        _LOOKED_UP.add(game_id)
        try:
            importlib.import_module(f"cogs.{game_id}.ai")
        except ModuleNotFoundError as exc:
            if exc.name != f"cogs.{game_id}.ai" and exc.name != f"cogs.{game_id}":
                raise
    return _REGISTRY.get(game_id) or GameAI()


def engine_class(game_id: str) -> type[Engine]:
    """The engine class of ``game_id``, from ``cogs.<game_id>.engine`` (for worker processes)."""
    module = importlib.import_module(f"cogs.{game_id}.engine")
    for obj in vars(module).values():
        if isinstance(obj, type) and issubclass(obj, Engine) and getattr(obj, "game_id", "") == game_id:
            return obj
    raise LookupError(game_id)
