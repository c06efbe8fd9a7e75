"""Live-page viewers in a process of their own (``pages_beside_moves.py --streams``): the
benchmark's own loop runs the fake Discord whose answers the moves' latencies are measured by, and
thousands of stream readers on that loop would slow the fake, not the bot.

Usage: python benchmarks/stream_viewers.py BASE COUNT PATH... ; prints ``open <seconds>`` once every
stream has sent its first line, then reads them all until its standard input closes.
"""

from __future__ import annotations

import asyncio
import sys
import time

import aiohttp


async def main(base: str, count: int, paths: list[str]) -> None:
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=None)) as http:
        started = time.perf_counter()
        opened = []
        for i in range(count):
            response = await http.get(base + paths[i % len(paths)])
            await response.content.readline()
            opened.append(response)
        print(f"open {time.perf_counter() - started:.2f}", flush=True)

        async def drain(response: aiohttp.ClientResponse) -> None:
            while await response.content.readany():
                pass

        readers = [asyncio.create_task(drain(r)) for r in opened]
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)  # until the benchmark is done
        for response in opened:
            response.close()
        for reader in readers:
            reader.cancel()
        await asyncio.gather(*readers, return_exceptions=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3:]))
