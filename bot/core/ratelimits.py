"""discord.py sweeps its rate-limit buckets for expired ones each time it makes a new one.

Every channel and DM the bot writes to has buckets of its own, so with a thousand tables in play
there are thousands of buckets, and each new one cost a pass over all of them on the event loop.
Here the sweep runs at most once a minute; an idle bucket (5 minutes without a request) is dropped
a little later than before.
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
