"""Every game's engine class and seeded random positions from its games, for engine-wide tests."""

from __future__ import annotations

import importlib
import pathlib
import random
from collections.abc import Iterator
from typing import Any

from bot.core.engine import Engine

ROOT = pathlib.Path(__file__).resolve().parents[2]
ENGINE_FILES = sorted((ROOT / "cogs").glob("*/engine.py"))


def codes(events) -> list[str]:
    """The codes of an engine's events, in order: what most rule tests assert on."""
    return [event.code for event in events]


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
    cls: type[Engine], n: int, options: dict[str, Any], count: int, seed: int
) -> Iterator[Engine]:
    """``count`` positions met in random games (not the end), spread over whole games."""
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
            engine.apply(seat, rng.choice(engine.legal_actions(seat)))
