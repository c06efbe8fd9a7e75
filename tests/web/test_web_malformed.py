"""What the web server logs of requests from outside: one it cannot read (a header or a request
line over 8 KB, a line that is not HTTP) is answered 400 and logged as one INFO line, never as an
ERROR with a traceback (anyone could fill the operators' log with those); an error in a page's own
code still is an ERROR, with its traceback."""

from __future__ import annotations

import asyncio
import logging

from aiohttp import web

from bot.web.app import WebServer
from bot.web.live import LiveFeed
from tests.web.test_web_process import free_port

OVERSIZED = [
    b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n",  # a header over 8 KB
    b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",  # a request line over 8 KB
    b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: nine\r\n\r\n",  # a header that is not a number
]


class Broken:
    """A page whose code fails: what the log must still show as an error."""

    def add(self, router: web.UrlDispatcher, pages: object) -> None:
        router.add_get("/broken", self.broken)

    async def broken(self, request: web.Request) -> web.StreamResponse:
        raise RuntimeError("a bug in a page")

    async def close(self) -> None:
        pass


async def sent(port: int, request: bytes) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request)
    await writer.drain()
    answer = await reader.read(64)
    writer.close()
    return answer


async def test_a_request_the_server_cannot_read_is_an_info_line_and_a_page_s_own_error_an_error(site, caplog):
    caplog.set_level(logging.INFO)
    port = free_port()
    server = WebServer(site, LiveFeed(site.read, site.store.versions), "127.0.0.1", port, [Broken()])
    await server.start()
    try:
        for request in OVERSIZED:
            assert (await sent(port, request)).startswith(b"HTTP/1.0 400"), request[:40]
        assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
        refused = [r for r in caplog.records if "refused a malformed request" in r.getMessage()]
        assert len(refused) == len(OVERSIZED) and all(r.levelno == logging.INFO and not r.exc_info for r in refused)

        assert (await sent(port, b"GET /broken HTTP/1.1\r\nHost: x\r\n\r\n")).startswith(b"HTTP/1.1 500")
        errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert len(errors) == 1 and errors[0].exc_info and "a bug in a page" in str(errors[0].exc_info[1])
    finally:
        await server.close()
