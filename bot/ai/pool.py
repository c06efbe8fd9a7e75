"""Computer players think in worker processes, so the event loop keeps answering other tables.

``think`` sends only the stored game (num_players, options, seed, action log) to a worker, which
rebuilds the engine by replay and runs ``choose_action``: nothing but plain data crosses the process
boundary, and the pool uses the "spawn" start method so workers never inherit the bot's state
(sockets, the database, the event loop). The pool is bounded: by default one worker per core less
one, at least one (1 on the 2-core reference machine); ``configure(workers)`` changes it.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

_executor: ProcessPoolExecutor | None = None
_workers: int | None = None


def default_workers() -> int:
    return max(1, (os.cpu_count() or 2) - 1)


def configure(workers: int | None = None) -> None:
    """Set the number of worker processes (None: the default); takes effect for the next pool."""
    global _workers
    if workers is not None and workers < 1:
        raise ValueError("at least one worker")
    _workers = workers


def _pool() -> ProcessPoolExecutor:
    global _executor
    if _executor is None:
        _executor = ProcessPoolExecutor(
            max_workers=_workers or default_workers(), mp_context=multiprocessing.get_context("spawn")
        )
    return _executor


def choose_in_worker(
    game_id: str,
    num_players: int,
    options: dict[str, Any],
    seed: int,
    log: list[tuple[int, str]],
    seat: int,
    level: str,
    move_seed: int,
) -> str:
    """Runs in the worker: rebuild the game by replay and choose."""
    from bot.ai import choose_action
    from bot.ai.registry import engine_class

    engine = engine_class(game_id).replay(num_players, seed, options, log)
    return choose_action(engine, seat, level, seed=move_seed)


async def think(
    game_id: str,
    num_players: int,
    options: dict[str, Any],
    seed: int,
    log: Iterable[tuple[int, str]],
    seat: int,
    level: str,
    move_seed: int,
) -> str:
    """The move a computer of ``level`` makes for ``seat`` in the stored game, chosen off the loop."""
    global _executor
    loop = asyncio.get_running_loop()
    args = (game_id, num_players, dict(options), seed, [(int(s), str(a)) for s, a in log], seat, level, move_seed)
    try:
        return await loop.run_in_executor(_pool(), choose_in_worker, *args)
    except BrokenProcessPool:  # a worker died (killed, out of memory): start a fresh pool, once
        _executor = None
        return await loop.run_in_executor(_pool(), choose_in_worker, *args)


def shutdown() -> None:
    """Stop the workers (at bot shutdown); a later ``think`` starts a new pool."""
    global _executor
    if _executor is not None:
        _executor.shutdown(wait=True, cancel_futures=True)
        _executor = None
