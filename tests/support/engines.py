"""Every game's engine class and seeded random positions from its games, for engine-wide tests."""

from __future__ import annotations

import importlib
import json
import pathlib
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from bot.core.engine import Engine, IllegalAction

ROOT = pathlib.Path(__file__).resolve().parents[2]
ENGINE_FILES = sorted((ROOT / "cogs").glob("*/engine.py"))


def codes(events) -> list[str]:
    """The codes of an engine's events, in order: what most rule tests assert on."""
    return [event.code for event in events]


def refused(engine: Engine, seat: int, action: str) -> IllegalAction:
    """Assert ``action`` is refused for ``seat`` and changes nothing anyone sees; return the refusal."""

    def seen() -> list[str]:
        views = [engine.public_view(), *(engine.observation(s) for s in range(engine.num_players))]
        return [json.dumps(view, sort_keys=True) for view in views]

    before = seen()
    with pytest.raises(IllegalAction) as info:
        engine.apply(seat, action)
    assert seen() == before
    return info.value


def engine_classes() -> list[type[Engine]]:
    found = []
    for path in ENGINE_FILES:
        module = importlib.import_module(f"cogs.{path.parent.name}.engine")
        for obj in vars(module).values():
            if isinstance(obj, type) and issubclass(obj, Engine) and obj is not Engine and obj.game_id:
                if obj.__module__ == module.__name__:
                    found.append(obj)
    return found


def random_positions(
    cls: type[Engine],
    n: int,
    options: dict[str, Any],
    count: int,
    seed: int,
    moves: Callable[[list[str]], list[str]] = list,
) -> Iterator[Engine]:
    """``count`` positions met in random games (not the end), spread over whole games; the random
    players pick among ``moves`` of the legal actions (all of them unless told)."""
    rng = random.Random(seed)
    made, game = 0, 0
    while made < count:
        engine = cls(n, seed * 1000 + game, options)
        game += 1
        keep = rng.random() * 0.25 + 0.02  # share of positions kept, so they spread over the game
        while not engine.is_terminal() and made < count:
            if rng.random() < keep:
                made += 1
                yield engine.replay(n, engine.seed, options, engine.history)
            seat = rng.choice(engine.to_act())
            engine.apply(seat, rng.choice(moves(engine.legal_actions(seat))))


def random_play(engine: Engine, rng: random.Random, steps: int) -> Iterator[Engine]:
    """``engine`` after each of up to ``steps`` random moves, until the game ends."""
    for _ in range(steps):
        if engine.is_terminal():
            return
        seat = rng.choice(engine.to_act())
        engine.apply(seat, rng.choice(engine.legal_actions(seat)))
        yield engine
