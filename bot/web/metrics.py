"""The operators' ``/metrics``, in Prometheus' text format (prometheus-client, the standard
exposition library): moves, computers' decision times, Discord's REST calls by kind and their 429s,
errors logged, and, read when scraped, open tables and the delivery backlog and lag.

Each bot has a registry of its own (several bots may run in one test process). The services count
through the ``Meters`` they were given (``bot/core/meters.py``); errors and discord.py's own 429s
are counted from the log, where every part of the bot and discord.py already reports them.
"""

from __future__ import annotations

import logging

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

#: Seconds a computer may take to choose: most moves are quick, a search takes up to about a second.
DECISION_BUCKETS = (0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0)


class Metrics:
    """The bot's registry, and its ``Meters`` (``bot/core/meters.py``)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.moves = Counter("tabletop_moves", "Actions committed, by game and by whom", ["game", "by"], registry=r)
        self.decisions = Histogram(
            "tabletop_computer_decision_seconds", "How long a computer took to choose its move",
            ["game", "level"], buckets=DECISION_BUCKETS, registry=r,
        )
        self.calls = Counter(
            "tabletop_discord_requests", "Calls to Discord's REST API, by route and outcome", ["kind", "outcome"],
            registry=r,
        )
        self.rate_limited = Counter(
            "tabletop_discord_rate_limited", "429 answers from Discord (discord.py waits and retries)", ["scope"],
            registry=r,
        )
        self.errors = Counter("tabletop_errors", "Errors logged, by the part of the bot that logged them", ["logger"], registry=r)
        self.open_tables = Gauge("tabletop_open_tables", "Tables in the lobby or in play", ["game", "status"], registry=r)
        self.backlog = Gauge(
            "tabletop_delivery_backlog", "Tables whose committed state Discord does not show yet (all processes)", registry=r
        )
        self.lag = Gauge(
            "tabletop_delivery_lag_seconds", "Since the oldest of those tables' last commit", registry=r
        )
        self.queued = Gauge("tabletop_delivery_queued", "Tables this process's delivery worker has to do", registry=r)
        self.gateway = Gauge("tabletop_gateway_connected", "1 while the gateway is connected", registry=r)
        self.database = Gauge("tabletop_database_reachable", "1 when the database answered the last check", registry=r)
        self.log_counters = LogCounters(self)

    # ---- Meters ------------------------------------------------------------------------------------
    def moved(self, game: str, by: str, count: int = 1) -> None:
        self.moves.labels(game, by).inc(count)

    def decided(self, game: str, level: str, seconds: float) -> None:
        self.decisions.labels(game, level).observe(seconds)

    def called(self, kind: str, outcome: str) -> None:
        self.calls.labels(kind, outcome).inc()

    def exposition(self) -> bytes:
        return generate_latest(self.registry)


class LogCounters(logging.Handler):
    """Counts errors logged anywhere (the root logger), and discord.py's 429 warnings."""

    def __init__(self, metrics: Metrics) -> None:
        super().__init__(logging.WARNING)
        self.metrics = metrics

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.ERROR:
            self.metrics.errors.labels(".".join(record.name.split(".")[:2])).inc()
        elif record.name == "discord.http" and isinstance(record.msg, str):
            if "Global rate limit" in record.msg:
                self.metrics.rate_limited.labels("global").inc()
            elif "429" in record.msg:
                self.metrics.rate_limited.labels("route").inc()

    def install(self) -> None:
        """Listen to the log (discord.py's 429s are counted while ``log_level`` lets warnings through,
        as the default INFO does)."""
        logging.getLogger().addHandler(self)

    def remove(self) -> None:
        logging.getLogger().removeHandler(self)
