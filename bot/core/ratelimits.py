"""discord.py sweeps its rate-limit buckets for idle ones each time it makes a new one.

Every channel and DM the bot writes to has buckets of its own (two: one under the route, one under
the bucket Discord names), and a bucket is idle only after 5 minutes. A bot with a thousand tables
keeps thousands, and an asynchronous game's DM, edited less often than that, makes a new one at
nearly every turn: each paid a pass over all of them on the event loop
(``benchmarks/ratelimit_sweep.py``: docs/measurements.md). Here the sweep runs at most once a
minute; an idle bucket is dropped a little later than before.

This is the one place that touches a private part of discord.py (``tests/core/test_layout.py``
allows it by name): ``tests/core/test_ratelimits.py`` fails if an upgrade renames it.
"""

from __future__ import annotations

import time

import discord

SWEEP_EVERY = 60.0


def throttle_sweeps(http: discord.http.HTTPClient, every: float = SWEEP_EVERY) -> None:
    sweep = http._try_clear_expired_ratelimits
    last = time.monotonic()

    def throttled() -> None:
        nonlocal last
        now = time.monotonic()
        if now - last >= every:
            last = now
            sweep()

    http._try_clear_expired_ratelimits = throttled  # type: ignore[method-assign]
