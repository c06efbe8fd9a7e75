"""The operators' ``/metrics``, in Prometheus' text format (prometheus-client, the standard
exposition library): moves, computers' decision times, Discord's REST calls by kind and their 429s,
errors logged, and, read when scraped, open tables and the delivery backlog and lag.

Each bot has a registry of its own (several bots may run in one test process). The services count
through the ``Meters`` they were given (``bot/core/meters.py``); errors and discord.py's own 429s
are counted from the log, where every part of the bot and discord.py already reports them.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from prometheus_client import (
    GC_COLLECTOR,
    PLATFORM_COLLECTOR,
    PROCESS_COLLECTOR,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
)

# A counter's ``_created`` twin doubles every series and graphs as nothing; the registry's own
# collectors omit it too, so no series comes twice.
disable_created_metrics()  # type: ignore[no-untyped-call]

#: Seconds a computer may take to choose: most moves are quick, a search takes up to about a second.
DECISION_BUCKETS = (0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0)
#: Seconds for what a member waits on: a call to Discord, a move's commit, a page, a move shown.
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


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
        self.call_seconds = Histogram(
            "tabletop_discord_request_seconds", "How long calls to Discord's REST API took, by route (retries included)",
            ["kind"], buckets=LATENCY_BUCKETS, registry=r,
        )
        self.commit_seconds = Histogram(
            "tabletop_move_commit_seconds", "From a member's move entering to its commit (the table's lock included)",
            ["game"], buckets=LATENCY_BUCKETS, registry=r,
        )
        self.shown_seconds = Histogram(
            "tabletop_move_shown_seconds", "From a move's commit to every Discord surface of its table showing it",
            buckets=LATENCY_BUCKETS, registry=r,
        )
        self.page_seconds = Histogram(
            "tabletop_page_seconds", "How long web pages took to answer, by route (live streams apart)",
            ["route"], buckets=LATENCY_BUCKETS, registry=r,
        )
        self.viewers = Gauge("tabletop_live_viewers", "Live streams open on the web pages", registry=r)
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
        for collector in (PROCESS_COLLECTOR, PLATFORM_COLLECTOR, GC_COLLECTOR):  # the standard ones
            r.register(collector)
        self.log_counters = LogCounters(self)

    def watch_viewers(self, count: Callable[[], int]) -> None:
        """The live viewers, counted when scraped."""
        self.viewers.set_function(count)

    # ---- Meters ------------------------------------------------------------------------------------
    def moved(self, game: str, by: str, count: int = 1) -> None:
        self.moves.labels(game, by).inc(count)

    def decided(self, game: str, level: str, seconds: float) -> None:
        self.decisions.labels(game, level).observe(seconds)

    def called(self, kind: str, outcome: str, seconds: float = 0.0) -> None:
        self.calls.labels(kind, outcome).inc()
        self.call_seconds.labels(kind).observe(seconds)

    def committed(self, game: str, seconds: float) -> None:
        self.commit_seconds.labels(game).observe(seconds)

    def shown(self, seconds: float) -> None:
        self.shown_seconds.observe(seconds)

    def served(self, route: str, seconds: float) -> None:
        self.page_seconds.labels(route).observe(seconds)

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
        """Listen to the log. discord.py reports its 429s as warnings: its HTTP logger lets them
        through whatever ``log_level`` says, and the log's own handler, which carries that level
        (``bot/main.py``), keeps them off the screen when it is above WARNING."""
        logging.getLogger().addHandler(self)
        http = logging.getLogger("discord.http")
        if http.getEffectiveLevel() > logging.WARNING:
            http.setLevel(logging.WARNING)

    def remove(self) -> None:
        logging.getLogger().removeHandler(self)
