"""The table as a Discord Activity: the JSON API its page calls, under ``/activity/api/``.

A member signs in once (``POST token``: the SDK's code for Discord's access token and a session,
``activity_auth``); every later request names the session in a header (``Authorization: Bearer``
or ``X-Session``; a stream or a picture, which a browser opens without headers, may put it in the
query instead). A refusal is JSON, ``{"error": {"code", "message"}}``, with the catalog key as its
code and the member's language for its words: 401 for a session missing, forged or ended; 403 for
a table of another server, a seat not theirs or a turn not theirs; 409 for a move from a table that
has moved on; 400 for an illegal move or a body that is not what the API takes (nothing changes).
"""

from __future__ import annotations

import contextlib
import json
import math
import re
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from aiohttp import web

from bot.core.engine import IllegalAction
from bot.core.errors import UserError
from bot.core.games import REGISTRY
from bot.core.i18n import Lang
from bot.storage.store import TableRow
from bot.tables import render
from bot.tables.component_input import ACTION, MAX_ID
from bot.tables.deferred import check_place
from bot.tables.moves import Lobby, Moves
from bot.tables.service import TableService
from bot.tables.terms import LEVELS
from bot.web import assets
from bot.web.activity_auth import Buckets, DiscordSignIn, Refused, Session, Sessions
from bot.web.activity_lists import open_tables
from bot.web.activity_requests import (
    NO_STORE,
    bearer,
    json_body,
    locale_checked,
    reader,
    refusal,
    user_status,
)
from bot.web.activity_state import OPEN, States, labels
from bot.web.app import ended_or_waited, event_stream
from bot.web.live import shown
from bot.web.markup import escape
from bot.web.pages import template

if TYPE_CHECKING:
    from bot.web.app import Routes

API = "/activity/api"
TABLE = "{table:[1-9][0-9]{0,18}}"
CODE = re.compile(r"^[A-Za-z0-9._~-]{1,256}$")
INSTANCE = re.compile(r"^[A-Za-z0-9_-]{1,128}$")
NUMBER = re.compile(r"^[1-9][0-9]{0,18}$")
REQUEST = re.compile(r"^[A-Za-z0-9_-]{1,64}$")  # a move's id, the Activity's own: asked again, played once
LOBBY = ("join", "leave", "start", "computer")
STREAMS = 4  # a member's streams open at once (a tab or two, a reconnect overlapping the old one)
#: Member requests: 30 at once, then 5 a second; sign-ins per address: 10 at once, then 1 a second.
RATE, BURST = 5.0, 30.0
SIGN_IN_RATE, SIGN_IN_BURST = 1.0, 10.0
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class ActivityRoutes:
    """The Activity's API, beside the pages (a ``RouteGroup``)."""

    def __init__(self, sessions: Sessions, sign_in: DiscordSignIn, service: TableService, moves: Moves) -> None:
        self.sessions = sessions
        self.discord = sign_in
        self.service = service
        self.moves = moves  # the move service a Discord button calls too: one path for a change
        self.states = States(service.store, service)
        self.requests = Buckets(RATE, BURST)
        self.streams: Counter[int] = Counter()  # member -> their streams open now
        self.sign_ins = Buckets(SIGN_IN_RATE, SIGN_IN_BURST)

    def add(self, router: web.UrlDispatcher, pages: Routes) -> None:
        self.pages = pages
        router.add_get("/activity", self.to_page)
        router.add_get("/activity/", self.page)
        router.add_get(r"/activity/{name:activity\.bundle\.js|activity\.css|style\.css|favicon\.svg}", pages.static)
        router.add_get(f"{API}/config", self.api(self.config))
        router.add_post(f"{API}/token", self.api(self.token))
        router.add_get(f"{API}/me", self.api(self.me))
        router.add_get(f"{API}/tables", self.api(self.tables))
        router.add_get(f"{API}/table/{TABLE}", self.api(self.state))
        router.add_get(f"{API}/table/{TABLE}/table.png", self.api(self.table_picture))
        router.add_get(f"{API}/table/{TABLE}/hand.png", self.api(self.hand_picture))
        router.add_get(f"{API}/table/{TABLE}/events", self.api(self.events))
        router.add_post(f"{API}/table/{TABLE}/move", self.api(self.move))
        for verb in LOBBY:
            router.add_post(f"{API}/table/{TABLE}/{verb}", self.api(self.lobby_change(verb)))

    async def close(self) -> None:
        pass

    # ---- the page --------------------------------------------------------------------------------
    async def page(self, request: web.Request) -> web.StreamResponse:
        """The Activity's page. Its files and API are asked for by relative addresses, so it works
        at ``/activity/`` here and at the root of Discord's proxy mapped to it."""
        tr = reader(request, None)
        text = template("activity.html").substitute(
            lang=tr.language,
            title=escape(tr("web.site")),
            connecting=escape(tr("activity.label.connecting")),
            style=assets.FILES["style.css"].version,
            activity_style=assets.FILES["activity.css"].version,
            script=assets.FILES["activity.bundle.js"].version,
            icon=assets.FILES["favicon.svg"].version,
        )
        return web.Response(text=text, content_type="text/html", charset="utf-8", headers={"Cache-Control": "no-cache"})

    async def to_page(self, request: web.Request) -> web.StreamResponse:
        return web.Response(status=308, headers={"Location": "activity/"})

    # ---- plumbing --------------------------------------------------------------------------------
    def api(self, handler: Handler) -> Handler:
        """``handler``, its refusals answered as JSON in the asker's language."""

        async def answer(request: web.Request) -> web.StreamResponse:
            try:
                return await handler(request)
            except Refused as exc:
                response = refusal(reader(request, None), exc.status, exc.code, exc.code)
                if exc.retry_after is not None:
                    response.headers["Retry-After"] = str(max(1, math.ceil(exc.retry_after)))
                return response
            except UserError as exc:
                tr = reader(request, None)
                return refusal(tr, user_status(exc.key), exc.key, tr(exc.key, **exc.params))
            except IllegalAction as exc:
                return await self.illegal(request, exc)

        return answer

    async def illegal(self, request: web.Request, exc: IllegalAction) -> web.Response:
        """A move the rules refuse, in the game's words: 403 when it was not the member's turn."""
        table = await self.service.table(int(request.match_info["table"]))
        tr = reader(request, table.language)
        key = f"{table.game}.error.{exc.code}"
        code = key if tr.has(key) else f"error.{exc.code}"
        text = render.refusal(table.game, exc, render.seat_names(table, tr), tr)
        return refusal(tr, 403 if exc.code == "not_your_turn" else 400, code, text)

    def session(self, request: web.Request, query: bool = False) -> Session:
        """The asker's session, from a header (or, for a stream or a picture, ``?session=``); each
        member's requests are counted (``Buckets``)."""
        token = request.headers.get("X-Session") or bearer(request.headers.get("Authorization", ""))
        if not token and query:
            token = request.query.get("session")
        session = self.sessions.read(token)
        wait = self.requests.take(session.member_id)
        if wait:
            raise Refused(429, "activity.rate_limited", wait)
        return session

    async def table(self, request: web.Request, session: Session) -> tuple[TableRow, Lang]:
        """The table the request names, if the member may see it from where the Activity runs,
        and the language to show it in. The Activity's server is the one Discord confirmed at
        sign-in; a ``?guild=`` naming another is refused, as is a table of another server (403).
        A session no instance confirmed sees only tables where its member is seated, as a DM does."""
        locale_checked(request)
        asked = request.query.getall("guild", [])
        if len(asked) > 1 or (asked and not NUMBER.match(asked[0])):
            raise Refused(400, "activity.bad_request")
        if asked and session.guild_id is not None and int(asked[0]) != session.guild_id:
            raise Refused(403, "activity.wrong_guild")
        table_id = int(request.match_info["table"])
        if table_id > MAX_ID:
            raise UserError("error.no_such_table")
        table = await self.service.table(table_id)
        if asked and table.guild_id is not None and table.guild_id != int(asked[0]):
            raise UserError("error.wrong_server")
        check_place(session.guild_id, session.member_id, table)
        return table, reader(request, table.language)

    # ---- before a table ----------------------------------------------------------------------------
    async def config(self, request: web.Request) -> web.StreamResponse:
        """``{client_id, labels}``: what the page needs before it can talk to Discord (the SDK is
        made with the application's id) and the words it shows until a table speaks for itself."""
        locale_checked(request)
        client_id = self.discord.client_id()
        if client_id is None:
            raise Refused(503, "activity.not_ready")
        return web.json_response({"client_id": str(client_id), "labels": labels(reader(request, None))}, headers=NO_STORE)

    async def tables(self, request: web.Request) -> web.StreamResponse:
        """The tables the member may open from where the Activity runs (``activity_lists``)."""
        session = self.session(request)
        locale_checked(request)
        tr = reader(request, None)
        found = await open_tables(self.service.store, session, tr)
        return web.json_response({**found, "labels": labels(tr)}, headers=NO_STORE)

    # ---- the table -------------------------------------------------------------------------------
    async def state(self, request: web.Request) -> web.StreamResponse:
        """The table as the member sees it: everything public, and their own hand only."""
        session = self.session(request)
        table, tr = await self.table(request, session)
        return web.json_response(await self.states.of(table, session.member_id, tr), headers=NO_STORE)

    async def table_picture(self, request: web.Request) -> web.StreamResponse:
        """The table's picture, as its page shows it (``?v=``: the version, for the browser's cache)."""
        session = self.session(request, query=True)
        table, tr = await self.table(request, session)
        fragment = await self.pages.site.live(table, tr, picture=True)
        if fragment.image is None:
            raise Refused(404, "activity.picture_none")
        return web.Response(body=fragment.image, content_type="image/png", headers=NO_STORE)

    async def hand_picture(self, request: web.Request) -> web.StreamResponse:
        """The picture of the member's own prompt (a board with their moves marked), theirs only."""
        session = self.session(request, query=True)
        table, tr = await self.table(request, session)
        seat = table.seat_of(session.member_id)
        engine = await self.states.engine(table)
        image = None
        if seat is not None and engine is not None:
            image = REGISTRY[table.game].prompt(engine, seat, render.seat_names(table, tr), tr).image
        if image is None:
            raise Refused(404, "activity.picture_none")
        return web.Response(body=image, content_type="image/png", headers=NO_STORE)

    async def events(self, request: web.Request) -> web.StreamResponse:
        """Server-sent events: the member's state (``event: state``, its id the table's version) at
        every version committed, whoever made it and through whatever surface, then ``end`` once
        the table is over, or ``expired`` once the session is. A stream reopened with the version
        it had (``Last-Event-ID``, or ``?v=``) gets only what came after. Each member's state is
        drawn for them: a seat's hand goes down its own player's stream only."""
        session = self.session(request, query=True)
        table, tr = await self.table(request, session)
        held = request.headers.get("Last-Event-ID") or request.query.get("v") or ""
        if self.streams[session.member_id] >= STREAMS:
            raise Refused(429, "activity.rate_limited", 1.0)
        self.streams[session.member_id] += 1
        try:
            response = await event_stream(request)
            with contextlib.suppress(ConnectionResetError):
                await self.follow(response, table, session, tr, shown(table) if held == str(table.version) else None)
            return response
        finally:
            self.streams[session.member_id] -= 1
            if self.streams[session.member_id] <= 0:
                del self.streams[session.member_id]

    async def follow(self, response: web.StreamResponse, table: TableRow, session: Session, tr: Lang, sent: object) -> None:
        member = session.member_id
        async with self.pages.feed.watch(table) as topic:  # one read per change, however many watch
            while not self.pages.closing:
                changed, row = topic.changed, topic.row
                if self.sessions.now() >= session.expires:
                    await response.write(b"event: expired\ndata: {}\n\n")
                    return
                if shown(row) != sent:
                    try:
                        check_place(session.guild_id, member, row)  # a seat left since: still theirs to see?
                    except UserError as exc:
                        await response.write(f"event: refused\ndata: {json.dumps({'code': exc.key})}\n\n".encode())
                        return
                    state = await self.states.of(row, member, tr)
                    data = json.dumps(state, ensure_ascii=False, separators=(",", ":"))
                    await response.write(f"id: {row.version}\nevent: state\ndata: {data}\n\n".encode())
                    sent = shown(row)
                if await ended_or_waited(response, row.status not in OPEN, changed):
                    return

    # ---- changes ---------------------------------------------------------------------------------
    async def move(self, request: web.Request) -> web.StreamResponse:
        """``{seen, action, request?}``: the member's move, made from the game after ``seen``
        actions, through the move service as a button's is (the same checks, the same transaction,
        the same refusals); ``request``, the Activity's id for it, makes asking again harmless.
        Answers the member's state after it (``again``: it had been played already)."""
        session = self.session(request)  # a header only: a cookie or a link never changes a table
        body = await json_body(request)
        seen, action, asked = body.get("seen"), body.get("action"), body.get("request")
        if not isinstance(seen, int) or isinstance(seen, bool) or not 0 <= seen <= MAX_ID:
            raise Refused(400, "activity.bad_request")
        if not isinstance(action, str) or not ACTION.fullmatch(action):
            raise Refused(400, "activity.bad_request")
        if asked is not None and (not isinstance(asked, str) or not REQUEST.match(asked)):
            raise Refused(400, "activity.bad_request")
        table, tr = await self.table(request, session)
        member, guild = session.member_id, session.guild_id
        played = await self.moves.play(
            table.id, member, seen, action,
            check=lambda row: check_place(guild, member, row),  # again on the row read under the lock
            request=None if asked is None else f"activity:{member}:{asked}",
        )
        state = await self.states.of(played.table, member, tr, played.engine)
        return web.json_response({**state, "again": played.again}, headers=NO_STORE)

    def lobby_change(self, verb: str) -> Handler:
        async def change(request: web.Request) -> web.StreamResponse:
            """Join, leave, start, or seat a computer (``{level}``), as the lobby's buttons do."""
            session = self.session(request)
            body = await json_body(request)
            level = body.get("level", "normal")
            if verb == "computer" and level not in LEVELS:
                raise Refused(400, "activity.bad_request")
            if session.guild_id is None:  # a lobby is its server's: the Activity must run there
                raise Refused(403, "activity.no_instance")
            table, tr = await self.table(request, session)
            member = session.member_id
            changed: Lobby
            if verb == "join":
                changed = await self.moves.join(table.id, member, session.name)
            elif verb == "leave":
                changed = await self.moves.leave(table.id, member)
            elif verb == "start":
                changed = await self.moves.start(table.id, member)
            else:
                changed = await self.moves.add_computer(table.id, member, str(level))
            state = await self.states.of(changed.table, member, tr, changed.engine)
            return web.json_response(state, headers=NO_STORE)

        return change

    # ---- signing in ------------------------------------------------------------------------------
    async def token(self, request: web.Request) -> web.StreamResponse:
        """``{code, instance_id?}`` -> ``{access_token, session, expires_in, member}``: the code
        exchanged at Discord with the client secret, which never leaves this server."""
        wait = self.sign_ins.take(request.remote)
        if wait:
            raise Refused(429, "activity.rate_limited", wait)
        body = await json_body(request)
        code, instance = body.get("code"), body.get("instance_id")
        if not isinstance(code, str) or not CODE.match(code):
            raise Refused(400, "activity.bad_request")
        if instance is not None and (not isinstance(instance, str) or not INSTANCE.match(instance)):
            raise Refused(400, "activity.bad_request")
        access, member = await self.discord.sign_in(code, instance)
        session = self.sessions.issue(member.id, member.name, member.guild_id, member.channel_id)
        return web.json_response(
            {
                "access_token": access,
                "session": session,
                "expires_in": int(self.sessions.life),
                "member": {"id": str(member.id), "name": member.name},
                "guild": None if member.guild_id is None else str(member.guild_id),
                "channel": None if member.channel_id is None else str(member.channel_id),
            },
            headers=NO_STORE,
        )

    async def me(self, request: web.Request) -> web.StreamResponse:
        """Who the session is for, where, and until when."""
        session = self.session(request)
        return web.json_response(
            {
                "member": {"id": str(session.member_id), "name": session.name},
                "guild": None if session.guild_id is None else str(session.guild_id),
                "channel": None if session.channel_id is None else str(session.channel_id),
                "expires": int(session.expires),
            },
            headers=NO_STORE,
        )
