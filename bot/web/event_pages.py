"""An event's page (``/e/<signed id>``), kept live as a table's page is, and its exports.

An event has no version number: what its page shows changes with its row, its entrants, its results
and the tables its rounds open, and ``PageRows.event_stamps`` reads all of that for every watched
event in one query a round (``POLL``). Every viewer of an event waits on the same topic, and the page
is drawn once per change and language, whoever watches.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import json
import logging
import re
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from aiohttp import web

from bot.core.i18n import Lang
from bot.events import export
from bot.events.service import TournamentService
from bot.storage.events import Tournament
from bot.web.app import Routes, ended_or_waited, event_stream, language, one
from bot.web.event_view import EventData, event_html
from bot.web.live import POLL
from bot.web.pages import chosen
from bot.web.site import Site

log = logging.getLogger(__name__)
SIGNED = r"[0-9]+-[A-Za-z0-9_-]+"
STAMP = re.compile(r"^[0-9a-f]{16}$")
DRAWINGS = 64
#: name in the address -> (the export's kind, which of its files): every export /tournament export gives.
EXPORTS = {
    "export.csv": ("csv", 0),
    "export.json": ("json", 0),
    "challonge-participants.csv": ("challonge", 0),
    "challonge-matches.csv": ("challonge", 1),
}
LABELS = {"export.csv": "csv", "export.json": "json", "challonge-participants.csv": "participants",
          "challonge-matches.csv": "matches"}
Stamps = Callable[[list[int]], Awaitable[dict[int, tuple[Any, ...]]]]


def digest(stamp: tuple[Any, ...] | None) -> str:
    return hashlib.sha1(repr(stamp).encode()).hexdigest()[:16]


class Topic:
    def __init__(self, stamp: str) -> None:
        self.stamp = stamp
        self.viewers = 0
        self.changed = asyncio.Event()

    def publish(self, stamp: str) -> None:
        if stamp != self.stamp:
            self.stamp = stamp
            self.changed.set()
            self.changed = asyncio.Event()


class EventFeed:
    """The watched events, polled together."""

    def __init__(self, stamps: Stamps, poll: float = POLL) -> None:
        self.stamps = stamps
        self.poll = poll
        self.topics: dict[int, Topic] = {}
        self.poller: asyncio.Task[None] | None = None

    @contextlib.asynccontextmanager
    async def watch(self, event_id: int, stamp: str) -> AsyncIterator[Topic]:
        topic = self.topics.get(event_id)
        if topic is None:
            topic = self.topics[event_id] = Topic(stamp)
        topic.viewers += 1
        if self.poller is None or self.poller.done():
            self.poller = asyncio.create_task(self._poll())
        try:
            yield topic
        finally:
            topic.viewers -= 1
            if topic.viewers == 0 and self.topics.get(event_id) is topic:
                del self.topics[event_id]

    async def _poll(self) -> None:
        while self.topics:
            await asyncio.sleep(self.poll)
            try:
                stored = await self.stamps(sorted(self.topics))
            except Exception:
                log.exception("event pages: polling the events failed")
                continue
            for event_id, topic in list(self.topics.items()):
                topic.publish(digest(stored.get(event_id)))

    async def close(self) -> None:
        for topic in self.topics.values():
            topic.changed.set()
        if self.poller is not None:
            self.poller.cancel()
            await asyncio.gather(self.poller, return_exceptions=True)
        self.topics.clear()


class EventRoutes:
    def __init__(self, site: Site, events: TournamentService, stamps: Stamps, feed: EventFeed) -> None:
        self.site = site
        self.events = events
        self.stamps = stamps
        self.feed = feed
        self.drawings: OrderedDict[tuple[Any, ...], tuple[str, str]] = OrderedDict()

    def add(self, router: web.UrlDispatcher, pages: Routes) -> None:
        self.pages = pages
        router.add_get(f"/e/{{event:{SIGNED}}}", self.page)
        router.add_get(f"/e/{{event:{SIGNED}}}/live", self.live)
        names = "|".join(re.escape(n) for n in EXPORTS)
        router.add_get(f"/e/{{event:{SIGNED}}}/{{file:{names}}}", self.export)

    async def close(self) -> None:
        await self.feed.close()

    async def event_page(self, tournament: Tournament) -> str | None:
        """The event's page as its Discord messages link to it (with a public address), or None."""
        return await self.site.public(tournament.guild_id, self.site.event_path(tournament.id))

    async def tournament(self, request: web.Request) -> Tournament:
        event_id = self.site.signer.number(request.match_info["event"], "event")
        tournament = None if event_id is None else await self.events.store.get(event_id)
        if tournament is None or not await self.site.shown(tournament.guild_id):
            raise web.HTTPNotFound()
        return tournament

    async def stamp(self, tournament: Tournament) -> str:
        return digest((await self.stamps([tournament.id])).get(tournament.id))

    async def drawn(self, tournament: Tournament, stamp: str, tr: Lang) -> tuple[str, str]:
        """(title, body) of the event's page as of ``stamp``, drawn once per language."""
        key = (tournament.id, stamp, tr.language, chosen(tr))
        found = self.drawings.get(key)
        if found is None:
            found = self.drawings[key] = await self.draw(tournament, tr)
            while len(self.drawings) > DRAWINGS:
                self.drawings.popitem(last=False)
        return found

    async def draw(self, t: Tournament, tr: Lang) -> tuple[str, str]:
        ranking = self.events.ranking
        data = EventData(
            t, await self.events.store.round_tables(t.id), await self.events.store.results(t.id),
            await ranking.standings(t), await ranking.team_standings(t),
        )
        for row in data.rounds:
            table = await self.site.read(row.table_id) if row.table_id else None
            if table is not None:
                listed = await self.site.table_listed(table)
                data.tables[table.id] = self.site.href(table.id, lang=chosen(tr)) if listed else None
        if t.round:
            files = ["export.csv", "export.json"]
            if t.table_size == 2 and not t.teams:
                files += ["challonge-participants.csv", "challonge-matches.csv"]
            data.exports = [(tr(f"web.event.file.{LABELS[f]}"), self.site.link(self.site.event_path(t.id, "/" + f))) for f in files]
        return tr("tournament.title", name=t.name, game=tr(f"{t.game}.name")), event_html(data, tr)

    async def page(self, request: web.Request) -> web.StreamResponse:
        tournament = await self.tournament(request)
        tr = language(request, tournament.language)
        stamp = await self.stamp(tournament)
        title, body = await self.drawn(tournament, stamp, tr)
        main = {}
        if tournament.status in ("signup", "running"):
            main["live"] = self.site.link(self.site.event_path(tournament.id, "/live"), s=stamp, lang=chosen(tr))
        return self.pages.html(request, tr, title, body, script="live.js", main=main)

    async def live(self, request: web.Request) -> web.StreamResponse:
        """Server-sent events: the page's body again whenever what it shows changed, then ``end``."""
        tournament = await self.tournament(request)
        tr = language(request, tournament.language)
        seen = one(request, "s")
        if seen is not None and not STAMP.match(seen):
            raise web.HTTPBadRequest()
        response = await event_stream(request)
        with contextlib.suppress(ConnectionResetError):
            async with self.feed.watch(tournament.id, await self.stamp(tournament)) as topic:
                while not self.pages.closing:
                    changed, stamp = topic.changed, topic.stamp
                    if stamp != seen:
                        current = await self.events.store.get(tournament.id)
                        if current is None or not await self.site.shown(current.guild_id):
                            break
                        tournament = current
                        title, body = await self.drawn(tournament, stamp, tr)
                        data = json.dumps({"version": stamp, "title": title, "html": body})
                        await response.write(f"event: page\ndata: {data}\n\n".encode())
                        seen = stamp
                    if await ended_or_waited(response, tournament.status not in ("signup", "running"), changed):
                        break
        return response

    async def export(self, request: web.Request) -> web.StreamResponse:
        tournament = await self.tournament(request)
        kind, index = EXPORTS[request.match_info["file"]]
        if not tournament.round or (kind == "challonge" and (tournament.table_size != 2 or tournament.teams)):
            raise web.HTTPNotFound()
        file = (await export.files(self.events, tournament, kind))[index]
        fp = file.fp
        body = fp.getvalue() if isinstance(fp, io.BytesIO) else fp.read()
        content = "application/json" if file.filename.endswith(".json") else "text/csv"
        return web.Response(
            body=body, content_type=content, charset="utf-8",
            headers={"Content-Disposition": f'attachment; filename="{file.filename}"', "Cache-Control": "no-cache"},
        )
