"""Pages drawn beside the game's loop, not on it.

A page's drawing is plain Python (a replay rebuilt, a table's view, a picture encoded) and took
8 to 50 ms of the loop at a time: every step of a move in flight (each database answer, each call
to Discord) waited behind a whole drawing, so 100 pages a second made move answers four times
slower. Drawn in a thread of their own, drawings hand the interpreter back to the loop at every
switch interval (shortened here to 1 ms), and Pillow encodes without holding it at all. One
thread: pages were never meant to take more than one core's spare time, and the gate in front
(``gate.py``) keeps their queue short.

What a drawing reads must not change under it: the live page draws from a copy of the game
(``Engine.clone``), a replay never changes once built.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")
SWITCH_INTERVAL = 0.001  # seconds a thread may hold the interpreter before the loop's turn
_drawer: ThreadPoolExecutor | None = None


async def off_loop(draw: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``draw(*args, **kwargs)`` in the pages' thread, with the caller's context (the language,
    whether pictures are encoded)."""
    global _drawer
    if _drawer is None:
        _drawer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pages")
        if sys.getswitchinterval() > SWITCH_INTERVAL:
            sys.setswitchinterval(SWITCH_INTERVAL)
    context = contextvars.copy_context()
    call = functools.partial(context.run, draw, *args, **kwargs)
    return await asyncio.get_running_loop().run_in_executor(_drawer, call)
