"""The real bot, with a client secret in its config, serves the Activity beside its pages, against
the fake Discord: a member signs in as the Embedded App SDK would, taps a card, and the table
message and the DMs follow; a move by button reaches the Activity's stream; the secret is in no
answer and no log line."""

from __future__ import annotations

import asyncio
import random

import aiohttp

from tests.support.bot_process import TOKEN, BotProcess
from tests.support.fake_discord import FakeDiscord
from tests.support.patience import patient
from tests.support.players import Players
from tests.web.test_web_live import next_event
from tests.web.test_web_process import free_port

SECRET = "the pages' key, from the config"


async def test_a_tap_in_the_activity_and_a_button_in_a_dm_play_the_same_table(tmp_path):
    port = free_port()
    base = f"http://127.0.0.1:{port}/activity/api"
    async with FakeDiscord(token=TOKEN) as fake:
        config = [f"web_port = {port}", f'web_secret = "{SECRET}"', f'client_secret = "{fake.oauth.client_secret}"']
        bot = BotProcess(fake, tmp_path, *config)
        try:
            await bot.start_ready()
            players = Players(fake, random.Random(5))
            members = [fake.add_member(f"act{i}") for i in range(3)]
            channel = fake.add_text_channel("activity")
            table = await players.open_donguri(channel, members)
            await players.wait_started(table, timeout=60)
            instance = fake.oauth.launch(fake.guild.id, channel.id, *members).id
            async with aiohttp.ClientSession() as http:

                async def sign_in(user) -> dict[str, str]:
                    body = {"code": fake.oauth.code(user), "instance_id": instance}
                    async with http.post(f"{base}/token", json=body) as answer:
                        assert answer.status == 200, await answer.text()
                        signed = await answer.json()
                    assert fake.oauth.client_secret not in str(signed)
                    return {"Authorization": f"Bearer {signed['session']}"}

                (mover,) = players.waiting_for(table)
                watcher = next(u for u in members if u is not mover)
                headers = {u.id: await sign_in(u) for u in (mover, watcher)}
                async with http.get(f"{base}/table/{table.id}/events", headers=headers[watcher.id]) as stream:
                    _, first = await asyncio.wait_for(next_event(stream), patient(10))
                    async with http.get(f"{base}/table/{table.id}", headers=headers[mover.id]) as answer:
                        state = await answer.json()
                    assert state["your_turn"]
                    action = next(c["action"] for c in state["you"]["prompt"]["choices"] if c["enabled"])
                    tap = {"seen": state["table"]["seen"], "action": action, "request": "first-tap"}
                    async with http.post(f"{base}/table/{table.id}/move", json=tap, headers=headers[mover.id]) as answer:
                        assert answer.status == 200, await answer.text()
                    # The table message and the mover's DM follow the tap; so does the watcher's stream.
                    await fake.wait_until(lambda: mover not in players.waiting_for(table), timeout=20, what="the table message after the tap")
                    await fake.wait_until(
                        lambda: not any(i.endswith(action) for i in players.hand_dm(table, mover).custom_ids(f"tt:a:{table.id}:")),
                        timeout=20, what="the mover's DM without the card played",
                    )
                    _, after_tap = await asyncio.wait_for(next_event(stream), patient(10))
                    assert after_tap["table"]["seen"] == first["table"]["seen"] + 1
                    click = await players.move(table)  # now a member plays by button
                    assert click is not None and click.accepted
                    _, after_click = await asyncio.wait_for(next_event(stream), patient(10))
                    assert after_click["table"]["seen"] == after_tap["table"]["seen"] + 1
            assert await bot.stop() == 0, bot
            assert not bot.errors(), "\n".join(bot.errors())
            assert not any(fake.oauth.client_secret in line for line in bot.lines)
        finally:
            await bot.stop()
            print(bot)
