"""The operators' two addresses: ``/healthz`` (JSON; 200 healthy, 503 not) and ``/metrics``
(Prometheus' text format). They read, as every page does; neither names a server, a table or a
member. Keep them from the public behind the reverse proxy (docs/operations.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST

from bot.web.health import Health
from bot.web.metrics import Metrics

if TYPE_CHECKING:
    from bot.web.app import Routes


class OperatorRoutes:
    def __init__(self, health: Health, metrics: Metrics) -> None:
        self.health = health
        self.metrics = metrics

    async def close(self) -> None:
        pass

    def add(self, router: web.UrlDispatcher, pages: Routes) -> None:
        router.add_get("/healthz", self.healthz)
        router.add_get("/metrics", self.exposition)

    async def healthz(self, request: web.Request) -> web.StreamResponse:
        report = await self.health.report()
        return web.json_response(
            report.body, status=200 if report.healthy else 503, headers={"Cache-Control": "no-store"}
        )

    async def exposition(self, request: web.Request) -> web.StreamResponse:
        await self.health.report()  # the gauges read from the database, as of this scrape
        return web.Response(
            body=self.metrics.exposition(),
            headers={"Content-Type": CONTENT_TYPE_LATEST, "Cache-Control": "no-store"},
        )
