"""Every registered engine obeys the shared contract over many seeded random playthroughs."""

from __future__ import annotations

import ast
import importlib
import json
import pathlib
import random

import pytest

from bot.core.engine import Engine, IllegalAction

ROOT = pathlib.Path(__file__).resolve().parents[2]
ENGINE_FILES = sorted((ROOT / "cogs").glob("*/engine.py"))
GAMES_PER_CONFIG = 12
MAX_STEPS = 20_000


def engine_classes() -> list[type[Engine]]:
    found = []
    for path in ENGINE_FILES:
        module = importlib.import_module(f"cogs.{path.parent.name}.engine")
        for obj in vars(module).values():
            if isinstance(obj, type) and issubclass(obj, Engine) and obj is not Engine and obj.game_id:
                if obj.__module__ == module.__name__:
                    found.append(obj)
    return found


def string_leaves(value) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(string_leaves(v) for v in value.values())) | {
            k for k in value if isinstance(k, str)
        }
    if isinstance(value, (list, tuple)):
        return set().union(*(string_leaves(v) for v in value)) if value else set()
    return set()


CASES = [
    pytest.param(cls, n, opts, id=f"{cls.game_id}-{n}p-{json.dumps(opts, sort_keys=True)}")
    for cls in engine_classes()
    for n, opts in cls.sample_configs()
]


def test_every_game_package_has_an_engine():
    assert len(engine_classes()) == len(ENGINE_FILES)


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda p: p.parent.name)
def test_engines_are_pure(path):
    """Engines import no discord, database, clock or global random."""
    tree = ast.parse(path.read_text())
    banned = {"discord", "aiosqlite", "sqlite3", "time", "datetime", "asyncio"}
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name.split(".")[0] for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module.split(".")[0]]
        assert not banned & set(names), f"{path} imports {banned & set(names)}"
    source = path.read_text()
    assert "random.random(" not in source and "random.shuffle(" not in source
    assert "random.choice(" not in source and "random.randint(" not in source


@pytest.mark.parametrize("cls,n,opts", CASES)
def test_random_playthroughs(cls, n, opts):
    for game in range(GAMES_PER_CONFIG):
        seed = 1000 * game + n
        chooser = random.Random(seed)
        engine = cls(n, seed, opts)
        for _step in range(MAX_STEPS):
            check_information(engine)
            if engine.is_terminal():
                break
            seats = engine.to_act()
            assert seats, "no seat to act before the end"
            seat = chooser.choice(seats)
            legal = engine.legal_actions(seat)
            assert legal, f"seat {seat} to act with no legal action"
            assert all(isinstance(a, str) and len(a) <= 60 for a in legal)
            idle = [s for s in range(n) if s not in seats]
            if idle:
                before = json.dumps(engine.public_view(), sort_keys=True)
                with pytest.raises(IllegalAction):
                    engine.apply(idle[0], legal[0])
                assert json.dumps(engine.public_view(), sort_keys=True) == before
            engine.apply(seat, chooser.choice(legal))
        else:
            pytest.fail("game did not end")
        results = engine.results()
        assert len(results["ranks"]) == n and min(results["ranks"]) == 1
        json.dumps(results)
        replayed = cls.replay(n, seed, opts, engine.history)
        for s in range(n):
            assert replayed.observation(s) == engine.observation(s)
        assert replayed.public_view() == engine.public_view()
        assert replayed.results() == results


def check_information(engine: Engine) -> None:
    public = engine.public_view()
    json.dumps(public)
    leaked = string_leaves(public) & engine.hidden_from(None)
    assert not leaked, f"public view shows hidden {leaked}"
    for seat in range(engine.num_players):
        obs = engine.observation(seat)
        json.dumps(obs)
        leaked = string_leaves(obs) & engine.hidden_from(seat)
        assert not leaked, f"seat {seat} sees hidden {leaked}"
