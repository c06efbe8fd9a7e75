"""The real bot process, the fake Discord, and a real browser: two members play Donguri in the
Activity (one in English at 1280 px, one in Japanese at 420 px), the third by the buttons of their
DMs, to the end of the game. At every step the Activity, the DMs and the table message agree: the
same player to act, and the mover's Activity offers exactly the cards their DM does."""

from __future__ import annotations

import random

import pytest

from tests.support.activity_frame import (
    WAIT,
    browsing,
    enabled_actions,
    open_activity,
    shot,
    tap,
    watch_errors,
)
from tests.support.bot_process import TOKEN, BotProcess
from tests.support.browser import check_page
from tests.support.fake_discord import FakeDiscord
from tests.support.players import Players
from tests.web.test_web_process import free_port

pytestmark = [pytest.mark.browser, pytest.mark.process, pytest.mark.slow]
SECRET = "the pages' key, from the config"


def dm_actions(players: Players, table, user) -> set[str]:
    """The moves the member's latest hand DM offers (``tt:a:<table>:<version>:<action>``)."""
    dm = players.hand_dm(table, user)
    return {i.split(":", 4)[4] for i in dm.custom_ids(f"tt:a:{table.id}:")} if dm else set()


async def shows_seen(frame, seen: int) -> None:
    await frame.wait_for_function("n => Number(document.getElementById('table').dataset.seen) >= n", arg=seen, timeout=WAIT)


async def acting(frame) -> list[str]:
    """The members the Activity shows to act."""
    return await frame.eval_on_selector_all(".seats li.acting", "ls => ls.map(l => l.dataset.member)")


async def test_two_members_in_the_activity_and_one_by_buttons_play_donguri_to_the_end(tmp_path, browser):
    port = free_port()
    origin = f"http://127.0.0.1:{port}"
    chooser = random.Random(11)
    async with FakeDiscord(token=TOKEN) as fake:
        config = [f"web_port = {port}", f'web_secret = "{SECRET}"', f'client_secret = "{fake.oauth.client_secret}"']
        config.append("channel_budget = 50")  # the table message at every move, not Discord's pace: a test of agreement
        bot = BotProcess(fake, tmp_path, *config)
        try:
            await bot.start_ready()
            players = Players(fake, random.Random(5))
            members = [fake.add_member(f"act{i}") for i in range(3)]
            channel = fake.add_text_channel("activity")
            table = await players.open_donguri(channel, members)
            await players.wait_started(table, timeout=60)
            instance = fake.oauth.launch(fake.guild.id, channel.id, *members).id
            async with browsing(browser) as views:
                seen = {}
                for user, width, language in ((members[0], 1280, "en"), (members[1], 420, "ja")):
                    view = await views.new(width, language)
                    page, frame, _ = await open_activity(view, origin, fake, user, instance, "ja" if language == "ja" else "en-US")
                    errors = watch_errors(page)
                    await frame.wait_for_selector("#table .seats", timeout=WAIT)  # the channel's only table
                    seen[user.id] = (page, frame, errors, f"{width}-{language}")
                frames = [f for _, f, _, _ in seen.values()]
                moves, after, shown = 0, 0, False
                while True:
                    for frame in frames:
                        await shows_seen(frame, after)
                    after = int(await frames[0].get_attribute("#table", "data-seen")) + 1
                    if await frames[0].get_attribute("#table", "data-status") != "running":
                        break
                    names = await acting(frames[0])
                    assert names == await acting(frames[1]) and len(names) == 1, "both Activities show one player to act"
                    (mover,) = [u for u in members if u.id == names[0]]
                    await fake.wait_until(lambda m=mover: players.waiting_for(table) == [m], timeout=20, what=f"the table message waiting for {mover.name}")
                    if mover.id in seen:
                        frame = seen[mover.id][1]
                        offered = set(await enabled_actions(frame))
                        assert offered, "the mover has a card to tap"
                        await fake.wait_until(lambda m=mover, o=offered: dm_actions(players, table, m) == o, timeout=20, what=f"{mover.name}'s DM offering {sorted(offered)}")
                        for other in frames:
                            if other is not frame:
                                assert await enabled_actions(other) == []
                        if moves >= 5 and not shown:  # a few moves in, at a member's turn in the Activity
                            shown = True
                            for p, f, _, name in seen.values():
                                await shot(p, f, f"donguri-process-{name}")
                                await check_page(f)
                        await tap(frame, chooser.choice(sorted(offered)))
                    else:
                        for frame in frames:
                            assert await enabled_actions(frame) == [], "no Activity offers another seat's cards"
                        found = await fake.wait_until(lambda m=mover: players.playable(table, m), timeout=20, what=f"{mover.name}'s DM to press")
                        dm, ids = found
                        sent = await fake.click(mover, dm, chooser.choice(ids))
                        assert await sent.wait(20), "the button was answered"
                    moves += 1
                for page, frame, errors, name in seen.values():
                    assert await frame.get_attribute("#table", "data-status") == "finished"
                    await shot(page, frame, f"donguri-process-{name}-end")
                    assert errors == [], errors
            await fake.wait_until(lambda: all(players.result_dms(table, u) for u in members), timeout=30, what="the end-of-game DMs")
            assert moves > 30, moves
            assert await bot.stop() == 0, bot
            assert not bot.errors(), "\n".join(bot.errors())
        finally:
            await bot.stop()
            print(bot)
