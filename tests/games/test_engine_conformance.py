"""Every registered engine obeys the shared contract over many seeded random playthroughs.

Every step of every playthrough is checked (views serialisable and hiding what they must, an idle
seat refused without a trace, legal actions well formed), and every game is replayed from its log at
the end. The first ``SAMPLE_GAMES`` games of each configuration run in the fast lane; the rest are
marked ``slow`` and run in the full suite (see docs/testing.md)."""

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
SAMPLE_GAMES = 2
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


GAMES = [
    pytest.param(range(SAMPLE_GAMES), id="sample"),
    pytest.param(range(SAMPLE_GAMES, GAMES_PER_CONFIG), id="rest", marks=pytest.mark.slow),
]


@pytest.mark.parametrize("games", GAMES)
@pytest.mark.parametrize("cls,n,opts", CASES)
def test_random_playthroughs(cls, n, opts, games):
    for game in games:
        seed = 1000 * game + n
        chooser = random.Random(seed)
        engine = cls(n, seed, opts)
        for _step in range(MAX_STEPS):
            public = check_information(engine)
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
                with pytest.raises(IllegalAction):
                    engine.apply(idle[0], legal[0])
                assert json.dumps(engine.public_view(), sort_keys=True) == public
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


def check_information(engine: Engine) -> str:
    """Every view is JSON and shows no card hidden from its viewer; returns the public view's JSON.

    A string anywhere in a view (a value, an item or a key) is written in its JSON as the string's
    own JSON, so looking for each hidden card's JSON in the text finds every leak a walk of the view
    would, and more cheaply.
    """
    public = json.dumps(engine.public_view(), sort_keys=True)
    leaked = leaks(public, engine.hidden_from(None))
    assert not leaked, f"public view shows hidden {leaked}"
    for seat in range(engine.num_players):
        obs = json.dumps(engine.observation(seat), sort_keys=True)
        leaked = leaks(obs, engine.hidden_from(seat))
        assert not leaked, f"seat {seat} sees hidden {leaked}"
    return public


def leaks(view_json: str, hidden: set[str]) -> set[str]:
    return {code for code in hidden if json.dumps(code) in view_json}
