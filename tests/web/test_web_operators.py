"""The operators' ``/healthz`` and ``/metrics``: healthy (200) only while the database answers and the
gateway is connected, with the delivery backlog and its lag reported; the metrics count moves of
each kind, computers' decisions, Discord's calls and errors where they happen."""

from __future__ import annotations

import logging

from bot.core.config import Config
from bot.storage.pages import PageRows
from bot.tables.computers import Computers
from bot.tables.service import TableService
from bot.web.health import Gateway, Health
from bot.web.metrics import Metrics
from bot.web.operators import OperatorRoutes
from tests.support.platform import platform
from tests.support.web import client, make_site, play, seated_table


def sample(text: str, name: str, **labels: str) -> float:
    """The value of one sample of the exposition ``text`` (0 when it is not there)."""
    wanted = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))  # as the library writes them
    key = f"{name}{{{wanted}}}" if labels else name
    for line in text.splitlines():
        if line.startswith(key + " "):
            return float(line.split()[-1])
    return 0.0


async def operators(tables, gateway: Gateway, metrics: Metrics, queued=lambda: 0):
    health = Health(PageRows(tables.store.db), gateway, queued, metrics)
    return client(make_site(tables.store, tables), groups=[OperatorRoutes(health, metrics)])


async def test_healthz_is_503_until_the_gateway_connects_and_reports_the_backlog(tables):
    gateway, metrics = Gateway(lambda: 0.042), Metrics()
    table_id = await seated_table(tables, "saizen")  # started: a change Discord has not shown yet
    async with await operators(tables, gateway, metrics, queued=lambda: 3) as web:
        answer = await web.get("/healthz")
        body = await answer.json()
        assert answer.status == 503 and body["status"] == "unhealthy"
        assert body["database"]["reachable"] is True and body["gateway"]["connected"] is False
        await gateway.up()
        answer = await web.get("/healthz")
        body = await answer.json()
        assert answer.status == 200 and body["status"] == "ok"
        assert body["gateway"] == {"connected": True, "latency_ms": 42.0, "since": body["gateway"]["since"]}
        assert body["delivery"]["backlog"] == 1 and body["delivery"]["queued"] == 3
        assert body["delivery"]["lag_seconds"] >= 0
        assert body["tables"] == {"running": {"saizen": 1}}
        await tables.store.clear_dirty(table_id, (await tables.tables.table(table_id)).version)
        body = await (await web.get("/healthz")).json()
        assert body["delivery"]["backlog"] == 0 and body["delivery"]["lag_seconds"] == 0
        await gateway.down()
        assert (await web.get("/healthz")).status == 503


async def test_healthz_is_503_when_the_database_does_not_answer(tables):
    gateway, metrics = Gateway(), Metrics()
    await gateway.up()
    async with await operators(tables, gateway, metrics) as web:
        assert (await web.get("/healthz")).status == 200
        await tables.store.db.close()
        answer = await web.get("/healthz")
        body = await answer.json()
        assert answer.status == 503 and body["database"]["reachable"] is False
        assert body["delivery"]["backlog"] is None


async def test_metrics_count_moves_decisions_calls_and_errors_where_they_happen(tables):
    metrics = Metrics()
    metered = platform(tables.store)
    metered.tables = TableService(tables.store, meters=metrics)  # the service counts its own moves
    table_id = await seated_table(tables, "othello_torite")
    await play(metered, table_id, 3)
    computers = Computers(metered.tables, Config(token="x", computer_search=False), lambda table_id: None, metrics)
    table = await metered.tables.table(table_id)
    await computers.choose(table, await metered.tables.engine(table), 0)
    metrics.called("POST /channels/{channel_id}/messages", "ok")
    metrics.called("POST /channels/{channel_id}/messages", "429")
    logging.getLogger("discord.http").warning(
        "We are being rate limited. %s %s responded with 429. Retrying in %.2f seconds.", "PATCH", "/x", 1.0
    )
    metrics.log_counters.install()
    try:
        logging.getLogger("discord.http").warning(
            "We are being rate limited. %s %s responded with 429. Retrying in %.2f seconds.", "PATCH", "/x", 1.0
        )
        logging.getLogger("bot.tables.worker").error("delivery: table 1 failed")
    finally:
        metrics.log_counters.remove()
    gateway = Gateway()
    await gateway.up()
    async with await operators(tables, gateway, metrics) as web:
        answer = await web.get("/metrics")
        assert answer.status == 200 and answer.content_type == "text/plain"
        text = await answer.text()
    assert sample(text, "tabletop_moves_total", game="othello_torite", by="member") == 3
    assert sample(text, "tabletop_computer_decision_seconds_count", game="othello_torite", level="normal") == 1
    kind = "POST /channels/{channel_id}/messages"
    assert sample(text, "tabletop_discord_requests_total", kind=kind, outcome="ok") == 1
    assert sample(text, "tabletop_discord_requests_total", kind=kind, outcome="429") == 1
    assert sample(text, "tabletop_discord_rate_limited_total", scope="route") == 1  # only while installed
    assert sample(text, "tabletop_errors_total", logger="bot.tables") == 1
    assert sample(text, "tabletop_open_tables", game="othello_torite", status="running") == 1
    assert sample(text, "tabletop_delivery_backlog") == 1
    assert sample(text, "tabletop_gateway_connected") == 1
    assert sample(text, "tabletop_database_reachable") == 1
