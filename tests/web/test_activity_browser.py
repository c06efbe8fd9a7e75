"""The Activity in a real browser (Debian's chromium), its bundle and the Embedded App SDK in it,
inside a stand-in for Discord's client (tests/support/activity_frame.py) that signs members in with
the fake Discord's OAuth: two members play Othello to the end, each in their own language and
width; a dropped stream catches up and a move sent twice is played once; the lobby is filled and
started from the Activity; the picker opens the table tapped; outside Discord the page says so.
Screenshots: /tmp/shots-activity/."""

from __future__ import annotations

import random
import re
import time

import pytest

from bot.web.activity_auth import Buckets
from tests.support.activity import activity
from tests.support.activity_frame import (
    WAIT,
    browsing,
    drop_connections,
    enabled_actions,
    open_activity,
    shot,
    shows_version,
    tap,
    watch_errors,
)
from tests.support.browser import VIEWS, check_page
from tests.support.web import CHANNEL, GAMES, GUILD, seated_table

pytestmark = [pytest.mark.browser, pytest.mark.slow]  # the fast lane checks the API (test_activity_*.py)


async def signed_in(act, views, n: int, width: int, language: str, table: int | None = None):
    """Member ``n`` in the Activity of the tables' channel: (page, frame, client, errors)."""
    view = await views.new(width, language)
    user = act.member(n)
    locale = "ja" if language == "ja" else "en-US"
    origin = str(act.web.make_url("/")).rstrip("/")
    page, frame, client = await open_activity(view, origin, act.fake, user, act.instance(GUILD, user), locale, table)
    errors = watch_errors(page)
    await frame.wait_for_selector("#table h1", timeout=WAIT)
    return page, frame, client, errors


async def test_two_members_play_othello_to_the_end_in_the_activity(tables, site, browser):
    table_id = await seated_table(tables, "othello_torite")
    chooser = random.Random(4)
    async with activity(site, tables) as act, browsing(browser) as views:
        # These two tap as fast as a browser can, faster than any member: past the members' rate.
        act.routes.requests = Buckets(1000.0, 1000.0)
        table = await tables.tables.table(table_id)
        seen = {1: await signed_in(act, views, 1, 1280, "en"), 2: await signed_in(act, views, 2, 420, "ja")}
        for n, (_, frame, client, _) in seen.items():
            assert [c for c, _ in client.commands[:3]] == ["AUTHORIZE", "AUTHENTICATE", "USER_SETTINGS_GET_LOCALE"]
            assert client.commands[0][1]["scope"] == ["identify"] and client.handshakes[0]["client_id"] == act.fake.application_id
            assert await frame.get_attribute("html", "lang") == ("en" if n == 1 else "ja")
        assert await seen[2][1].inner_text(".seats h2") == "プレイヤー"
        taps = 0
        while True:
            table = await tables.tables.table(table_id)
            engine = await tables.tables.engine(table)
            if engine.is_terminal():
                break
            (seat,) = engine.to_act()
            mover = table.seats[seat].user_id
            page, frame, _, _ = seen[mover]
            await shows_version(frame, table.version)
            offered = await enabled_actions(frame)
            assert sorted(offered) == sorted(engine.legal_actions(seat)), "the Activity offers the legal moves, no other"
            other = seen[3 - mover][1]
            assert await enabled_actions(other) == [], "the other player has nothing to tap"
            if taps == 6:
                for n, (p, f, _, _) in seen.items():
                    await shot(p, f, f"othello-{'1280-en' if n == 1 else '420-ja'}-midgame")
                    await check_page(f)
            await tap(frame, chooser.choice(offered))
            taps += 1
            for _, f, _, _ in seen.values():  # the tapper's answer, and the other's stream
                await shows_version(f, table.version + 1)
        assert len(await tables.store.actions(table_id)) == taps == len(engine.history)
        final = await tables.tables.table(table_id)
        assert final.status == "finished"
        for n, (page, frame, _, errors) in seen.items():
            await frame.wait_for_selector("#table[data-status=finished]", timeout=WAIT)
            note = await frame.inner_text("#note")
            assert note == ("This table is over." if n == 1 else "この卓は終了しました。")
            scores = [int(s) for s in await frame.eval_on_selector_all(".seats .score", "ss => ss.map(s => s.textContent)")]
            assert scores == engine.public_view()["scores"]
            await shot(page, frame, f"othello-{'1280-en' if n == 1 else '420-ja'}-end")
            await check_page(frame)
            assert errors == [], errors


async def test_a_dropped_stream_catches_up_and_a_move_sent_twice_is_played_once(tables, site, browser):
    table_id = await seated_table(tables, "donguri")
    async with activity(site, tables) as act, browsing(browser) as views:
        page, frame, _, errors = await signed_in(act, views, 1, 420, "en", table=table_id)
        table = await tables.tables.table(table_id)
        await shows_version(frame, table.version)
        await page.route("**/events?*", lambda route: route.abort())  # no stream until the network is back
        assert drop_connections(act.web.server)  # the connection drops …
        await frame.wait_for_function("() => document.getElementById('note').textContent !== ''", timeout=WAIT)
        assert await frame.inner_text("#note") == "Connection lost. Reconnecting…"
        while (engine := await tables.tables.engine(table := await tables.tables.table(table_id))).to_act() != [0]:
            (seat,) = engine.to_act()  # … while the others play on
            await tables.tables.act(table_id, table.seats[seat].user_id, len(engine.history), engine.legal_actions(seat)[0])
        await page.unroute("**/events?*")
        await shows_version(frame, table.version)  # caught up: every move made meanwhile is shown
        assert await frame.inner_text("#note") == ""
        played = len(engine.history)
        lost: list[str] = []

        async def answer_lost(route) -> None:  # the move reaches the server; its answer never comes back
            if not lost:
                lost.append((await route.fetch()).status_text)
                await route.abort()
            else:
                await route.continue_()

        await page.route("**/move?*", answer_lost)
        action = (await enabled_actions(frame))[0]
        moved = page.wait_for_event("requestfinished", lambda r: r.url.split("?")[0].endswith("/move"), timeout=WAIT)
        await tap(frame, action)
        await moved
        await shows_version(frame, table.version + 1)
        log = await tables.store.actions(table_id)
        assert len(lost) == 1 and len(log) == played + 1 and log[-1][1] == action, "sent twice, played once"
        assert [e for e in errors if "net::ERR_" not in e] == [], errors  # none but the drops made here


async def test_the_lobby_is_joined_filled_and_started_from_the_activity(tables, site, browser):
    lobby = await tables.lobby.open("donguri", guild_id=GUILD, channel_id=CHANNEL, host=(1, "alice"), size=4, options={"length": "short"}, language="en")
    table_id = lobby.id
    async with activity(site, tables) as act, browsing(browser) as views:
        host, host_frame, _, _ = await signed_in(act, views, 1, 1280, "en")  # the channel's only table opens
        guest, guest_frame, _, errors = await signed_in(act, views, 2, 420, "ja")
        assert await host_frame.get_attribute("#table", "data-table") == str(table_id)
        assert await host_frame.query_selector("[data-lobby=join]") is None  # the host is seated already
        await guest_frame.click("[data-lobby=join]")
        await host_frame.wait_for_selector(".seats li:nth-child(2)", timeout=WAIT)  # by the host's stream
        assert [s.user_id for s in (await tables.tables.table(table_id)).seats] == [1, 2]
        await host_frame.click("[data-lobby=computer][data-level=normal]")
        await host_frame.wait_for_selector(".seats li:nth-child(3)", timeout=WAIT)
        await shot(host, host_frame, "lobby-1280-en")
        await shot(guest, guest_frame, "lobby-420-ja")
        await host_frame.click("[data-lobby=start]")  # three of four seats: the host starts
        for frame in (host_frame, guest_frame):
            await frame.wait_for_selector("#table[data-status=running]", timeout=WAIT)
        assert (await tables.tables.table(table_id)).status == "running"
        assert await guest_frame.inner_text(".hand h2") in ("あなたの手札", "あなたの番です")
        assert errors == [], errors


async def test_the_picker_opens_the_table_tapped_and_comes_back(tables, site, browser):
    first = await seated_table(tables, "donguri")
    second = await seated_table(tables, "saizen")
    elsewhere = await seated_table(tables, "othello_torite", channel=CHANNEL + 1)
    async with activity(site, tables) as act, browsing(browser) as views:
        view = await views.new(420, "en")
        user = act.member(1)
        origin = str(act.web.make_url("/")).rstrip("/")
        page, frame, _ = await open_activity(view, origin, act.fake, user, act.instance(GUILD, user), "en-GB")
        errors = watch_errors(page)
        await frame.wait_for_selector(".pick", timeout=WAIT)
        assert await frame.inner_text("h1") == "Choose a table"
        listed = await frame.eval_on_selector_all("[data-table]", "bs => bs.map(b => Number(b.dataset.table))")
        assert listed == [second, first, elsewhere]
        assert await frame.eval_on_selector_all(".pick h2", "hs => hs.map(h => h.textContent)") == ["In this channel", "Elsewhere in this server"]
        await check_page(frame)
        await shot(page, frame, "picker-420-en")
        await frame.click(f"[data-table='{first}']")
        await frame.wait_for_selector(f"#table[data-table='{first}'] .hand", timeout=WAIT)
        await frame.click("[data-go=tables]")
        await frame.wait_for_selector(".pick", timeout=WAIT)
        assert errors == [], errors


async def test_outside_discord_the_page_says_where_to_open_it(tables, site, browser):
    async with activity(site, tables) as act, browsing(browser) as views:
        view = await views.new(420, "ja")
        page = await view.new_page()
        await page.goto(str(act.web.make_url("/activity/")))
        await page.wait_for_function("() => document.getElementById('note').textContent.includes('Discord')", timeout=WAIT)
        assert await page.inner_text("#note") == "これはボットの Discord アクティビティです。Discord のサーバーのチャンネルから開いてください。"


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_every_game_is_played_for_several_moves_in_the_activity(tables, site, browser, game):
    """A member a seat, each in their own view (VIEWS in turn: both widths, both languages); every
    move tapped by its player; every page follows; screenshots of each."""
    table_id = await seated_table(tables, game, seed=21)
    chooser = random.Random(6)
    async with activity(site, tables) as act, browsing(browser) as views:
        act.routes.requests = Buckets(1000.0, 1000.0)  # faster than any member
        table = await tables.tables.table(table_id)
        seen = {}
        for i, seat in enumerate(table.seats):
            width, _, language = VIEWS[i % len(VIEWS)]
            page, frame, _, errors = await signed_in(act, views, seat.user_id, width, language, table=table_id)
            seen[seat.user_id] = (page, frame, errors, f"{game}-{width}-{language}")
        for _ in range(8):
            table = await tables.tables.table(table_id)
            engine = await tables.tables.engine(table)
            seat = engine.to_act()[0]
            page, frame, _, _ = seen[table.seats[seat].user_id]
            await shows_version(frame, table.version)
            offered = await enabled_actions(frame)
            assert offered and set(offered) <= set(engine.legal_actions(seat)), "every choice offered is legal"
            await tap(frame, chooser.choice(offered))
            for _, f, _, _ in seen.values():
                await shows_version(f, table.version + 1)
        assert len(await tables.store.actions(table_id)) == 8
        for page, frame, errors, name in seen.values():
            await check_page(frame)
            await shot(page, frame, name)
            await page.set_viewport_size({"width": 360, "height": 800})  # the narrowest phone
            await check_page(frame)
            assert errors == [], errors


async def test_an_ended_session_is_renewed_through_discord_and_the_table_followed_on(tables, site, browser):
    table_id = await seated_table(tables, "saizen")
    async with activity(site, tables) as act, browsing(browser) as views:
        page, frame, client, errors = await signed_in(act, views, 2, 1280, "en", table=table_id)
        act.clock.at += act.routes.sessions.life + 1  # the session ends: its stream says "expired"
        table = await tables.tables.table(table_id)
        engine = await tables.tables.engine(table)
        (seat,) = engine.to_act()
        await tables.tables.act(table_id, table.seats[seat].user_id, len(engine.history), engine.legal_actions(seat)[0])
        await shows_version(frame, table.version + 1)  # followed on, with a new session
        assert [c for c, _ in client.commands].count("AUTHORIZE") == 2, "signed in again through Discord, not reloaded"
        action = (await enabled_actions(frame))[0]
        await tap(frame, action)
        await shows_version(frame, table.version + 2)
        assert (await tables.store.actions(table_id))[-1][1] == action
        assert errors == [], errors


async def test_the_clock_counts_down_beside_the_title(tables, site, browser):
    table_id = await seated_table(tables, "othello_torite", language="ja")
    await tables.store.update_table(table_id, clock=600, deadline=time.time() + 300)
    async with activity(site, tables) as act, browsing(browser) as views:
        _, frame, _, errors = await signed_in(act, views, 1, 420, "ja", table=table_id)
        assert re.fullmatch(r"⏰ 残り [45]:\d\d", await frame.inner_text(".clock"))
        assert "⏰" in await frame.inner_text(".turn")  # the server's own line: when the move is due
        assert errors == [], errors
