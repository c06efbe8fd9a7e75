"""The web application: its routes, its answers to bad requests, and the server the bot starts.

Every route reads; none writes (the pages are read-only whatever a visitor sends). A page's id
that is unknown, forged, or of a server that turned its pages off gets the same 404; a malformed
query (a language the pages do not speak, a step that is not a number) gets 400.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

from aiohttp import web

from bot.core.i18n import LANGUAGES, Lang
from bot.core.meters import NO_METERS, Meters
from bot.storage.store import TableRow
from bot.tables import render
from bot.web import assets, frames, pages
from bot.web.encoding import finish
from bot.web.gate import RETRY_AFTER, Overloaded, PageGate
from bot.web.live import LiveFeed, shown
from bot.web.markup import escape
from bot.web.request_log import REQUEST_LOG
from bot.web.site import Site

log = logging.getLogger(__name__)
NUMBER = re.compile(r"^[0-9]{1,9}$")
HEARTBEAT = 20.0  # seconds between comments on an idle live stream, so proxies keep it open
EVENT_STREAM = {"Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


async def event_stream(request: web.Request) -> web.StreamResponse:
    """A live page's server-sent events, started: with the headers every answer carries, as the
    middleware adds them only once the stream is over."""
    response = web.StreamResponse(headers={**headers_for(request.path), **EVENT_STREAM})
    await response.prepare(request)
    return response


async def ended_or_waited(response: web.StreamResponse, ended: bool, changed: asyncio.Event) -> bool:
    """The end of a live page's turn: tell the page its stream is over once what it shows has ended
    (True); else wait for the next change, with a comment every ``HEARTBEAT`` seconds meanwhile."""
    if ended:
        await response.write(b"event: end\ndata: {}\n\n")
        return True
    try:
        await asyncio.wait_for(changed.wait(), HEARTBEAT)
    except TimeoutError:
        await response.write(b":\n\n")
    return False
SHUTDOWN = 1.0
UNGATED = ("/healthz", "/metrics")
HEADERS = {
    # Scripts, pictures and style sheets of the pages' own; style attributes carry a game's colour.
    "Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    # A page's address is its key: it is never sent on to another site.
    "Referrer-Policy": "no-referrer",
    "X-Robots-Tag": "noindex",
}
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def headers_for(path: str) -> dict[str, str]:
    """The pages' headers, or the Activity's (which Discord frames: ``frames``)."""
    return frames.HEADERS if frames.activity_path(path) else HEADERS


class RouteGroup(Protocol):
    """More pages (events, ratings, the operators' addresses), added beside the tables'."""

    def add(self, router: web.UrlDispatcher, pages: Routes) -> None: ...

    async def close(self) -> None:
        """Stop what the group runs (a feed's polling), waking whoever watches."""


def one(request: web.Request, key: str) -> str | None:
    values = request.query.getall(key, [])
    if len(values) > 1:
        raise web.HTTPBadRequest()
    return values[0] if values else None


def number(request: web.Request, key: str) -> int | None:
    value = one(request, key)
    if value is None:
        return None
    if not NUMBER.match(value):
        raise web.HTTPBadRequest()
    return int(value)


def accepted(header: str) -> str | None:
    """The language of ``Accept-Language`` the pages speak that the reader prefers, if any."""
    best, best_q = None, 0.0
    for item in header.split(","):
        tag, _, params = item.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        code = tag.strip().lower().split("-")[0]
        if code in LANGUAGES and q > best_q:
            best, best_q = code, q
    return best


def language(request: web.Request, default: str) -> Lang:
    """``?lang=`` first, then ``Accept-Language``, then ``default`` (a table's own language)."""
    chosen = one(request, "lang")
    if chosen is not None:
        if chosen not in LANGUAGES:
            raise web.HTTPBadRequest()
        return pages.Reader(chosen, chosen=True)
    return pages.Reader(accepted(request.headers.get("Accept-Language", "")) or default, chosen=False)


def gated(request: web.Request) -> bool:
    """Whether a request draws a page (and takes its turn at the gate): not the operators' checks,
    static files, or a live stream (whose drawings, one per version, every viewer shares); nor the
    Activity's changes (a move never waits for a page) or its streams (``bot/web/activity``)."""
    path = request.path
    if path.startswith("/activity/") and (request.method != "GET" or path.endswith("/events")):
        return False
    return not (path in UNGATED or path.startswith("/static/") or path.endswith("/live"))


class Routes:
    def __init__(self, site: Site, feed: LiveFeed, gate: PageGate | None = None, meters: Meters = NO_METERS) -> None:
        self.site = site
        self.meters = meters
        self.feed = feed
        self.gate = gate or PageGate()
        self.closing = False
        self.serving: set[asyncio.Task[Any]] = set()  # the tasks answering a request now

    def html(self, request: web.Request, tr: Lang, title: str, body: str, status: int = 200, **shell: Any) -> web.Response:
        """A page; an error's names no address (it answers alike whatever was asked)."""
        query = {k: v for k, v in request.query.items() if k in ("step",)}
        path = request.path if status == 200 else None
        text = pages.page(pages.Shell(tr, title, self.site.base, path, query, **shell), body)
        # Without ?lang= the reader's Accept-Language chose the page's language (and its links').
        return web.Response(text=text, status=status, content_type="text/html", charset="utf-8", headers={"Vary": "Accept-Language"})

    async def table(self, request: web.Request) -> TableRow:
        table = await self.site.find(request.match_info["token"])
        if table is None:
            raise web.HTTPNotFound()
        return table

    # ---- pages -----------------------------------------------------------------------------------
    async def home(self, request: web.Request) -> web.StreamResponse:
        tr = language(request, "en")
        return self.html(request, tr, tr("web.site"), pages.message(tr, tr("web.site"), tr("web.home")))

    async def static(self, request: web.Request) -> web.StreamResponse:
        """A file of the pages' own, kept a year when asked for by its version (``assets``)."""
        asset = assets.FILES.get(request.match_info["name"])
        if asset is None:
            raise web.HTTPNotFound()
        current = request.query.get("v") == asset.version
        headers = {"ETag": asset.etag, "Cache-Control": assets.FOREVER if current else assets.CHECKED}
        if asset.fresh(request.headers.get("If-None-Match", "")):
            return web.Response(status=304, headers=headers)
        return web.Response(body=asset.body, content_type=asset.type, headers=headers)

    async def live_page(self, request: web.Request) -> web.StreamResponse:
        table = await self.table(request)
        tr = language(request, table.language)
        fragment = await self.site.live(table, tr)
        main = {}
        if table.status in ("lobby", "running"):
            main["live"] = self.site.href(table.id, "/live", v=table.version, lang=pages.chosen(tr))
        return self.html(request, tr, fragment.title, fragment.html, script="live.js", main=main)

    async def live_events(self, request: web.Request) -> web.StreamResponse:
        """Server-sent events: the page's body again at each version of the table, then ``end``."""
        table = await self.table(request)
        tr = language(request, table.language)
        version = number(request, "v")
        last = request.headers.get("Last-Event-ID", "")
        if NUMBER.match(last):
            version = int(last)
        # The page holds this version, drawn (as far as anyone can tell) from the row as it is now.
        seen = shown(table) if version == table.version else None
        response = await event_stream(request)
        with contextlib.suppress(ConnectionResetError):
            async with self.feed.watch(table) as topic:
                while not self.closing:
                    changed, row = topic.changed, topic.row
                    if shown(row) != seen:
                        if not await self.site.shown(row.guild_id):
                            break
                        await response.write(await self.site.live_event(row, tr))
                        seen = shown(row)
                    if await ended_or_waited(response, row.status not in ("lobby", "running"), changed):
                        break
        return response

    async def live_image(self, request: web.Request) -> web.StreamResponse:
        table = await self.table(request)
        tr = language(request, table.language)
        number(request, "v")  # which version: the picture is always the latest one
        fragment = await self.site.live(table, tr, picture=True)
        if fragment.image is None:
            raise web.HTTPNotFound()
        return web.Response(body=fragment.image, content_type="image/png", headers={"Cache-Control": "no-cache", "Vary": "Accept-Language"})

    async def finished(self, request: web.Request) -> TableRow:
        table = await self.table(request)
        if table.status != "finished":
            raise web.HTTPNotFound()
        return table

    async def replay_page(self, request: web.Request) -> web.StreamResponse:
        table = await self.finished(request)
        tr = language(request, table.language)
        replay = await self.site.replay(table)
        step = number(request, "step")
        step = replay.length if step is None else step
        if step > replay.length:
            raise web.HTTPNotFound()
        fragment = await self.site.step(table, replay, step, tr)
        title = tr("web.replay.title", table=render.game_title(table, tr))
        body = "\n".join([
            f"<h1>{escape(title)}</h1>",
            self.site.result_html(table, tr),
            pages.controls_html(step, replay.length, tr),
            f'<div id="step-view">{fragment.html}</div>',
            pages.scores_html(self.site.deal_ends(table, replay, tr), tr, table.game),
            pages.links_html([
                (tr("web.table"), self.site.href(table.id, lang=pages.chosen(tr))),
                (tr("web.export"), self.site.href(table.id, "/export.json")),
            ]),
        ])
        main = {
            "steps": self.site.href(table.id, "/replay/"),
            "lang": tr.language,
            "position": tr("web.replay.step", step="{step}", total="{total}"),
        }
        return self.html(request, tr, title, body, script="replay.js", main=main)

    async def replay_step(self, request: web.Request) -> web.StreamResponse:
        table = await self.finished(request)
        tr = language(request, table.language)
        replay = await self.site.replay(table)
        step = int(request.match_info["step"])
        if step > replay.length:
            raise web.HTTPNotFound()
        picture = request.match_info["kind"] == "png"
        fragment = await self.site.step(table, replay, step, tr, picture)
        if picture:
            if fragment.image is None:
                raise web.HTTPNotFound()
            return web.Response(body=fragment.image, content_type="image/png", headers={"Cache-Control": "max-age=86400"})
        data = {"step": step, "total": replay.length, "title": fragment.title, "html": fragment.html}
        return web.json_response(data, headers={"Cache-Control": "max-age=86400"})

    async def export(self, request: web.Request) -> web.StreamResponse:
        table = await self.finished(request)
        data = await self.site.export(table)
        disposition = f'attachment; filename="table-{table.id}-{table.game}.json"'
        return web.json_response(data, dumps=lambda d: json.dumps(d, ensure_ascii=False, indent=1), headers={"Content-Disposition": disposition})

    # ---- errors and headers --------------------------------------------------------------------------
    @web.middleware
    async def answers(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        started = time.perf_counter()
        task = asyncio.current_task()
        assert task is not None
        self.serving.add(task)  # the server's closing waits for it
        try:
            if gated(request):
                async with self.gate.turn():
                    response = await handler(request)
            else:
                response = await handler(request)
        except Overloaded:
            response = self.error(request, 503, "web.busy")
            response.headers["Retry-After"] = str(RETRY_AFTER)
        except web.HTTPNotFound:
            response = self.error(request, 404, "web.not_found")
        except web.HTTPBadRequest:
            response = self.error(request, 400, "web.bad_request")
        finally:
            self.serving.discard(task)
        for key, value in headers_for(request.path).items():
            response.headers.setdefault(key, value)
        answered = finish(request, response)
        resource = request.match_info.route.resource
        if response.content_type != EVENT_STREAM["Content-Type"]:  # a stream lasts as long as its viewer
            self.meters.served(resource.canonical if resource else "other", time.perf_counter() - started)
        return answered

    def error(self, request: web.Request, status: int, key: str) -> web.Response:
        code = request.query.get("lang")
        tr = Lang(code) if code in LANGUAGES else Lang(accepted(request.headers.get("Accept-Language", "")) or "en")
        return self.html(request, tr, tr(f"{key}.title"), pages.message(tr, tr(f"{key}.title"), tr(f"{key}.text")), status)


def create_app(
    site: Site, feed: LiveFeed, groups: Sequence[RouteGroup] = (), gate: PageGate | None = None,
    meters: Meters = NO_METERS,
) -> tuple[web.Application, Routes]:
    routes = Routes(site, feed, gate, meters)
    app = web.Application(middlewares=[routes.answers])
    token = r"{token:[0-9]+-[A-Za-z0-9_-]+}"
    app.router.add_get("/", routes.home)
    app.router.add_get("/static/{name}", routes.static)
    app.router.add_get(f"/t/{token}", routes.live_page)
    app.router.add_get(f"/t/{token}/live", routes.live_events)
    app.router.add_get(f"/t/{token}/table.png", routes.live_image)
    app.router.add_get(f"/t/{token}/replay", routes.replay_page)
    app.router.add_get(f"/t/{token}/replay/{{step:[0-9]{{1,6}}}}.{{kind:json|png}}", routes.replay_step)
    app.router.add_get(f"/t/{token}/export.json", routes.export)
    for group in groups:
        group.add(app.router, routes)
    return app, routes


class WebServer:
    """The pages, served on ``host:port`` by the bot's own process while it runs."""

    def __init__(
        self,
        site: Site,
        feed: LiveFeed,
        host: str,
        port: int,
        groups: Sequence[RouteGroup] = (),
        gate: PageGate | None = None,
        meters: Meters = NO_METERS,
    ) -> None:
        self.app, self.routes = create_app(site, feed, groups, gate, meters)
        self.groups = groups
        self.feed = feed
        self.host = host
        self.port = port
        self.runner: web.AppRunner | None = None

    async def start(self) -> None:
        """Serve the pages; a port that cannot be had is logged, and the bot plays on without them."""
        runner = web.AppRunner(self.app, access_log=None, shutdown_timeout=SHUTDOWN, logger=REQUEST_LOG)
        await runner.setup()
        try:
            await web.TCPSite(runner, self.host, self.port).start()
        except OSError as exc:
            log.error("web pages: cannot listen on %s:%s (%s); serving none", self.host, self.port, exc)
            await runner.cleanup()
            return
        self.runner = runner
        log.info("web pages on http://%s:%s/", self.host, self.port)

    async def close(self) -> None:
        self.routes.closing = True
        await self.feed.close()
        for group in self.groups:
            await group.close()
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None
        # aiohttp cancels a request still answered after its grace period but does not wait for
        # it: it ends here, before the database and sessions it reads close.
        if self.routes.serving:
            await asyncio.wait(self.routes.serving, timeout=SHUTDOWN)
