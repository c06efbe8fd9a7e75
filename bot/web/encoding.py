"""How an answer goes out: a validator (ETag) on everything with a body, so a reader who has it
gets a 304 and no body; and text (HTML, CSS, scripts, JSON) compressed for readers who take gzip.
A live page's stream is neither: it is written as it goes."""

from __future__ import annotations

import gzip
import hashlib

from aiohttp import web

COMPRESSED = ("text/html", "text/css", "text/javascript", "application/json", "image/svg+xml")
SMALLEST = 512  # bytes: below this, gzip saves less than its own header costs
LEVEL = 5


def etag(body: bytes) -> str:
    return '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'


def matches(header: str, tag: str) -> bool:
    """Whether ``If-None-Match`` names ``tag`` (weak or strong, as RFC 9110 compares for a GET)."""
    wanted = [t.strip().removeprefix("W/") for t in header.split(",")]
    return "*" in wanted or tag in wanted


def accepts_gzip(request: web.Request) -> bool:
    for item in request.headers.get("Accept-Encoding", "").split(","):
        coding, _, params = item.strip().partition(";")
        if coding.strip().lower() == "gzip":
            return params.strip().replace(" ", "") not in ("q=0", "q=0.0", "q=0.00", "q=0.000")
    return False


def finish(request: web.Request, response: web.StreamResponse) -> web.StreamResponse:
    """``response`` with its validator, as a 304 when the reader has it already, compressed when
    the reader takes it."""
    if not isinstance(response, web.Response) or response.status != 200 or request.method not in ("GET", "HEAD"):
        return response
    body = response.body
    if not isinstance(body, bytes | bytearray) or not body:
        return response
    tag = response.headers.get("ETag") or etag(bytes(body))
    response.headers["ETag"] = tag
    if matches(request.headers.get("If-None-Match", ""), tag):
        kept = {k: v for k, v in response.headers.items() if k in ("ETag", "Cache-Control", "Vary", "Last-Modified")}
        return web.Response(status=304, headers=kept)
    if response.content_type in COMPRESSED and len(body) >= SMALLEST:
        vary = [v.strip() for v in response.headers.get("Vary", "").split(",") if v.strip()]
        response.headers["Vary"] = ", ".join([*vary, "Accept-Encoding"])
        if accepts_gzip(request):
            response.body = gzip.compress(bytes(body), LEVEL, mtime=0)
            response.headers["Content-Encoding"] = "gzip"
    return response
