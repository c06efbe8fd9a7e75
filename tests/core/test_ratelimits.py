"""The throttled sweep of discord.py's rate-limit buckets (bot/core/ratelimits.py)."""

from __future__ import annotations

import discord

from bot.core import ratelimits


async def test_a_new_bucket_sweeps_the_idle_ones_at_most_once_a_minute(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(ratelimits.time, "monotonic", lambda: now[0])
    http = discord.http.HTTPClient(discord.utils.MISSING)
    swept = []
    # discord.py's own sweep, as it stands in the pinned version: an upgrade that renames it fails here.
    monkeypatch.setattr(http, "_try_clear_expired_ratelimits", lambda: swept.append(now[0]))
    ratelimits.throttle_sweeps(http)
    for n in range(300):
        http.get_ratelimit(f"key:{n}")
    assert swept == []
    now[0] += 61
    http.get_ratelimit("key:300")
    http.get_ratelimit("key:301")
    assert swept == [1061.0]


def test_discord_py_still_sweeps_through_the_method_that_is_throttled():
    source = discord.http.HTTPClient.get_ratelimit.__code__.co_names
    assert "_try_clear_expired_ratelimits" in source
