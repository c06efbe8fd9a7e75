"""A server's pages: its index (its open tables, the games rated there, its events), each game's
leaderboard, and each member's profile in a game with their rating history, as ``/leaderboard`` and
``/profile`` show them.

A server's address is signed as a table's is; a member's profile is signed for that server alone. An
index lists a table or an event only when @everyone can see its channel (``Site.listed``).

The index is live, as an event's page is: ``PageRows.server_stamps`` reads what it shows of every
watched server in one round of queries (``POLL``), each viewer waits on its server's topic, and the
index is drawn once per change and language, whoever watches (``DRAWINGS`` kept).
"""

from __future__ import annotations

import contextlib
import json
from collections import OrderedDict
from datetime import datetime
from typing import Any

from aiohttp import web

from bot.core.games import REGISTRY
from bot.core.i18n import Lang
from bot.ratings import model
from bot.ratings.store import Player, RatingStore
from bot.storage.events import TournamentStore
from bot.storage.pages import PageRows
from bot.web.app import Routes, ended_or_waited, event_stream, language, one
from bot.web.chart import history_svg
from bot.web.event_pages import STAMP, EventFeed, digest
from bot.web.live import POLL
from bot.web.markup import escape, time_tag
from bot.web.open_tables import open_tables_html
from bot.web.pages import chosen, links_html
from bot.web.site import Site

LEADERBOARD = 100
RECENT = 10
HISTORY = 200
SIGNED = r"[0-9]+-[A-Za-z0-9_-]+"
EVENT_STATUSES = ("signup", "running", "finished")
DRAWINGS = 64  # server indexes kept drawn, by server, stamp and language


def game_name(game: str, tr: Lang) -> str:
    return tr(f"{game}.name")


class BoardRoutes:
    def __init__(self, site: Site, ratings: RatingStore, events: TournamentStore, poll: float = POLL) -> None:
        self.site = site
        self.ratings = ratings
        self.events = events
        self.stamps = PageRows(site.store.db).server_stamps
        self.feed = EventFeed(self.stamps, poll)  # the watched servers, polled together
        self.drawings: OrderedDict[tuple[Any, ...], tuple[str, str]] = OrderedDict()

    async def close(self) -> None:
        await self.feed.close()

    def add(self, router: web.UrlDispatcher, pages: Routes) -> None:
        self.pages = pages
        router.add_get(f"/s/{{server:{SIGNED}}}", self.server)
        router.add_get(f"/s/{{server:{SIGNED}}}/live", self.server_live)  # before a game's board: no game is "live"
        router.add_get(f"/s/{{server:{SIGNED}}}/{{game:[a-z_]{{1,40}}}}", self.leaderboard)
        router.add_get(f"/s/{{server:{SIGNED}}}/{{game:[a-z_]{{1,40}}}}/{{player:{SIGNED}}}", self.profile)

    # ---- finding what a page is of ------------------------------------------------------------------
    async def guild(self, request: web.Request) -> int:
        """The server of the address; 404 for one not signed here or whose pages are off."""
        guild_id = self.site.signer.number(request.match_info["server"], "server")
        if guild_id is None or not await self.site.shown(guild_id):
            raise web.HTTPNotFound()
        return guild_id

    def game(self, request: web.Request) -> str:
        game = request.match_info["game"]
        if game not in REGISTRY:
            raise web.HTTPNotFound()
        return game

    def language(self, request: web.Request) -> Lang:
        return language(request, "en")

    # ---- pages --------------------------------------------------------------------------------------
    async def server(self, request: web.Request) -> web.StreamResponse:
        guild_id = await self.guild(request)
        tr = self.language(request)
        stamp = await self.stamp(guild_id)
        title, body = await self.drawn(guild_id, stamp, tr, fresh=True)
        main = {"live": self.site.link(self.site.server_path(guild_id, "/live"), s=stamp, lang=chosen(tr))}
        return self.pages.html(request, tr, title, body, script="live.js", main=main)

    async def stamp(self, guild_id: int) -> str:
        return digest((await self.stamps([guild_id])).get(guild_id))

    async def drawn(self, guild_id: int, stamp: str, tr: Lang, fresh: bool = False) -> tuple[str, str]:
        """(title, body) of the index as of ``stamp``, drawn once per language; ``fresh``: drawn
        again (a page asked for: its boards too are as they are now)."""
        key = (guild_id, stamp, tr.language, chosen(tr))
        found = None if fresh else self.drawings.get(key)
        if found is None:
            found = self.drawings[key] = await self.draw(guild_id, tr)
            while len(self.drawings) > DRAWINGS:
                self.drawings.popitem(last=False)
        return found

    async def server_live(self, request: web.Request) -> web.StreamResponse:
        """Server-sent events: the index's body again whenever what it shows changed."""
        guild_id = await self.guild(request)
        tr = self.language(request)
        seen = one(request, "s")
        if seen is not None and not STAMP.match(seen):
            raise web.HTTPBadRequest()
        response = await event_stream(request)
        with contextlib.suppress(ConnectionResetError):
            async with self.feed.watch(guild_id, await self.stamp(guild_id)) as topic:
                while not self.pages.closing:
                    changed, stamp = topic.changed, topic.stamp
                    if stamp != seen:
                        if not await self.site.shown(guild_id):
                            break  # the server turned its pages off meanwhile
                        title, body = await self.drawn(guild_id, stamp, tr)
                        data = json.dumps({"version": stamp, "title": title, "html": body})
                        await response.write(f"event: page\ndata: {data}\n\n".encode())
                        seen = stamp
                    await ended_or_waited(response, False, changed)
        return response

    async def draw(self, guild_id: int, tr: Lang) -> tuple[str, str]:
        title = tr("web.server.title")
        parts = [f"<h1>{escape(title)}</h1>", await open_tables_html(self.site, guild_id, tr)]
        parts.append(f'<section class="boards"><h2>{escape(tr("web.server.boards"))}</h2>')
        rated = [(g, n) for g, n in await self.ratings.games_rated(guild_id) if g in REGISTRY]
        if rated:
            items = "".join(
                f'<li><a href="{escape(self.site.link(self.site.server_path(guild_id, "/" + g), lang=chosen(tr)))}">'
                f"{escape(game_name(g, tr))}</a> · {escape(tr('web.server.players', count=n))}</li>"
                for g, n in rated
            )
            parts.append(f"<ul>{items}</ul>")
        else:
            parts.append(f"<p>{escape(tr('web.server.no_boards'))}</p>")
        parts.append("</section>")
        parts.append(await self.events_html(guild_id, tr))
        return title, "\n".join(parts)

    async def events_html(self, guild_id: int, tr: Lang) -> str:
        items = []
        for t in await self.events.in_guild(guild_id, EVENT_STATUSES):
            if not await self.site.listed(guild_id, t.channel_id):
                continue
            href = self.site.link(self.site.event_path(t.id), lang=chosen(tr))
            state = tr(f"web.event.status.{t.status}")
            items.append(f'<li><a href="{escape(href)}">{escape(t.name)}</a> · {escape(game_name(t.game, tr))} · {escape(state)}</li>')
        body = f"<ul>{''.join(items)}</ul>" if items else f"<p>{escape(tr('web.server.no_events'))}</p>"
        return f'<section class="events"><h2>{escape(tr("web.server.events"))}</h2>{body}</section>'

    async def leaderboard(self, request: web.Request) -> web.StreamResponse:
        guild_id, game = await self.guild(request), self.game(request)
        tr = self.language(request)
        players = await self.ratings.leaderboard(guild_id, game, LEADERBOARD)
        title = tr("web.board.title", game=game_name(game, tr))
        parts = [f"<h1>{escape(title)}</h1>", f'<p class="hint">{escape(tr("rating.explained"))}</p>']
        if players:
            parts.append(self.board_html(guild_id, game, players, tr))
        else:
            parts.append(f"<p>{escape(tr('rating.nobody'))}</p>")
        parts.append(links_html([(tr("web.server.title"), self.site.link(self.site.server_path(guild_id), lang=chosen(tr)))]))
        return self.pages.html(request, tr, title, "\n".join(parts), script="live.js")

    def board_html(self, guild_id: int, game: str, players: list[Player], tr: Lang) -> str:
        head = "".join(
            f'<th scope="col">{escape(tr(key))}</th>'
            for key in ("web.board.rank", "web.board.player", "rating.rating", "rating.games", "rating.wins")
        )
        rows = []
        for rank, p in enumerate(players, start=1):
            href = self.site.link(self.profile_path(guild_id, game, p.user_id), lang=chosen(tr))
            rows.append(
                f'<tr><td>{rank}</td><th scope="row"><a href="{escape(href)}">{escape(p.name)}</a></th>'
                f"<td>{p.shown}</td><td>{p.games}</td><td>{p.wins}</td></tr>"
            )
        caption = escape(tr("web.board.caption", game=game_name(game, tr)))
        return f'<table class="board"><caption>{caption}</caption><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'

    def profile_path(self, guild_id: int, game: str, user_id: int) -> str:
        return self.site.server_path(guild_id, f"/{game}/{self.site.player_token(guild_id, user_id)}")

    async def profile(self, request: web.Request) -> web.StreamResponse:
        guild_id, game = await self.guild(request), self.game(request)
        user_id = self.site.signer.number(request.match_info["player"], f"player:{guild_id}")
        player = None if user_id is None else await self.ratings.player(guild_id, game, user_id)
        if user_id is None or player is None:
            raise web.HTTPNotFound()
        tr = self.language(request)
        history = await self.ratings.history(guild_id, game, user_id, HISTORY)
        values = [model.display(model.Rating(h["mu"], h["sigma"])) for h in history]
        if len(history) == player.games:
            values.insert(0, model.display(model.fresh()))  # where everyone starts
        title = tr("rating.profile_title", name=player.name, game=game_name(game, tr))
        stats = "".join(
            f"<div><dt>{escape(tr(key))}</dt><dd>{value}</dd></div>"
            for key, value in (("rating.rating", player.shown), ("rating.games", player.games), ("rating.wins", player.wins))
        )
        label = tr("web.profile.chart", count=len(values), first=values[0], last=values[-1]) if values else tr("web.profile.history")
        parts = [
            f"<h1>{escape(title)}</h1>",
            f'<dl class="stats">{stats}</dl>',
            f'<section class="history"><h2>{escape(tr("web.profile.history"))}</h2>{history_svg(values, label)}</section>',
            await self.recent_html(guild_id, history[-RECENT:][::-1], tr),
        ]
        others = [g for g in await self.ratings.games_of(guild_id, user_id) if g != game and g in REGISTRY]
        links = [(game_name(g, tr), self.site.link(self.profile_path(guild_id, g, user_id), lang=chosen(tr))) for g in others]
        if links:
            parts.append(f'<section><h2>{escape(tr("rating.other_games"))}</h2>{links_html(links)}</section>')
        board = self.site.link(self.site.server_path(guild_id, f"/{game}"), lang=chosen(tr))
        parts.append(links_html([(tr("web.board.title", game=game_name(game, tr)), board)]))
        return self.pages.html(request, tr, title, "\n".join(parts), script="live.js")

    async def recent_html(self, guild_id: int, recent: list[dict[str, Any]], tr: Lang) -> str:
        """The latest rated tables; each links its replay when @everyone could see where it was played."""
        items = []
        for h in recent:
            line = escape(tr("web.profile.place", place=h["place"], places=h["places"]))
            table = await self.site.read(h["table_id"])
            if table is not None and table.status == "finished" and await self.site.table_listed(table):
                href = self.site.href(table.id, "/replay", lang=chosen(tr))
                line = f'<a href="{escape(href)}">{line}</a>'
            items.append(f"<li>{line} · {when(h['at'])}</li>")
        body = f"<ol>{''.join(items)}</ol>" if items else "<p>—</p>"
        return f'<section class="recent"><h2>{escape(tr("rating.recent"))}</h2>{body}</section>'


def when(at: str) -> str:
    try:
        return time_tag(datetime.fromisoformat(at).timestamp())
    except ValueError:
        return escape(at)
