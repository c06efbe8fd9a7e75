"""The search hooks of every engine (``clone``, ``determinize``, ``apply_fast``) and fair play.

A determinization must look exactly like the real game to the seat it is made for and must depend on
nothing that seat cannot see (``test_ai_no_peeking`` checks it against games built without it, and
that no computer player peeks). Engines that do not implement ``determinize`` yet are skipped.
"""

from __future__ import annotations

import json
import random

import pytest

import bot.ai as ai
from bot.core.engine import Engine
from tests.support.engines import engine_classes, random_positions

POSITIONS = 24


def configs():
    for cls in engine_classes():
        for n, opts in cls.sample_configs():
            yield pytest.param(cls, n, opts, id=f"{cls.game_id}-{n}p-{json.dumps(opts, sort_keys=True)}")


CASES = list(configs())


def needs_search(cls: type[Engine]) -> None:
    if cls.determinize is Engine.determinize:
        pytest.skip(f"{cls.game_id} does not implement determinize yet")


def snapshot(engine: Engine) -> str:
    """Everything every seat sees, and whose turn it is: the whole state as far as play goes."""
    seats = range(engine.num_players)
    return json.dumps(
        [engine.public_view(), [engine.observation(s) for s in seats], [engine.legal_actions(s) for s in seats]],
        sort_keys=True,
    )


def random_line(engine: Engine, rng: random.Random, steps: int) -> list[tuple[int, str]]:
    """Up to ``steps`` random legal moves from ``engine`` (which is left unchanged)."""
    probe, line = engine.clone(), []
    while len(line) < steps and not probe.is_terminal():
        seat = rng.choice(probe.to_act())
        action = rng.choice(probe.legal_actions(seat))
        probe.apply(seat, action)
        line.append((seat, action))
    return line


@pytest.mark.parametrize("cls,n,opts", CASES)
def test_a_determinization_looks_the_same_to_its_seat(cls, n, opts):
    needs_search(cls)
    for k, engine in enumerate(random_positions(cls, n, opts, POSITIONS, seed=n)):
        before = snapshot(engine)
        for seat in range(n):
            other = engine.determinize(seat, random.Random(k))
            assert other.observation(seat) == engine.observation(seat)
            assert other.legal_actions(seat) == engine.legal_actions(seat)
            assert other.to_act() == engine.to_act()
            assert other.public_view() == engine.public_view()
            assert other.history == engine.seen_history(seat)  # the past as the seat saw it
            assert other.seed != engine.seed
        assert snapshot(engine) == before, "determinize changed the real game"


@pytest.mark.parametrize("cls,n,opts", CASES)
def test_a_determinization_is_a_game_that_plays_on_by_the_rules(cls, n, opts):
    """Hands the rules allow: random legal play from it reaches the end, with every move accepted."""
    needs_search(cls)
    rng = random.Random(n)
    for k, engine in enumerate(random_positions(cls, n, opts, 8, seed=100 + n)):
        other = engine.determinize(k % n, random.Random(k))
        for seat, action in random_line(other, rng, 100_000):
            other.apply(seat, action)
        assert other.is_terminal()


@pytest.mark.parametrize("cls,n,opts", CASES)
def test_determinize_reads_nothing_hidden_from_the_seat(cls, n, opts):
    """Two games the seat cannot tell apart (the real one, and a determinization of it) give the
    same determinization for the same generator."""
    needs_search(cls)
    for k, engine in enumerate(random_positions(cls, n, opts, POSITIONS // 2, seed=200 + n)):
        seat = k % n
        twin = engine.determinize(seat, random.Random(10_000 + k))
        assert twin.observation(seat) == engine.observation(seat)
        for draw in range(2):
            a = engine.determinize(seat, random.Random(draw))
            b = twin.determinize(seat, random.Random(draw))
            assert snapshot(a) == snapshot(b)
            assert (a.seed, a.history, a.rng.getstate()) == (b.seed, b.history, b.rng.getstate())


@pytest.mark.parametrize("cls,n,opts", CASES)
def test_a_clone_is_independent(cls, n, opts):
    rng = random.Random(n)
    for engine in random_positions(cls, n, opts, POSITIONS // 4, seed=300 + n):
        before = snapshot(engine)
        copy = engine.clone()
        assert snapshot(copy) == before
        for seat, action in random_line(copy, rng, 60):
            copy.apply(seat, action)
        assert snapshot(engine) == before


@pytest.mark.parametrize("cls,n,opts", CASES)
def test_a_clone_plays_on_exactly_like_its_game(cls, n, opts):
    """A table's move is made on a clone that then replaces the cached game, so a clone must carry
    everything: the same moves give the same events, views, later deals and results."""
    rng = random.Random(n)
    for engine in random_positions(cls, n, opts, POSITIONS // 4, seed=600 + n):
        copy = engine.clone()
        for seat, action in random_line(engine, rng, 100_000):
            assert copy.apply(seat, action) == engine.apply(seat, action)
            assert snapshot(copy) == snapshot(engine)
        assert copy.is_terminal() and copy.results() == engine.results()
        assert copy.history == engine.history


@pytest.mark.parametrize("cls,n,opts", CASES)
def test_apply_fast_reaches_the_same_game_as_apply(cls, n, opts):
    rng = random.Random(n)
    for engine in random_positions(cls, n, opts, POSITIONS // 4, seed=400 + n):
        checked, fast = engine.clone(), engine.clone()
        for seat, action in random_line(engine, rng, 200):
            checked.apply(seat, action)
            fast.apply_fast(seat, action)
            assert fast.public_view() == checked.public_view()
        assert snapshot(fast) == snapshot(checked)
        assert fast.history == checked.history


@pytest.mark.parametrize("cls", engine_classes(), ids=lambda c: c.game_id)
def test_a_computer_reads_no_clock(cls, monkeypatch):
    """Choices follow from the seed and the position alone, so a replay, a slower machine or a busy
    one gets the same move: every level of every game chooses with the clocks taken away."""
    import time

    def no_clock() -> float:
        raise AssertionError("a computer player read the clock")

    for name in ("time", "monotonic", "perf_counter", "process_time", "thread_time"):
        monkeypatch.setattr(time, name, no_clock)
    n, opts = max(cls.sample_configs(), key=lambda config: config[0])
    for k, engine in enumerate(random_positions(cls, n, opts, 3, seed=600)):
        seat = engine.to_act()[0]
        for level in ai.LEVELS:
            assert ai.choose_action(engine, seat, level, budget_ms=15, seed=k) in engine.legal_actions(seat)
