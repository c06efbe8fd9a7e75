"""The pages never stand between a click and its answer: a page waits while the game has work under
way, a few are drawn at once, those past the queue answer 503 with Retry-After; each version is
drawn once whoever asks, and a stream flood leaves ``/healthz`` answering. Answers carry a
validator (304 for a reader who has the page) and are compressed for readers who take gzip."""

from __future__ import annotations

import asyncio
import gzip

from bot.core.i18n import Lang
from bot.storage.pages import PageRows
from bot.web.gate import RETRY_AFTER, PageGate
from bot.web.health import Gateway, Health
from bot.web.metrics import Metrics
from bot.web.operators import OperatorRoutes
from tests.support.web import client, seated_table


async def until(condition, rounds: int = 10_000) -> None:
    """Let the loop run until ``condition()`` holds (the server and the client share this loop)."""
    for _ in range(rounds):
        if condition():
            return
        await asyncio.sleep(0.001)
    raise AssertionError("the condition never held")


async def test_pages_wait_while_a_click_is_handled_and_go_once_it_is(tables, site):
    table_id = await seated_table(tables, "donguri")
    clicking = True
    gate = PageGate(lambda: clicking, slots=2, yield_for=3600)
    async with client(site, gate=gate) as web:
        asks = [asyncio.create_task(web.get(site.path(table_id))) for _ in range(5)]
        await until(lambda: gate.drawing == 2 and gate.waiting == 3)
        assert not any(a.done() for a in asks), "no page is drawn while the click is handled"
        clicking = False
        answers = await asyncio.gather(*asks)
        assert [a.status for a in answers] == [200] * 5


async def test_pages_past_the_queue_answer_503_with_retry_after_in_the_readers_language(tables, site):
    table_id = await seated_table(tables, "saizen")
    clicking = True
    gate = PageGate(lambda: clicking, slots=1, queue=1, yield_for=3600)
    async with client(site, gate=gate) as web:
        drawn, queued = (asyncio.create_task(web.get(site.path(table_id))) for _ in range(2))
        await until(lambda: gate.drawing == 1 and gate.waiting == 1)
        refused = await web.get(site.path(table_id), headers={"Accept-Language": "ja"})
        assert refused.status == 503 and refused.headers["Retry-After"] == str(RETRY_AFTER)
        assert "混み合っています" in await refused.text()
        assert gate.refused == 1
        clicking = False
        assert [(await drawn).status, (await queued).status] == [200, 200]
        assert (await web.get("/static/style.css")).status == 200, "static files never queue"


async def test_a_page_that_waits_too_long_for_its_turn_answers_503(tables, site):
    table_id = await seated_table(tables, "saizen")
    gate = PageGate(lambda: True, slots=1, patience=0.05, yield_for=3600)
    async with client(site, gate=gate) as web:
        held = asyncio.create_task(web.get(site.path(table_id)))
        await until(lambda: gate.drawing == 1)
        assert (await web.get(site.path(table_id))).status == 503
        held.cancel()


async def test_each_version_is_drawn_once_for_all_its_viewers(tables, site, monkeypatch):
    table_id = await seated_table(tables, "donguri")
    table = await tables.tables.table(table_id)
    drawn: list[int] = []
    draw = site._live

    async def counted(row, tr, picture):
        drawn.append(row.version)
        await asyncio.sleep(0)  # the others ask while this one draws
        return await draw(row, tr, picture)

    monkeypatch.setattr(site, "_live", counted)
    fragments = await asyncio.gather(*(site.live(table, Lang("en")) for _ in range(50)))
    events = await asyncio.gather(*(site.live_event(table, Lang("en")) for _ in range(50)))
    assert drawn == [table.version], "one drawing for 100 viewers of one version"
    assert len({id(f) for f in fragments}) == 1 and len(set(events)) == 1
    assert events[0].startswith(f"id: {table.version}\nevent: table\n".encode())


async def test_a_viewer_who_leaves_does_not_cancel_the_drawing_of_the_others(tables, site, monkeypatch):
    table_id = await seated_table(tables, "donguri")
    table = await tables.tables.table(table_id)
    started, release = asyncio.Event(), asyncio.Event()
    draw = site._live

    async def slow(row, tr, picture):
        started.set()
        await release.wait()
        return await draw(row, tr, picture)

    monkeypatch.setattr(site, "_live", slow)
    leaving = asyncio.create_task(site.live(table, Lang("en")))
    await started.wait()
    staying = asyncio.create_task(site.live(table, Lang("en")))
    await asyncio.sleep(0)
    leaving.cancel()
    release.set()
    fragment = await staying
    assert "<h1>" in fragment.html


async def test_html_is_compressed_for_readers_who_take_gzip_and_has_a_validator(tables, site):
    table_id = await seated_table(tables, "donguri")
    async with client(site) as web:
        plain = await web.get(site.path(table_id), headers={"Accept-Encoding": "identity"}, auto_decompress=False)
        body = await plain.read()
        assert "Content-Encoding" not in plain.headers and "Accept-Encoding" in plain.headers["Vary"]
        packed = await web.get(site.path(table_id), headers={"Accept-Encoding": "gzip, br"}, auto_decompress=False)
        assert packed.headers["Content-Encoding"] == "gzip"
        assert gzip.decompress(await packed.read()) == body
        assert len(await packed.read()) < len(body)
        tag = plain.headers["ETag"]
        again = await web.get(site.path(table_id), headers={"If-None-Match": tag})
        assert again.status == 304 and await again.read() == b""
        await tables.tables.table(table_id)
        css = await web.get("/static/style.css", headers={"Accept-Encoding": "gzip"}, auto_decompress=False)
        assert css.headers["Content-Encoding"] == "gzip" and css.headers["ETag"]


async def test_a_flood_of_live_streams_leaves_healthz_answering(tables, site):
    table_id = await seated_table(tables, "donguri")
    gateway, metrics = Gateway(), Metrics()
    await gateway.up()
    gate = PageGate()
    health = Health(PageRows(tables.store.db), gateway, lambda: 0, metrics, gate)
    async with client(site, groups=[OperatorRoutes(health, metrics)], gate=gate) as web:
        streams = [await web.get(site.path(table_id, "/live")) for _ in range(90)]  # the client holds 100
        for stream in streams:
            assert (await stream.content.readline()).startswith(b"id: ")
        answer = await web.get("/healthz")
        body = await answer.json()
        assert answer.status == 200 and body["pages"] == {"drawing": 0, "waiting": 0, "refused": 0}
        assert body["loop_ms"] >= 0 and body["database"]["reachable"]
        for stream in streams:
            stream.close()
