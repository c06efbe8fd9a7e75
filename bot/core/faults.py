"""Points on the path of a click where a crash test stops the bot, to kill it there with SIGKILL.

Only the environment variable ``TABLETOP_HOLD_AT`` enables them (point names, separated by
commas): a process started with it logs ``holding at <point>`` when it first reaches one and then
waits there until it is killed, or, for ``<point>=<seconds>``, that many seconds (a slow step).
``<point>~<share>=<seconds>`` makes that share of every pass through the point slow, not only
the first: a crash test's kills then land on clicks deferred and not yet committed. Without the
variable, a point costs one lookup in an empty dict.

The points of a click (``bot/tables/desk.py``, ``in_time.py``, ``deferred.py``):
``click.before_move`` (taken, its move not begun), ``click.deferring`` (a slow click is stored,
its deferral not sent), ``click.before_commit`` (inside the move's transaction),
``click.before_answer`` (committed, not answered), ``click.after_answer`` (answered after a
deferral, the stored click not yet deleted); ``launch.before_answer`` (**Play in Discord**
remembered, the Activity not launched: ``bot/tables/launch.py``).
"""

from __future__ import annotations

import asyncio
import logging
import os
import random

log = logging.getLogger(__name__)
#: point -> seconds to hold there (None: until killed)
HOLD_AT: dict[str, float | None] = {}
#: point -> (the share of passes held, seconds): a slow step now and then, every time
SLOW_AT: dict[str, tuple[float, float]] = {}
for _item in os.environ.get("TABLETOP_HOLD_AT", "").split(","):
    _name, _, _seconds = _item.partition("=")
    if "~" in _name:
        _name, _, _share = _name.partition("~")
        SLOW_AT[_name] = (float(_share), float(_seconds or 0))
    elif _name:
        HOLD_AT[_name] = float(_seconds) if _seconds else None
_held: set[str] = set()


async def point(name: str) -> None:
    """Hold here, the first time, if the environment asks to; return at once otherwise."""
    slow = SLOW_AT.get(name)
    if slow is not None and random.random() < slow[0]:
        await asyncio.sleep(slow[1])
    if name not in HOLD_AT or name in _held:
        return
    _held.add(name)
    seconds = HOLD_AT[name]
    log.warning("holding at %s", name)
    if seconds is None:
        await asyncio.Event().wait()
    else:
        await asyncio.sleep(seconds)
