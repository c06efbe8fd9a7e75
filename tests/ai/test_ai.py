"""Computer players: the registry, the search on simultaneous moves, play that follows from the
rules (a decisive Othello move), and the worker pool that keeps thinking off the event loop. How
strong the levels are is measured by benchmarks/ai_strength.py (``--checks`` for the seeded games
that used to be tests here)."""

from __future__ import annotations

import ast
import pathlib
import random
from typing import Any

import pytest

import bot.ai as ai
from bot.ai import pool
from bot.ai.registry import GameAI, engine_class, get
from bot.core.engine import Engine, Event
from cogs.donguri.engine import DonguriEngine
from cogs.othello_torite.engine import OthelloToriteEngine
from cogs.saizen.engine import SaizenEngine
from tests.games.othello_torite.test_othello_torite_engine import BLACK, position
from tests.support.patience import patient

ROOT = pathlib.Path(__file__).resolve().parents[2]



def test_the_platform_finds_game_hooks_without_importing_any_game():
    for path in (ROOT / "bot" / "ai").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom | ast.Import):
                names = [node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
                assert not any(name.split(".")[0] == "cogs" for name in names), path
    assert get("donguri").evaluate is not None  # found by importing cogs.donguri.ai lazily
    assert get("no_such_game") == GameAI()
    assert engine_class("saizen") is SaizenEngine


def test_easy_plays_a_uniformly_random_legal_move():
    engine = DonguriEngine(4, 3)
    seat = engine.to_act()[0]
    legal = engine.legal_actions(seat)
    picks = {ai.choose_action(engine, seat, "easy", seed=s) for s in range(60)}
    assert picks == set(legal)
    with pytest.raises(ValueError):
        ai.choose_action(engine, seat, "expert")
    with pytest.raises(ValueError):
        ai.choose_action(engine, (seat + 1) % 4, "easy")


def test_normal_takes_the_move_that_wipes_out_the_opponent():
    """Black to lead: g4 (either suit, the wild d4 anchors it) flips both white discs and White can
    never place again; e3 (blue, anchored by the red e5) flips only e4 and the game goes on."""
    engine, _ = position({"d4": "Bw", "e4": "Wb", "f4": "Wb", "e5": "Br"}, marker=BLACK)
    assert {"place:b:e3", "place:r:g4", "place:b:g4"} <= set(engine.legal_actions(BLACK))
    assert ai.choose_action(engine, BLACK, "normal", seed=1).endswith(":g4")


class SecretNumbers(Engine):
    """Both seats secretly pick 0-2 at once; the higher pick wins. A pick is hidden until both are in."""

    game_id = "secret_numbers_test"

    def setup(self) -> None:
        self.picks: list[int | None] = [None, None]

    def to_act(self) -> list[int]:
        return [s for s in (0, 1) if self.picks[s] is None]

    def legal_actions(self, seat: int) -> list[str]:
        return [f"pick:{k}" for k in range(3)] if self.picks[seat] is None else []

    def _apply(self, seat: int, action: str) -> list[Event]:
        self.picks[seat] = int(action[5:])
        return []

    def observation(self, seat: int) -> dict[str, Any]:
        done = None not in self.picks
        return {"mine": self.picks[seat], "picked": [p is not None for p in self.picks], "all": self.picks if done else None}

    def public_view(self) -> dict[str, Any]:
        return {"picked": [p is not None for p in self.picks]}

    def is_terminal(self) -> bool:
        return None not in self.picks

    def results(self) -> dict[str, Any]:
        a, b = self.picks
        return {"ranks": [1, 1] if a == b else ([1, 2] if a > b else [2, 1])}

    def hidden_from(self, seat: int | None) -> set[str]:
        return set()

    def determinize(self, seat: int, rng: random.Random) -> Engine:
        other = self.clone()
        if self.picks[1 - seat] is not None:  # made but unseen: any pick is consistent
            other.picks[1 - seat] = rng.randrange(3)
        return other


def test_the_search_handles_seats_choosing_at_the_same_time():
    engine = SecretNumbers(2, 0)
    assert engine.to_act() == [0, 1]
    assert ai.choose_action(engine, 0, "normal", budget_ms=10, seed=3) == "pick:2"
    assert ai.choose_action(engine, 1, "normal", budget_ms=10, seed=4) == "pick:2"
    engine.apply(0, "pick:0")  # seat 1 cannot see it: the hidden pick must not make it greedy-safe
    twin = engine.determinize(1, random.Random(1))
    assert ai.choose_action(engine, 1, "normal", budget_ms=10, seed=5) == "pick:2"
    assert ai.choose_action(twin, 1, "normal", budget_ms=10, seed=5) == "pick:2"


async def test_the_pool_thinks_in_another_process_and_agrees_with_choose_action():
    engine = OthelloToriteEngine(2, 9)
    rng = random.Random(2)
    for _ in range(10):
        seat = engine.to_act()[0]
        engine.apply(seat, rng.choice(engine.legal_actions(seat)))
    seat = engine.to_act()[0]
    pool.configure(1)
    try:
        for level in ("easy", "normal"):
            chosen = await pool.think("othello_torite", 2, {}, 9, engine.history, seat, level, move_seed=77)
            assert chosen == ai.choose_action(engine, seat, level, seed=77)
    finally:
        pool.shutdown()
        pool.configure(None)


KILLED_BOT = """
import asyncio, os, sys
from bot.ai import pool
from cogs.othello_torite.engine import OthelloToriteEngine

async def main():
    engine = OthelloToriteEngine(2, 9)
    await pool.think("othello_torite", 2, {}, 9, [], engine.to_act()[0], "normal", 1)
    print(*pool.worker_pids(), flush=True)
    os._exit(0)  # dies like a killed bot: no shutdown, no exit handlers

asyncio.run(main())
"""


def test_search_workers_die_with_the_bot_and_do_not_hold_its_output():
    """A bot killed mid-game leaves no worker behind, and whoever reads its stderr sees it end."""
    import subprocess
    import sys
    import time

    bot = subprocess.Popen(
        [sys.executable, "-c", KILLED_BOT], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    out, err = bot.communicate(timeout=60)  # returns only once every holder of the pipes is gone
    pids = [int(p) for p in out.split()]
    assert pids, err
    deadline = time.monotonic() + 10
    alive = pids
    while alive and time.monotonic() < deadline:
        time.sleep(0.1)
        alive = [p for p in pids if _running(p)]
    assert not alive


def _running(pid: int) -> bool:
    import os

    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"  # a zombie has ended
    except FileNotFoundError:
        return False


async def test_shutdown_ends_a_worker_in_the_middle_of_a_search():
    import asyncio
    import time

    engine = OthelloToriteEngine(2, 9)
    pool.configure(1)
    try:
        thinking = asyncio.ensure_future(
            pool.think("othello_torite", 2, {}, 9, [], engine.to_act()[0], "hard", 1)
        )
        while not pool.worker_pids():
            await asyncio.sleep(0.05)
        pids = pool.worker_pids()
        start = time.monotonic()
        pool.shutdown()
        assert time.monotonic() - start < patient(5)
        assert not any(_running(p) for p in pids)
        thinking.cancel()
    finally:
        pool.shutdown()
        pool.configure(None)


def test_the_dealers_exact_fallback_counts_against_the_budget(monkeypatch):
    """A determinization that falls back to the exact dealer costs milliseconds; a search charges
    it, so a decision keeps to its budget however often the fallback runs."""
    from bot.ai import deal
    from bot.ai.search import Search
    from tests.support.engines import random_positions

    monkeypatch.setattr(deal, "ATTEMPTS", 0)  # every constrained deal goes the exact way
    hooks = get("donguri")
    for engine in random_positions(DonguriEngine, 4, {}, 40, seed=5):
        seat = engine.to_act()[0]
        search = Search(engine, seat, hooks, random.Random(1), budget_us=30_000)
        search.run()
        if search.dealt:
            break
    else:
        pytest.fail("no position with a known void met")
    assert search.spent() >= 30_000
    free = Search(engine, seat, hooks, random.Random(1), budget_us=30_000)
    monkeypatch.setattr(deal, "GROUP_US", 0.0)
    free.run()
    assert free.iterations > search.iterations  # the charge bought fewer iterations
