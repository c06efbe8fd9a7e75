"""What discord.py's sweep of rate-limit buckets costs as the bot writes to more channels:
``python benchmarks/ratelimit_sweep.py [--buckets 1000,3000,10000]``.

For each count, a fresh ``HTTPClient`` makes that many buckets (as that many channels touched
within 5 minutes would), once as discord.py does it and once with ``bot.core.ratelimits``'s
throttle, side by side; it prints the CPU per new bucket of each.
"""

from __future__ import annotations

import argparse
import asyncio
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import discord  # noqa: E402

from bot.core import ratelimits  # noqa: E402


async def per_bucket(count: int, throttled: bool) -> float:
    """Seconds of CPU per new bucket, over ``count`` of them."""
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    if throttled:
        ratelimits.throttle_sweeps(http)
    started = time.process_time()
    for n in range(count):
        http.get_ratelimit(f"PATCH /channels/{{channel_id}}/messages/{{message_id}}:{n}")
    return (time.process_time() - started) / count


async def run(counts: list[int]) -> None:
    print("| Buckets | discord.py, µs per new bucket | throttled, µs per new bucket |")
    print("|---|---|---|")
    for count in counts:
        plain = await per_bucket(count, throttled=False)
        fast = await per_bucket(count, throttled=True)
        print(f"| {count:,} | {plain * 1e6:,.1f} | {fast * 1e6:,.1f} |", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--buckets", default="300,1000,3000,10000")
    args = parser.parse_args()
    asyncio.run(run([int(n) for n in args.buckets.split(",")]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
