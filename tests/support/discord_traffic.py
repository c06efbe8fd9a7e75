"""The fake Discord's traffic: every REST call counted by kind and channel, and injected faults.

Tests compute from the calls how much the bot asked of Discord (calls per accepted move, the
busiest channel's calls in any 5 s), and make chosen routes fail the way Discord does: 403 with a
Discord error code, 429 with ``retry_after`` and the ``X-RateLimit-*`` headers discord.py reads
(discord.py retries a 429 by itself, up to 5 tries, and a 500/502 after 1, 3, 5 and 7 s), 500,
502, or a slow answer.
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

# (method, path pattern, kind); the first match names the call. {c} is a channel id.
ROUTES = [
    ("POST", r"^/interactions/(\d+)/[^/]+/callback$", "callback"),
    ("POST", r"^/webhooks/\d+/[^/]+$", "followup.create"),
    ("PATCH", r"^/webhooks/\d+/[^/]+/messages/[^/]+$", "followup.edit"),
    ("GET", r"^/webhooks/\d+/[^/]+/messages/[^/]+$", "followup.get"),
    ("DELETE", r"^/webhooks/\d+/[^/]+/messages/[^/]+$", "followup.delete"),
    ("POST", r"^/channels/(\d+)/messages/bulk-delete$", "message.bulk_delete"),
    ("POST", r"^/channels/(\d+)/messages/\d+/threads$", "thread.create"),
    ("POST", r"^/channels/(\d+)/threads$", "thread.create"),
    ("POST", r"^/channels/(\d+)/messages$", "message.create"),
    ("GET", r"^/channels/(\d+)/messages$", "message.list"),
    ("PATCH", r"^/channels/(\d+)/messages/\d+$", "message.edit"),
    ("DELETE", r"^/channels/(\d+)/messages/\d+$", "message.delete"),
    ("GET", r"^/channels/(\d+)/messages/\d+$", "message.get"),
    ("GET", r"^/channels/(\d+)$", "channel.get"),
    ("PATCH", r"^/channels/(\d+)$", "channel.edit"),
    ("POST", r"^/guilds/\d+/channels$", "channel.create"),
    ("POST", r"^/users/@me/channels$", "dm.open"),
    ("GET", r"^/users/@me$", "login"),
    ("GET", r"^/users/\d+$", "user.get"),
    ("GET", r"^/oauth2/applications/@me$", "login"),
    ("GET", r"^/gateway/bot$", "login"),
    ("PUT", r"^/applications/\d+/commands$", "commands.sync"),
    ("PUT", r"^/applications/\d+/guilds/\d+/commands$", "commands.sync"),
    ("GET", r"^/applications/\d+/commands$", "commands.sync"),  # the Entry Point command, kept
]
CALL = web.RequestKey("call", object)  # the Call being served, in the request's storage
_COMPILED = [(m, re.compile(p), k) for m, p, k in ROUTES]


def classify(method: str, path: str) -> tuple[str, str | None]:
    """(kind, channel id or None) of a call; an unlisted route is ``other``."""
    for m, pattern, kind in _COMPILED:
        match = pattern.match(path)
        if m == method and match:
            channel = match.group(1) if pattern.groups and kind != "callback" else None
            return kind, channel
    return "other", None


@dataclass
class Call:
    """One HTTP request the fake received (path relative to the API base)."""

    method: str
    path: str
    query: dict[str, str]
    body: Any
    kind: str = "other"
    channel_id: str | None = None
    place: str | None = None  # "channel", "thread" or "dm" for calls on a channel
    at: float = field(default_factory=time.monotonic)
    status: int | None = None
    files: list[dict[str, Any]] = field(default_factory=list)  # uploads: index, filename, size

    @property
    def label(self) -> str:
        """The kind with where it went: ``dm.message.edit``, ``thread.message.create``, ``callback.7``."""
        if self.kind == "callback" and isinstance(self.body, dict):
            return f"callback.{self.body.get('type')}"
        return f"{self.place}.{self.kind}" if self.place and self.kind.startswith("message.") else self.kind

    def __str__(self) -> str:
        return f"{self.method} {self.path}"


def count_by_kind(calls: Iterable[Call]) -> Counter[str]:
    return Counter(c.label for c in calls)


def most_within(stamps: list[float], window: float) -> int:
    """The most of these times that fall within any ``window`` seconds."""
    stamps = sorted(stamps)
    best = start = 0
    for end, t in enumerate(stamps):
        while t - stamps[start] > window:
            start += 1
        best = max(best, end - start + 1)
    return best


def busiest_channel(calls: Iterable[Call], window: float = 5.0) -> tuple[str | None, int]:
    """The channel with the most calls in any ``window`` seconds, and that count.

    Only calls on a channel count (messages, threads): Discord limits those per channel, while
    interaction responses have limits of their own.
    """
    times: dict[str, list[float]] = defaultdict(list)
    for call in calls:
        if call.channel_id is not None:
            times[call.channel_id].append(call.at)
    counts = {channel: most_within(stamps, window) for channel, stamps in times.items()}
    channel = max(counts, key=counts.__getitem__, default=None)
    return channel, counts.get(channel, 0)


#: Calls on these routes are answers to interactions, which Discord's global limit does not count.
INTERACTION_KINDS = frozenset({"callback", "followup.create", "followup.edit", "followup.get", "followup.delete"})


def busiest_second(calls: Iterable[Call], window: float = 1.0) -> int:
    """The most calls in any ``window`` seconds that count towards Discord's global limit (50 a
    second for a bot): every call but the answers to interactions."""
    return most_within([c.at for c in calls if c.kind not in INTERACTION_KINDS], window)


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    # discord.py decodes a body only when Content-Type is exactly "application/json":
    # web.json_response would add "; charset=utf-8" and the bot would get a str back.
    return web.Response(
        body=json.dumps(data).encode(), status=status, content_type="application/json", headers=headers
    )


def error_response(status: int, message: str, code: int = 0) -> web.Response:
    return json_response({"message": message, "code": code}, status=status)


def rate_limit_response(retry_after: float, *, is_global: bool = False, bucket: str = "fake") -> web.Response:
    headers = {
        "Via": "1.1 google",  # without it discord.py takes a 429 for a Cloudflare ban and gives up
        "Retry-After": str(max(1, round(retry_after))),
        "X-RateLimit-Limit": "5",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": f"{time.time() + retry_after:.3f}",
        "X-RateLimit-Reset-After": f"{retry_after:.3f}",
        "X-RateLimit-Bucket": bucket,
        "X-RateLimit-Scope": "global" if is_global else "user",
    }
    if is_global:
        headers["X-RateLimit-Global"] = "true"
    body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": is_global}
    return json_response(body, status=429, headers=headers)


FAULT_TEXT = {
    403: "Missing Access",
    404: "Unknown Message",
    500: "500: Internal Server Error",
    502: "<html><body><h1>502 Bad Gateway</h1></body></html>",  # Cloudflare's page, not JSON
    503: "upstream connect error",
}
CLOSED_DMS = 50007  # "Cannot send messages to this user"


@dataclass
class Fault:
    """Make matching calls fail (``status``) and/or answer late (``delay`` seconds before the call
    is carried out, ``after`` seconds once it is).

    A call matches when every given filter does: ``kind`` (a prefix of :attr:`Call.label`, e.g.
    ``"dm.message.edit"`` or ``"channel.message"``), ``method``, ``path`` (a regex searched in the
    path) and ``channel_id`` (one id or several). ``times`` limits how many calls it hits (None: until removed).
    """

    kind: str | None = None
    method: str | None = None
    path: str | None = None
    channel_id: str | Collection[str] | None = None
    status: int = 0
    code: int = 0
    retry_after: float = 0.05
    is_global: bool = False
    delay: float = 0.0
    after: float = 0.0  # seconds between doing what the call asked and answering it (a slow way back)
    times: int | None = None
    hits: list[Call] = field(default_factory=list)

    def matches(self, call: Call) -> bool:
        if self.times is not None and len(self.hits) >= self.times:
            return False
        if self.kind is not None and not call.label.startswith(self.kind):
            return False
        if self.method is not None and call.method != self.method:
            return False
        if self.path is not None and not re.search(self.path, call.path):
            return False
        if isinstance(self.channel_id, str):
            return call.channel_id == self.channel_id
        return self.channel_id is None or call.channel_id in self.channel_id

    def response(self) -> web.Response | None:
        if not self.status:
            return None
        if self.status == 429:
            return rate_limit_response(self.retry_after, is_global=self.is_global)
        text = FAULT_TEXT.get(self.status, f"{self.status}: Error")
        if text.startswith("<"):
            return web.Response(text=text, status=self.status, content_type="text/html")
        return error_response(self.status, text, self.code)
