"""Computer players think in worker processes, so the event loop keeps answering other tables.

``think`` sends only the stored game (num_players, options, seed, action log) to a worker, which
rebuilds the engine by replay and runs ``choose_action``: nothing but plain data crosses the process
boundary, and the pool uses the "spawn" start method so workers never inherit the bot's state
(sockets, the database, the event loop). The pool is bounded: by default one worker per core less
one, at least one (1 on the 2-core reference machine); ``configure(workers)`` changes it.

Workers never outlive the bot: they are daemonic (ended when the bot exits normally), ``shutdown``
terminates them rather than waiting for a search, and each one watches its parent and exits when
the bot dies any other way (killed). They also let go of the bot's stdout and stderr at once, so a
process waiting on the bot's output (a supervisor, a test) is never held open by a worker; their
errors come back to the bot with the result.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import threading
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.context import SpawnContext, SpawnProcess
from typing import Any

_executor: ProcessPoolExecutor | None = None
_workers: int | None = None
#: How often a worker checks that the bot is still alive, in seconds.
WATCH_EVERY = 0.5


class _DaemonProcess(SpawnProcess):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.daemon = True


class _DaemonContext(SpawnContext):
    Process = _DaemonProcess


def _start_worker(parent: int) -> None:
    """In each worker, first: drop the bot's stdout/stderr, and die with the bot."""
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (1, 2):
        os.dup2(devnull, fd)
    os.close(devnull)
    sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the worker
    if sys.platform == "linux":  # the kernel signals us when the bot dies (no polling delay)
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    threading.Thread(target=_watch, args=(parent,), daemon=True).start()


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_EVERY)
    os._exit(0)


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
            max_workers=_workers or default_workers(),
            mp_context=_DaemonContext(),
            initializer=_start_worker,
            initargs=(os.getpid(),),
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


def worker_pids() -> list[int]:
    """The live workers' process ids (for tests and diagnostics)."""
    processes = getattr(_executor, "_processes", None) or {}
    return [p.pid for p in processes.values() if p.is_alive()]


def shutdown() -> None:
    """Stop the workers now (at bot shutdown), even mid-search; a later ``think`` starts a new pool."""
    global _executor
    executor, _executor = _executor, None
    if executor is None:
        return
    processes = list((getattr(executor, "_processes", None) or {}).values())
    for process in processes:  # a search may run for a second: do not wait for it
        process.terminate()
    executor.shutdown(wait=True, cancel_futures=True)
    for process in processes:
        process.join(timeout=5)
