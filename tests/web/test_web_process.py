"""The real entry point (``python -m bot``) serves the pages itself, against the fake Discord: a
table opened and played in Discord has its live page, which follows a move within a second, and
the bot still stops at once on SIGTERM with a page streaming."""

from __future__ import annotations

import asyncio
import random
import socket
import time

import aiohttp

from bot.web.signing import Signer
from tests.support.bot_process import TOKEN, BotProcess
from tests.support.fake_discord import FakeDiscord
from tests.support.patience import patient
from tests.support.players import Players
from tests.web.test_web_live import next_event
from tests.web.test_web_operators import sample

SECRET = "the pages' key, from the config"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def test_the_bot_serves_a_live_page_that_follows_its_table(tmp_path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    async with FakeDiscord(token=TOKEN) as fake:
        bot = BotProcess(fake, tmp_path, f"web_port = {port}", f'web_secret = "{SECRET}"', f'public_url = "{base}"')
        try:
            await bot.start_ready()
            players = Players(fake, random.Random(5))
            members = [fake.add_member(f"web{i}") for i in range(3)]
            table = await players.open_donguri(fake.add_text_channel("web"), members)
            await players.wait_started(table, timeout=60)
            page = f"{base}/t/{Signer(SECRET).token(table.id)}"
            async with aiohttp.ClientSession() as http:
                async with http.get(base + "/") as home:
                    assert home.status == 200 and "Tabletop games" in await home.text()
                async with http.get(page, headers={"Accept-Language": "en"}) as live:
                    assert live.status == 200
                    assert "Donguri to Yamaneko" in await live.text()
                async with http.get(f"{base}/t/{Signer('another key, not this bot').token(table.id)}") as forged:
                    assert forged.status == 404
                async with http.get(f"{page}/live?lang=en") as stream:
                    name, first = await asyncio.wait_for(next_event(stream), patient(10))
                    assert name == "table"
                    click = await players.move(table)
                    assert click is not None and click.accepted
                    name, data = await asyncio.wait_for(next_event(stream), patient(10))
                    assert data["version"] > first["version"]
                async with http.get(f"{base}/healthz") as health:
                    report = await health.json()
                    assert health.status == 200 and report["gateway"]["connected"], report
                    assert report["database"]["reachable"] and report["tables"]["running"] == {"donguri": 1}
                async with http.get(f"{base}/metrics") as metrics:
                    text = await metrics.text()
                    assert sample(text, "tabletop_moves_total", game="donguri", by="member") >= 1
                    sent = sample(text, "tabletop_discord_requests_total", kind="POST /channels/{channel_id}/messages", outcome="ok")
                    assert sent >= 1, text
                async with http.get(f"{page}/live?lang=en") as stream:
                    await asyncio.wait_for(next_event(stream), patient(10))
                    stopped = time.monotonic()
                    assert await bot.stop() == 0, bot
                    assert time.monotonic() - stopped < patient(5), "an open page does not hold the bot up"
            assert not bot.errors(), "\n".join(bot.errors())
            assert any(f"web pages on http://127.0.0.1:{port}/" in line for line in bot.lines)
        finally:
            await bot.stop()
            print(bot)
