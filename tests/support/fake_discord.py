"""A minimal fake Discord on loopback, for process-level smoke tests of the real entry point.

It serves just what discord.py 2.7.1 needs to log in, sync application commands, connect to the
gateway and answer one slash command:

* HTTP under ``/api/v10``: ``GET /users/@me``, ``GET /oauth2/applications/@me``,
  ``GET /gateway/bot``, ``PUT /applications/{id}/commands`` and
  ``POST /interactions/{id}/{token}/callback``. Any other route gets a JSON 404 and is logged and
  kept in ``unknown``, so a failing test shows what the bot asked for.
* The gateway on ``/gateway``: HELLO (op 10), heartbeat ACK (op 11) for every heartbeat (op 1),
  READY after IDENTIFY (op 2), and dispatches sent with :meth:`FakeDiscord.dispatch`. Payloads are
  compressed as the connection URL asks (``compress=zlib-stream``; ``zstd-stream`` only when a
  zstd compressor is importable).

Everything received is recorded; tests wait on it with :meth:`FakeDiscord.wait_until`.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import socket
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

log = logging.getLogger("fake_discord")

API_PREFIX = "/api/v10"
GATEWAY_PATH = "/gateway"
EPOCH_MS = 1420070400000


_ids = itertools.count(1)


def snowflake() -> str:
    """A fresh snowflake id, as Discord sends it (a string)."""
    return str(((1_700_000_000_000 - EPOCH_MS) << 22) + next(_ids))


def json_response(data: Any, status: int = 200) -> web.Response:
    # discord.py decodes a body only when Content-Type is exactly "application/json":
    # web.json_response would add "; charset=utf-8" and the bot would get a str back.
    return web.Response(body=json.dumps(data).encode(), status=status, content_type="application/json")


def error_response(status: int, message: str, code: int = 0) -> web.Response:
    return json_response({"message": message, "code": code}, status=status)


@dataclass
class Call:
    """One HTTP request the fake received (path relative to the API base)."""

    method: str
    path: str
    query: dict[str, str]
    body: Any

    def __str__(self) -> str:
        return f"{self.method} {self.path}"


@dataclass
class GatewayConnection:
    ws: web.WebSocketResponse
    query: dict[str, str]
    compress: Callable[[bytes], bytes] | None
    sequence: int = 0
    identified: bool = False
    close_code: int | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


def _compressor(kind: str | None) -> Callable[[bytes], bytes] | None:
    """One streaming context per connection, flushed after every payload, as Discord does."""
    if not kind:
        return None
    if kind == "zlib-stream":
        context = zlib.compressobj()
        return lambda data: context.compress(data) + context.flush(zlib.Z_SYNC_FLUSH)
    if kind == "zstd-stream":
        try:
            import zstandard

            stream = zstandard.ZstdCompressor().compressobj()
            return lambda data: stream.compress(data) + stream.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK)
        except ImportError:
            from compression import zstd  # Python 3.14+

            compressor = zstd.ZstdCompressor()
            return lambda data: compressor.compress(data, mode=zstd.ZstdCompressor.FLUSH_BLOCK)
    raise ValueError(f"unsupported gateway compression {kind!r}")


class FakeDiscord:
    """``async with FakeDiscord(token=...) as fake:`` serves on 127.0.0.1 at an ephemeral port."""

    def __init__(self, *, token: str, heartbeat_interval_ms: int = 41250) -> None:
        self.token = token
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.application_id = snowflake()
        self.bot_user = {
            "id": snowflake(),
            "username": "Tabletop",
            "discriminator": "0",
            "global_name": None,
            "avatar": None,
            "bot": True,
            "verified": True,
            "mfa_enabled": False,
            "flags": 0,
            "public_flags": 0,
        }
        self.owner = {"id": snowflake(), "username": "owner", "discriminator": "0", "avatar": None}
        self.session_id = "fake-session-" + snowflake()

        # What the bot did, in arrival order.
        self.calls: list[Call] = []
        self.unknown: list[str] = []
        self.problems: list[str] = []
        self.gateway_queries: list[dict[str, str]] = []
        self.identifies: list[dict[str, Any]] = []
        self.heartbeats = 0
        self.close_codes: list[int | None] = []

        self._connections: list[GatewayConnection] = []
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self.port = 0

    # ---- lifecycle ----------------------------------------------------------------------------
    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def start(self) -> None:
        app = web.Application(middlewares=[self._middleware])
        app.router.add_get(API_PREFIX + "/users/@me", self._get_me)
        app.router.add_get(API_PREFIX + "/oauth2/applications/@me", self._get_application)
        app.router.add_get(API_PREFIX + "/gateway/bot", self._get_gateway_bot)
        app.router.add_put(API_PREFIX + "/applications/{application_id}/commands", self._put_commands)
        app.router.add_post(API_PREFIX + "/interactions/{interaction_id}/{token}/callback", self._callback)
        app.router.add_get(GATEWAY_PATH, self._gateway)
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=2.0)
        await self._runner.setup()
        await web.SockSite(self._runner, sock).start()
        log.info("fake Discord listening on %s", self.base_url)

    async def close(self) -> None:
        for conn in list(self._connections):
            if not conn.ws.closed:
                await conn.ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}{GATEWAY_PATH}"

    # ---- what tests use -----------------------------------------------------------------------
    def calls_to(self, method: str, prefix: str) -> list[Call]:
        return [c for c in self.calls if c.method == method and c.path.startswith(prefix)]

    async def wait_until(self, predicate: Callable[[], Any], *, timeout: float, what: str) -> Any:
        """Wait until ``predicate()`` is truthy and return it; fail with what was seen so far."""
        async with self._changed:
            try:
                return await asyncio.wait_for(self._changed.wait_for(predicate), timeout)
            except TimeoutError:
                raise AssertionError(f"fake Discord: no {what} within {timeout}s\n{self.summary()}") from None

    def summary(self) -> str:
        lines = [f"  HTTP: {', '.join(map(str, self.calls)) or 'none'}"]
        lines.append(f"  unknown routes: {self.unknown or 'none'}")
        lines.append(f"  gateway connections: {self.gateway_queries or 'none'}")
        lines.append(f"  identifies: {len(self.identifies)}, heartbeats: {self.heartbeats}")
        lines.append(f"  gateway close codes: {self.close_codes or 'none'}")
        if self.problems:
            lines.append(f"  problems: {self.problems}")
        return "\n".join(lines)

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a DISPATCH (op 0) to the identified gateway connection."""
        conn = next((c for c in reversed(self._connections) if c.identified and not c.ws.closed), None)
        if conn is None:
            raise AssertionError(f"fake Discord: no identified gateway connection for {event}")
        await self._send_dispatch(conn, event, data)

    def interaction_create(
        self,
        *,
        command: str,
        subcommand: str | None = None,
        guild_id: str | None = None,
        channel_id: str | None = None,
        locale: str = "en-US",
    ) -> dict[str, Any]:
        """An INTERACTION_CREATE payload for a chat-input slash command used in a guild text channel."""
        guild_id = guild_id or snowflake()
        channel_id = channel_id or snowflake()
        user = {
            "id": snowflake(),
            "username": "alice",
            "discriminator": "0",
            "global_name": "Alice",
            "avatar": None,
        }
        options = [{"name": subcommand, "type": 1, "options": []}] if subcommand else []
        return {
            "id": snowflake(),
            "application_id": self.application_id,
            "type": 2,
            "token": "interaction-token-" + snowflake(),
            "version": 1,
            "data": {"id": snowflake(), "name": command, "type": 1, "options": options},
            "guild_id": guild_id,
            "guild": {"id": guild_id, "locale": "en-US", "features": []},
            "guild_locale": "en-US",
            "channel_id": channel_id,
            "channel": {
                "id": channel_id,
                "type": 0,
                "guild_id": guild_id,
                "name": "games",
                "position": 0,
                "permission_overwrites": [],
                "nsfw": False,
                "parent_id": None,
            },
            "member": {
                "user": user,
                "roles": [],
                "joined_at": "2024-01-01T00:00:00.000000+00:00",
                "deaf": False,
                "mute": False,
                "flags": 0,
                "pending": False,
                "nick": None,
                "avatar": None,
                "permissions": "2248473465835073",
            },
            "app_permissions": "2248473465835073",
            "locale": locale,
            "entitlements": [],
            "authorizing_integration_owners": {"0": guild_id},
            "context": 0,
            "attachment_size_limit": 10485760,
        }

    # ---- HTTP -------------------------------------------------------------------------------
    @web.middleware
    async def _middleware(self, request: web.Request, handler) -> web.StreamResponse:
        if request.path == GATEWAY_PATH:
            return await handler(request)
        path = request.path.removeprefix(API_PREFIX)
        call = Call(request.method, path, dict(request.query), await self._body(request))
        await self._record(self.calls.append, call)
        log.debug("HTTP %s %s", request.method, request.path_qs)
        # Interaction callbacks are webhook calls: discord.py sends them without a token.
        needs_token = not path.startswith("/interactions/")
        if needs_token and request.headers.get("Authorization") != f"Bot {self.token}":
            await self._problem(f"{call}: bad Authorization header")
            return error_response(401, "401: Unauthorized")
        try:
            return await handler(request)
        except (web.HTTPNotFound, web.HTTPMethodNotAllowed):
            log.warning("fake Discord: no route for %s %s", request.method, request.path_qs)
            await self._record(self.unknown.append, f"{request.method} {request.path_qs}")
            return error_response(404, "404: Not Found")

    @staticmethod
    async def _body(request: web.Request) -> Any:
        if not request.body_exists:
            return None
        if request.content_type == "application/json":
            return await request.json()
        if request.content_type.startswith("multipart/"):
            form = await request.post()
            raw = form.get("payload_json")
            return json.loads(raw) if isinstance(raw, str) else dict(form)
        return await request.text()

    async def _get_me(self, request: web.Request) -> web.Response:
        return json_response(self.bot_user)

    async def _get_application(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "id": self.application_id,
                "name": "Tabletop",
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.owner,
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "bot": self.bot_user,
                "redirect_uris": [],
                "interactions_endpoint_url": None,
            }
        )

    async def _get_gateway_bot(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "url": self.gateway_url,
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    async def _put_commands(self, request: web.Request) -> web.Response:
        if request.match_info["application_id"] != self.application_id:
            return error_response(404, "Unknown Application", 10002)
        body = await self._body(request)  # aiohttp caches the body read by the middleware
        if not isinstance(body, list):
            return error_response(400, "400: Bad Request (expected a list of commands)", 50035)
        created = []
        for command in body:
            created.append(
                {
                    "id": snowflake(),
                    "application_id": self.application_id,
                    "version": snowflake(),
                    "type": 1,
                    "description": "",
                    "options": [],
                    "default_member_permissions": None,
                    **command,
                }
            )
        return json_response(created)

    async def _callback(self, request: web.Request) -> web.Response:
        body = await self._body(request)  # aiohttp caches the body read by the middleware
        if not isinstance(body, dict) or "type" not in body:
            return error_response(400, "400: Bad Request (no interaction response type)", 50035)
        data = body.get("data") or {}
        flags = int(data.get("flags") or 0)
        message_id = snowflake()
        message = {
            "id": message_id,
            "channel_id": snowflake(),
            "type": 20,
            "content": data.get("content") or "",
            "author": self.bot_user,
            "embeds": data.get("embeds") or [],
            "attachments": [],
            "mentions": [],
            "mention_roles": [],
            "mention_everyone": False,
            "components": data.get("components") or [],
            "pinned": False,
            "tts": False,
            "flags": flags,
            "timestamp": "2024-01-01T00:00:00.000000+00:00",
            "edited_timestamp": None,
        }
        response: dict[str, Any] = {
            "interaction": {
                "id": request.match_info["interaction_id"],
                "type": 2,
                "response_message_id": message_id if body["type"] == 4 else None,
                "response_message_loading": body["type"] == 5,
                "response_message_ephemeral": bool(flags & 64),
            },
        }
        if body["type"] == 4:
            response["resource"] = {"type": 4, "message": message}
        return json_response(response)

    # ---- gateway ------------------------------------------------------------------------------
    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        query = dict(request.query)
        self.gateway_queries.append(query)
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        try:
            compress = _compressor(query.get("compress"))
        except (ValueError, ImportError) as exc:
            await self._problem(f"gateway: {exc}")
            await ws.close(code=4000, message=str(exc).encode()[:120])
            return ws
        if query.get("encoding", "json") != "json" or query.get("v") != "10":
            await self._problem(f"gateway: unsupported query {query}")
            await ws.close(code=4012, message=b"Invalid API version or encoding")
            return ws
        conn = GatewayConnection(ws, query, compress)
        self._connections.append(conn)
        await self._send(conn, {"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    await self._problem(f"gateway: unexpected {msg.type.name} frame from the bot")
                    continue
                await self._on_gateway_message(conn, json.loads(msg.data))
        finally:
            conn.close_code = ws.close_code
            await self._record(self.close_codes.append, ws.close_code)
            log.info("gateway connection closed with code %s", ws.close_code)
        return ws

    async def _on_gateway_message(self, conn: GatewayConnection, msg: dict[str, Any]) -> None:
        op, data = msg.get("op"), msg.get("d")
        if op == 1:
            await self._record(self._count_heartbeat)
            await self._send(conn, {"op": 11})
        elif op == 2:
            await self._record(self.identifies.append, data)
            if not isinstance(data, dict) or data.get("token") != self.token:
                await self._problem("gateway: IDENTIFY with a wrong token")
                await conn.ws.close(code=4004, message=b"Authentication failed.")
                return
            conn.identified = True
            ready = {
                "v": 10,
                "user": self.bot_user,
                "guilds": [],
                "session_id": self.session_id,
                "resume_gateway_url": self.gateway_url,
                "application": {"id": self.application_id, "flags": 0},
                "private_channels": [],
                "relationships": [],
                "user_settings": {},
                "_trace": ["fake-discord"],
            }
            if "shard" in data:
                ready["shard"] = data["shard"]
            await self._send_dispatch(conn, "READY", ready)
        else:
            log.warning("fake Discord: ignoring gateway op %s", op)
            await self._problem(f"gateway: unhandled op {op}")

    def _count_heartbeat(self) -> None:
        self.heartbeats += 1

    async def _send_dispatch(self, conn: GatewayConnection, event: str, data: dict[str, Any]) -> None:
        async with conn.lock:
            conn.sequence += 1
            await self._send_locked(conn, {"op": 0, "t": event, "s": conn.sequence, "d": data})

    async def _send(self, conn: GatewayConnection, payload: dict[str, Any]) -> None:
        async with conn.lock:
            await self._send_locked(conn, {"s": None, "t": None, "d": None, **payload})

    @staticmethod
    async def _send_locked(conn: GatewayConnection, payload: dict[str, Any]) -> None:
        # The lock keeps compressed chunks in the order the stream produced them.
        text = json.dumps(payload)
        if conn.compress is None:
            await conn.ws.send_str(text)
        else:
            await conn.ws.send_bytes(conn.compress(text.encode()))

    # ---- bookkeeping --------------------------------------------------------------------------
    async def _record(self, change: Callable[..., Any], *args: Any) -> None:
        async with self._changed:
            change(*args)
            self._changed.notify_all()

    async def _problem(self, text: str) -> None:
        log.warning("fake Discord: %s", text)
        await self._record(self.problems.append, text)
