"""The real entry point stopped (SIGTERM) in the middle of its work logs no error: pages being read,
live streams open and moves being clicked as it stops.

Before, the shutdown closed discord.py's HTTP session, the bot's own and the database while clicks
were still being answered ("Session is closed", "no active connection" / "Cannot operate on a
closed database"). Now what comes in stops first (a click is answered "restarting"), what is under
way ends, and only then does anything close (``TabletopBot.close``, ``Services.close``).
"""

from __future__ import annotations

import asyncio
import contextlib
import random

import aiohttp

from bot.web.signing import Signer
from tests.support.bot_process import TOKEN, BotProcess
from tests.support.fake_discord import FakeDiscord
from tests.support.players import Players
from tests.web.test_web_process import free_port

SECRET = "the pages' key, at least 16 characters"
SHUTDOWN_NOISE = ("Session is closed", "closed database", "no active connection", "InvalidStateError", "Connector is closed")


async def test_stopping_with_pages_streams_and_moves_under_way_logs_no_error(tmp_path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    async with FakeDiscord(token=TOKEN) as fake:
        bot = BotProcess(fake, tmp_path, f"web_port = {port}", f'web_secret = "{SECRET}"', f'public_url = "{base}"')
        try:
            await bot.start_ready()
            players = Players(fake, random.Random(50))
            table = await players.started_donguri("stop")
            page = f"{base}/t/{Signer(SECRET).token(table.id)}"
            stopping = asyncio.Event()
            busy = asyncio.Event()
            counts = {"pages": 0, "moves": 0}

            def counted(what: str) -> None:
                counts[what] += 1
                if counts["pages"] >= 40 and counts["moves"] >= 5:
                    busy.set()

            async def read_pages(http: aiohttp.ClientSession, url: str) -> None:
                while not stopping.is_set():
                    try:
                        async with http.get(url) as answer:
                            await answer.read()
                            counted("pages")
                    except aiohttp.ClientError:
                        await asyncio.sleep(0.01)

            async def click() -> None:
                while not stopping.is_set():
                    with contextlib.suppress(Exception):  # the bot may be gone: the fake refuses
                        if await players.move(table, wait=False) is not None:
                            counted("moves")
                    await asyncio.sleep(0.01)

            async with aiohttp.ClientSession() as http:
                streams = [await http.get(f"{page}/live") for _ in range(5)]
                urls = [page, f"{page}/table.png", f"{base}/healthz", f"{base}/metrics", f"{page}/live"]
                work = [asyncio.ensure_future(read_pages(http, url)) for url in urls for _ in range(3)]
                work += [asyncio.ensure_future(click()) for _ in range(2)]
                await busy.wait()  # pages are being read and moves clicked: now it stops
                assert await bot.stop() == 0, bot
                stopping.set()
                await asyncio.gather(*work)
                for stream in streams:
                    stream.close()
            assert not bot.errors(), "\n".join(bot.errors())
            assert [line for line in bot.lines if any(noise in line for noise in SHUTDOWN_NOISE)] == []
            assert any("tabletop: stopped" in line for line in bot.lines)
        finally:
            await bot.stop()
            print(bot)
