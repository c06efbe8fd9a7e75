"""The pages' routes: a table's live page and replay in either language, the same 404 for any id
that leads nowhere, 400 for a malformed query, and no request that changes anything."""

from __future__ import annotations

import json
import re
import time

import pytest

from bot.core.i18n import Lang
from bot.tables import render
from bot.web.signing import Signer
from tests.support.web import GAMES, client, make_site, play, seated_table

ALL = sorted(GAMES)


@pytest.mark.parametrize("game", ALL)
async def test_a_running_table_shows_what_its_message_shows(tables, site, game):
    table_id = await seated_table(tables, game)
    await play(tables, table_id, 3)
    table = await tables.tables.table(table_id)
    engine = await tables.tables.engine(table)
    view = render.table_view(table, engine, Lang("en"))
    async with client(site) as web:
        answer = await web.get(site.path(table_id), headers={"Accept-Language": "en-GB,en;q=0.9"})
        assert answer.status == 200 and answer.content_type == "text/html"
        page = await answer.text()
    assert re.search(r"<h1>[^<]*table #\d+", page), "the table's title is the page's heading"
    for name, _value in view.fields:  # every field of the table message, by its name
        assert re.sub(r"\*\*", "", name) in re.sub(r"</?strong>", "", page)
    (waiting,) = [table.seats[s].name for s in engine.to_act()] if len(engine.to_act()) == 1 else [None]
    if waiting:
        assert f"Waiting for <strong>{waiting}</strong>" in page
    if view.image:
        src = re.search(r'<img src="([^"]+)" alt="([^"]+)"', page)
        assert src and src.group(2), "the picture has alt text"
        async with client(site) as web:
            picture = await web.get(src.group(1).replace("&amp;", "&"))
            assert picture.status == 200 and picture.content_type == "image/png"
            assert await picture.read() == view.image
    assert 'data-live="' in page and "/static/live.js" in page


async def test_the_language_follows_the_query_then_the_browser_then_the_table(tables, site):
    table_id = await seated_table(tables, "donguri", language="ja")
    path = site.path(table_id)
    async with client(site) as web:
        async def heading(url: str, **headers: str) -> str:
            page = await (await web.get(url, headers=headers)).text()
            return re.search(r'<html lang="(\w+)">', page).group(1) + " " + re.search(r"<h1>([^<]*)</h1>", page).group(1)

        assert await heading(path) == "ja どんぐりと山猫 · 卓 #1 · ディール1/6"  # the table's own
        assert (await heading(path, **{"Accept-Language": "en-US,en;q=0.9"})).startswith("en Donguri to Yamaneko")
        assert (await heading(path, **{"Accept-Language": "fr, en;q=0.5, ja;q=0.8"})).startswith("ja ")
        assert (await heading(path, **{"Accept-Language": "fr"})).startswith("ja "), "none spoken: the table's"
        assert (await heading(f"{path}?lang=en", **{"Accept-Language": "ja"})).startswith("en ")
        page = await (await web.get(f"{path}?lang=en")).text()
    assert f'href="{path}?lang=ja" hreflang="ja">日本語</a>' in page


async def test_an_id_that_leads_nowhere_gets_the_same_404(tables, site):
    table_id = await seated_table(tables, "othello_torite")
    real = site.path(table_id)
    token = real.split("/")[-1]
    number, mac = token.split("-")
    other_key = Signer("another secret, another bot").token(table_id)
    no_table = site.signer.token(99)  # signed here, but no table has that number
    nowhere = [
        f"/t/{number}-{'A' * 22}",  # forged
        f"/t/{other_key}",  # signed by another key
        f"/t/{no_table}",
        f"/t/{int(number) + 1}-{mac}",  # the next number with this one's signature
        f"/t/{number}",  # no signature
        "/t/abc",
        f"/t/{no_table}/replay",
        f"/t/{no_table}/export.json",
        f"/t/{no_table}/live",
        f"/t/{no_table}/replay/0.json",
        "/no/such/page",
    ]
    async with client(site) as web:
        assert (await web.get(real)).status == 200
        bodies = set()
        for path in nowhere:
            answer = await web.get(path)
            assert answer.status == 404, path
            bodies.add(await answer.text())
    assert len(bodies) == 1, "nothing tells a forged id from a table that does not exist"
    assert "Page not found" in bodies.pop()


async def test_a_server_that_turned_its_pages_off_answers_404(tables):
    table_id = await seated_table(tables, "donguri")
    await play(tables, table_id, 2)
    shown = {"on": True}

    async def pages_on(guild_id):
        return shown["on"]

    site = make_site(tables.store, tables, shown=pages_on, public_url="https://games.example")
    table = await tables.tables.table(table_id)
    async with client(site) as web:
        assert (await web.get(site.path(table_id))).status == 200
        assert await site.table_page(table) == f"https://games.example{site.path(table_id)}"
        shown["on"] = False
        off = await web.get(site.path(table_id))
        unknown = await web.get(f"/t/{site.signer.token(77)}")
        assert off.status == unknown.status == 404
        assert await off.text() == await unknown.text()
        assert await site.table_page(table) is None, "no link to a page that is not shown"


async def test_no_public_url_means_no_link(tables, site):
    table_id = await seated_table(tables, "othello_torite")
    await play(tables, table_id)
    assert await site.table_page(await tables.tables.table(table_id)) is None


@pytest.mark.parametrize(
    "query",
    ["?lang=fr", "?lang=", "?lang=en&lang=ja", "?step=x", "?step=-1", "?step=1.5", "?step=1&step=2", "?step=9999999999"],
)
async def test_a_malformed_query_answers_400(tables, site, query):
    table_id = await seated_table(tables, "othello_torite")
    await play(tables, table_id)
    async with client(site) as web:
        answer = await web.get(site.path(table_id, "/replay") + query)
        assert answer.status == 400, query
        assert "Bad request" in await answer.text()
        assert (await web.get(site.path(table_id, "/live") + "?v=new")).status == 400
        assert (await web.get(site.path(table_id, "/replay") + "?step=3&utm_source=x")).status == 200


async def test_a_replay_past_its_end_or_of_a_game_in_play_is_not_found(tables, site):
    running = await seated_table(tables, "donguri")
    done = await seated_table(tables, "othello_torite")
    await play(tables, done)
    length = len(await tables.store.actions(done))
    async with client(site) as web:
        assert (await web.get(site.path(done, "/replay") + f"?step={length}")).status == 200
        assert (await web.get(site.path(done, "/replay") + f"?step={length + 1}")).status == 404
        assert (await web.get(site.path(done, f"/replay/{length + 1}.json"))).status == 404
        for suffix in ("/replay", "/replay/0.json", "/export.json"):
            assert (await web.get(site.path(running, suffix))).status == 404, suffix


async def test_nothing_a_visitor_sends_changes_anything(tables, site):
    running = await seated_table(tables, "donguri")
    await play(tables, running, 4)
    done = await seated_table(tables, "othello_torite")
    await play(tables, done)
    db = tables.store.db

    async def everything() -> str:
        rows = {}
        for name in ("game_tables", "seats", "actions", "table_log", "web_keys"):
            rows[name] = [dict(r) for r in await db.fetch(f"SELECT * FROM {name} ORDER BY 1")]  # noqa: S608
        return json.dumps(rows, sort_keys=True, default=str)

    before = await everything()
    paths = [site.path(running), site.path(running, "/table.png"), site.path(done), site.path(done, "/replay"),
             site.path(done, "/replay/5.json"), site.path(done, "/replay/5.png"), site.path(done, "/export.json"), "/"]
    async with client(site) as web:
        for path in paths:
            assert (await web.get(path)).status in (200, 404), path
            for method in ("POST", "PUT", "PATCH", "DELETE"):
                answer = await web.request(method, path, data=b"action=play:S5")
                assert answer.status == 405, (method, path)
    assert await everything() == before


async def test_every_answer_keeps_its_address_to_itself(tables, site):
    table_id = await seated_table(tables, "donguri")
    async with client(site) as web:
        for path in (site.path(table_id), "/t/1-nothing"):
            answer = await web.get(path)
            assert answer.headers["Referrer-Policy"] == "no-referrer", "a page's address is its key"
            assert answer.headers["X-Robots-Tag"] == "noindex"
            assert "script-src" not in answer.headers["Content-Security-Policy"]  # 'self' only, by default-src
        assert (await web.get("/static/live.js")).content_type == "text/javascript"
        assert (await web.get("/static/../app.py")).status == 404


async def test_the_clock_is_shown_as_the_table_message_shows_it(tables, site):
    table_id = await seated_table(tables, "donguri")
    await tables.store.update_table(table_id, clock=3600, deadline=1_800_000_000.0)
    await play(tables, table_id, 1)  # a move restarts the clock: the deadline is an hour away
    table = await tables.tables.table(table_id)
    async with client(site) as web:
        page = await (await web.get(site.path(table_id) + "?lang=en")).text()
        ja = await (await web.get(site.path(table_id) + "?lang=ja")).text()
        await tables.seat_ops.pause(table_id, 1, True)
        paused = await (await web.get(site.path(table_id) + "?lang=en")).text()
    when = re.search(r'⏰ move due <time datetime="([^"]+)" data-style="R">', page)
    assert when, "the deadline, shown in the reader's zone by the page's script"
    assert when.group(1).startswith(time.strftime("%Y-%m-%dT%H:%M", time.gmtime(table.deadline)))
    assert "1 hour per move · if time runs out: a computer plays that move" in page
    assert "1時間" in ja
    assert "⏸ Paused by the host" in paused and "move due" not in paused
