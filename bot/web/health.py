"""The operators' ``/healthz``: the database answers, the gateway is connected, and how far Discord is
behind what is committed (the delivery backlog and its lag). 200 when the bot can play, 503 when it
cannot; the backlog and the lag are reported either way (a busy bot is not an unhealthy one). So
are the pages' queue (drawing, waiting, refused with 503) and how long the loop takes to come back
to a waiting task: a slow page tier is told from a sick database, whose own time is reported apart.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.storage.pages import PageRows
from bot.web.gate import PageGate
from bot.web.metrics import Metrics

log = logging.getLogger(__name__)
TIMEOUT = 2.0  # seconds the database has to answer


class Gateway:
    """Whether the bot's gateway connection is up, from discord.py's own events (``connect``,
    ``ready``, ``resumed``; ``disconnect``), registered as listeners in the composition root."""

    def __init__(self, latency: Callable[[], float] = lambda: math.nan) -> None:
        self.connected = False
        self.latency = latency
        self.changed = time.time()

    async def up(self, *args: Any) -> None:
        if not self.connected:
            self.connected, self.changed = True, time.time()

    async def down(self, *args: Any) -> None:
        if self.connected:
            self.connected, self.changed = False, time.time()


@dataclass
class Report:
    healthy: bool
    body: dict[str, Any]


class Health:
    def __init__(
        self,
        rows: PageRows,
        gateway: Gateway,
        queued: Callable[[], int],
        metrics: Metrics | None = None,
        pages: PageGate | None = None,
    ) -> None:
        self.pages = pages
        self.rows = rows
        self.gateway = gateway
        self.queued = queued  # tables this process's delivery worker has still to do
        self.metrics = metrics

    async def report(self) -> Report:
        # How long this process's loop takes to come back to a task that yields: a busy page tier
        # (or game) shows here, a sick database in the database's own time below.
        started = time.perf_counter()
        await asyncio.sleep(0)
        loop_ms = round((time.perf_counter() - started) * 1000, 1)
        started = time.perf_counter()
        try:
            reachable = await asyncio.wait_for(self.rows.reachable(), TIMEOUT)
        except Exception as exc:
            log.warning("health: the database did not answer (%s)", exc)
            reachable = False
        database: dict[str, Any] = {"reachable": reachable, "ms": round((time.perf_counter() - started) * 1000, 1)}
        latency = self.gateway.latency()
        gateway = {
            "connected": self.gateway.connected,
            "latency_ms": round(latency * 1000, 1) if math.isfinite(latency) else None,
            "since": round(self.gateway.changed, 3),
        }
        delivery: dict[str, Any] = {"backlog": None, "lag_seconds": None, "queued": self.queued()}
        tables: dict[str, dict[str, int]] = {}
        if reachable:
            try:
                backlog, oldest = await asyncio.wait_for(self.rows.backlog(), TIMEOUT)
                delivery["backlog"] = backlog
                delivery["lag_seconds"] = lag(oldest)
                for game, status, count in await asyncio.wait_for(self.rows.open_tables(), TIMEOUT):
                    tables.setdefault(status, {})[game] = count
            except Exception as exc:
                log.warning("health: reading the backlog failed (%s)", exc)
                database["reachable"] = reachable = False
        healthy = reachable and self.gateway.connected
        if self.metrics is not None:
            self.observe(database, gateway, delivery, tables)
        pages = None if self.pages is None else {"drawing": self.pages.drawing, "waiting": self.pages.waiting,
                                                 "refused": self.pages.refused}
        body = {"status": "ok" if healthy else "unhealthy", "database": database, "gateway": gateway,
                "delivery": delivery, "tables": tables, "loop_ms": loop_ms, "pages": pages}
        return Report(healthy, body)

    def observe(self, database: dict[str, Any], gateway: dict[str, Any], delivery: dict[str, Any],
                tables: dict[str, dict[str, int]]) -> None:
        """The gauges that ``/metrics`` reads at each scrape, set from a report made for it."""
        metrics = self.metrics
        assert metrics is not None
        metrics.database.set(int(database["reachable"]))
        metrics.gateway.set(int(gateway["connected"]))
        metrics.queued.set(delivery["queued"])
        if delivery["backlog"] is not None:
            metrics.backlog.set(delivery["backlog"])
            metrics.lag.set(delivery["lag_seconds"])
        metrics.open_tables.clear()
        for status, games in tables.items():
            for game, count in games.items():
                metrics.open_tables.labels(game, status).set(count)


def lag(oldest: str | None) -> float:
    """Seconds since ``oldest`` (an ISO time); 0 when there is nothing behind."""
    if oldest is None:
        return 0.0
    try:
        return max(0.0, round(time.time() - datetime.fromisoformat(oldest).timestamp(), 1))
    except ValueError:
        return 0.0
