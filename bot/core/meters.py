"""What the services count for the operators' ``/metrics``, where it happens: a move committed, a
computer's decision, a call to Discord. A service is handed a ``Meters`` in its constructor; the
default counts nothing, and the web pages' ``bot/web/metrics.py`` counts for Prometheus.

Nothing here knows Prometheus, so every package may count without depending on the web pages.
"""

from __future__ import annotations

from typing import Protocol


class Meters(Protocol):
    """What a service counts with."""

    def moved(self, game: str, by: str, count: int = 1) -> None:
        """``count`` actions committed at a table of ``game``, made by ``by``: "member", "computer"
        (a computer's seat) or "timeout" (a computer for a member whose time ran out)."""

    def decided(self, game: str, level: str, seconds: float) -> None:
        """A computer of ``level`` chose its move at a table of ``game`` in ``seconds``."""

    def called(self, kind: str, outcome: str, seconds: float = 0.0) -> None:
        """A call to Discord's REST API ended after ``seconds``: ``kind`` is its route ("PATCH
        /channels/{channel_id}"), ``outcome`` "ok", the HTTP status of an error ("403", "429" once
        discord.py gave up retrying), or "failed" (no answer: a timeout, a broken connection)."""

    def committed(self, game: str, seconds: float) -> None:
        """A member's move at a table of ``game`` was committed ``seconds`` after it entered (the
        wait for the table's lock included)."""

    def shown(self, seconds: float) -> None:
        """Every Discord surface of a table showed a committed move ``seconds`` after its commit."""

    def served(self, route: str, seconds: float) -> None:
        """A web page of ``route`` (its pattern, "/t/{token}") was answered in ``seconds``."""


class NoMeters:
    """Counts nothing (tools and tests that build a service alone)."""

    def moved(self, game: str, by: str, count: int = 1) -> None:
        pass

    def decided(self, game: str, level: str, seconds: float) -> None:
        pass

    def called(self, kind: str, outcome: str, seconds: float = 0.0) -> None:
        pass

    def committed(self, game: str, seconds: float) -> None:
        pass

    def shown(self, seconds: float) -> None:
        pass

    def served(self, route: str, seconds: float) -> None:
        pass


NO_METERS: Meters = NoMeters()
