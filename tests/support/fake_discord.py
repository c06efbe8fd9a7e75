"""A fake Discord on loopback that a real bot process can log in to, host tables on and be played.

It serves what discord.py 2.7.1 needs to log in, sync application commands and connect to the
gateway (HELLO, heartbeat ACK, READY, then a GUILD_CREATE with a text channel, roles and the bot's
own member), and the REST routes a table uses (``discord_rest``), over an in-memory model of
channels, threads, DMs and messages (``discord_model``) that tests read as "what Discord shows".

Tests act as members: :meth:`FakeDiscord.slash` and :meth:`FakeDiscord.click` send an
INTERACTION_CREATE over the gateway and return a :class:`Sent` that records the bot's response.
Every REST call is counted by kind and channel with its time (``discord_traffic``), and faults can
be injected per route. Any route the fake does not serve gets a JSON 404 and is kept in
``unknown``, so a failing test shows what the bot asked for.

Only what the bot needs is dispatched: it runs with the default intents and no message content, so
MESSAGE_CREATE echoes of its own messages are off unless ``echo_messages`` is set.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import re
import socket
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from aiohttp import web

from tests.support import discord_interactions as ix
from tests.support.discord_commands import AppCommands
from tests.support.discord_gateway import Gateway
from tests.support.discord_model import Channel, Message, Model, User, snowflake
from tests.support.discord_oauth import OAuth, bearer
from tests.support.discord_rest import add_rest_routes
from tests.support.discord_traffic import (
    CALL,
    Call,
    Fault,
    busiest_channel,
    busiest_second,
    classify,
    count_by_kind,
    error_response,
)
from tests.support.patience import patient

log = logging.getLogger("fake_discord")

API_PREFIX = "/api/v10"
GATEWAY_PATH = "/gateway"
__all__ = ["Call", "FakeDiscord", "Fault", "Sent", "Undelivered", "busiest_channel", "busiest_second", "count_by_kind"]
Sent, Undelivered = ix.Sent, ix.Undelivered


class FakeDiscord:
    """``async with FakeDiscord(token=...) as fake:`` serves on 127.0.0.1 at an ephemeral port.

    ``fake.guild`` and ``fake.channel`` are a server and its text channel; add members with
    :meth:`add_member` and more channels with :meth:`add_text_channel`.
    """

    def __init__(
        self,
        *,
        token: str,
        heartbeat_interval_ms: int = 41250,
        interaction_deadline: float = 3.0,
        token_life: float = 15 * 60.0,
        echo_messages: bool = False,
        guild_locale: str = "en-US",
    ) -> None:
        self.token = token
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.interaction_deadline = interaction_deadline
        self.token_life = token_life  # an interaction's token answers webhook calls this long
        self.echo_messages = echo_messages
        self.application_id = snowflake()
        bot = User(snowflake(), "Tabletop", bot=True)
        self.bot_user = {**bot.payload(), "verified": True, "mfa_enabled": False, "flags": 0}
        self.model = Model(bot)
        self.guild = self.model.add_guild(locale=guild_locale)
        self.channel = self.model.add_text_channel(self.guild, "games")
        self.owner = self.model.users[self.guild.owner_id].payload()
        self.session_id = "fake-session-" + snowflake()
        self.app_commands = AppCommands(self)  # and the Activity: ``app_commands.enable_activities()``

        # What the bot did, in arrival order.
        self.calls: list[Call] = []
        self.unknown: list[str] = []
        self.problems: list[str] = []
        self.gateway_queries: list[dict[str, str]] = []
        self.identifies: list[dict[str, Any]] = []
        self.heartbeats = 0
        self.close_codes: list[int | None] = []
        self.sent: dict[str, Sent] = {}  # interaction token -> what became of it
        self.pending: dict[str, Sent] = {}  # sent and not answered yet

        #: With several bot processes connected: each interaction goes to one of them at random
        #: (an interactions endpoint behind a balancer); of every ``spread_share`` of them, the others
        #: where Discord's gateway sends them (the server's shard; a DM to shard 0).
        self.spread: random.Random | None = None
        self.spread_share = 1.0
        self.faults: list[Fault] = []
        self.gateway = Gateway(self)
        self.oauth = OAuth(self)  # an Activity's sign-in: codes, access tokens, instances
        self._changed = asyncio.Condition()
        self._watchers: defaultdict[str, list[asyncio.Future]] = defaultdict(list)
        self._runner: web.AppRunner | None = None
        self.port = 0

    # ---- lifecycle ----------------------------------------------------------------------------
    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def start(self) -> None:
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        add_rest_routes(app, self)
        self.oauth.add_routes(app)
        app.router.add_get(GATEWAY_PATH, self.gateway.serve)
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=2.0)
        await self._runner.setup()
        await web.SockSite(self._runner, sock, backlog=1024).start()
        log.info("fake Discord listening on %s", self.base_url)

    async def close(self) -> None:
        await self.gateway.close()
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

    # ---- the world ------------------------------------------------------------------------------
    def add_member(self, name: str, locale: str = "en-US") -> User:
        return self.model.add_member(self.guild, name, locale)

    def add_text_channel(self, name: str) -> Channel:
        """A new text channel; a bot connected already sees it through CHANNEL_CREATE."""
        channel = self.model.add_text_channel(self.guild, name)
        if self.connected:
            asyncio.ensure_future(self.dispatch("CHANNEL_CREATE", channel.payload(self.model)))
        return channel

    def message(self, message_id: str | int) -> Message:
        return self.model.messages[str(message_id)]

    def shown(self, channel_id: str | int, viewer: str | None = None) -> list[Message]:
        return self.model.shown(str(channel_id), viewer)

    def dms(self, user_id: str) -> list[Message]:
        return self.model.dms(user_id)

    # ---- faults -------------------------------------------------------------------------------
    def inject(self, **fault: Any) -> Fault:
        """Add a :class:`Fault` (see its fields); ``remove_fault`` or ``clear_faults`` ends it."""
        made = Fault(**fault)
        self.faults.append(made)
        return made

    def remove_fault(self, fault: Fault) -> None:
        if fault in self.faults:
            self.faults.remove(fault)

    def clear_faults(self) -> None:
        self.faults.clear()

    # ---- acting as members ----------------------------------------------------------------------
    @property
    def connected(self) -> bool:
        return self.gateway.connection() is not None

    async def slash(
        self, user: User, channel: Channel, name: str, locale: str | None = None, **options: Any
    ) -> Sent:
        """Use a slash command (``"donguri new"``, options as keywords); returns once sent."""
        return await self.send(
            ix.command(self.model, self.application_id, user.id, channel, name, options, locale)
        )

    async def click(
        self,
        user: User,
        message: Message,
        custom_id: str,
        values: list[str] | None = None,
        locale: str | None = None,
        via: int | None = None,
    ) -> Sent:
        """Press a component of ``message`` as it is shown now; returns once sent. ``via``: to the
        bot process whose gateway connection is the ``via``-th of those open."""
        sent = ix.component(self.model, self.application_id, user.id, message, custom_id, values, locale)
        return await self.send(sent, via)

    async def send(self, sent: Sent, via: int | None = None) -> Sent:
        sessions = self.gateway.identified()
        if not sessions:
            raise Undelivered(sent.custom_id or "command")
        if via is not None:
            conn = sessions[via % len(sessions)]
        elif self.spread is not None and (self.spread_share >= 1 or self.spread.random() < self.spread_share):
            conn = self.spread.choice(sessions)
        else:  # as Discord routes it: by the server's shard, a DM to shard 0
            conn = self.gateway.for_guild(sent.payload.get("guild_id"))
        sent.connection = conn
        self.sent[sent.token] = self.pending[sent.token] = sent
        try:
            await self.gateway.send_dispatch(conn, "INTERACTION_CREATE", sent.payload, sent)
        except ConnectionError as exc:  # the bot died between the check and the send
            raise Undelivered(sent.custom_id or "command") from exc
        return sent

    # ---- what tests read ----------------------------------------------------------------------
    def calls_to(self, method: str, prefix: str) -> list[Call]:
        return [c for c in self.calls if c.method == method and c.path.startswith(prefix)]

    def calls_between(self, start: float, end: float = float("inf")) -> list[Call]:
        return [c for c in self.calls if start <= c.at < end]

    async def changed(self, *channel_ids: str) -> None:
        """Something changed (in these channels): wake whoever waits for it."""
        for channel_id in channel_ids:
            for waiter in self._watchers.pop(channel_id, ()):
                if not waiter.done():
                    waiter.set_result(channel_id)
        async with self._changed:
            self._changed.notify_all()

    async def watch(self, channel_ids: list[str], timeout: float) -> bool:
        """Wait until one of these channels changes (cheaper than :meth:`wait_for` under load)."""
        waiter = asyncio.get_running_loop().create_future()
        for channel_id in channel_ids:
            self._watchers[channel_id].append(waiter)
        try:
            await asyncio.wait_for(waiter, timeout)
            return True
        except TimeoutError:
            return False
        finally:
            for channel_id in channel_ids:
                waiting = self._watchers.get(channel_id)
                if waiting and waiter in waiting:
                    waiting.remove(waiter)

    async def wait_for(self, predicate: Callable[[], Any], timeout: float) -> Any:
        """``predicate()`` once truthy, or None after ``timeout`` seconds."""
        async with self._changed:
            try:
                return await asyncio.wait_for(self._changed.wait_for(predicate), patient(timeout))
            except TimeoutError:
                return None

    async def wait_until(self, predicate: Callable[[], Any], *, timeout: float, what: str) -> Any:
        """Wait until ``predicate()`` is truthy and return it; fail with what was seen so far."""
        async with self._changed:
            try:
                return await asyncio.wait_for(self._changed.wait_for(predicate), patient(timeout))
            except TimeoutError:
                raise AssertionError(f"fake Discord: no {what} within {patient(timeout)}s\n{self.summary()}") from None

    async def quiet(self, seconds: float, *, timeout: float) -> None:
        """Wait until the bot has made no REST call for ``seconds`` from now on (its work has settled)."""
        begun = time.monotonic()
        deadline = begun + patient(timeout)
        while True:
            last = max(self.calls[-1].at if self.calls else 0.0, begun)
            idle = time.monotonic() - last
            if idle >= seconds:
                return
            if time.monotonic() > deadline:
                raise AssertionError(f"fake Discord: the bot never went quiet for {seconds}s in {timeout}s")
            await asyncio.sleep(seconds - idle + 0.01)

    def summary(self, last: int = 40) -> str:
        lines = [
            f"  HTTP ({len(self.calls)}), last {last}: {', '.join(map(str, self.calls[-last:])) or 'none'}"
        ]
        lines.append(f"  unknown routes: {self.unknown or 'none'}")
        lines.append(f"  gateway connections: {self.gateway_queries or 'none'}")
        lines.append(f"  identifies: {len(self.identifies)}, heartbeats: {self.heartbeats}")
        lines.append(f"  gateway close codes: {self.close_codes or 'none'}")
        if self.problems:
            lines.append(f"  problems: {self.problems}")
        return "\n".join(lines)

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a DISPATCH (op 0) to the session that gets this server's events."""
        conn = self.gateway.for_guild(data.get("guild_id") if isinstance(data, dict) else None)
        if conn is None:
            raise AssertionError(f"fake Discord: no identified gateway connection for {event}")
        await self.gateway.send_dispatch(conn, event, data)

    async def dispatch_from_rest(self, event: str, data: dict[str, Any]) -> None:
        """A gateway event that follows a REST change (THREAD_CREATE ...), to every connected bot
        process."""
        for conn in self.gateway.identified():
            try:
                await self.gateway.send_dispatch(conn, event, data)
            except ConnectionError:
                pass

    def interaction_create(self, *, command: str, subcommand: str | None = None, locale: str = "en-US"):
        """An INTERACTION_CREATE payload for a slash command in ``fake.channel``, by the server owner."""
        name = " ".join(filter(None, [command, subcommand]))
        sent = ix.command(
            self.model, self.application_id, self.guild.owner_id, self.channel, name, {}, locale
        )
        self.sent[sent.token] = sent
        sent.sent_at = time.monotonic()
        return sent.payload

    # ---- HTTP -------------------------------------------------------------------------------
    @web.middleware
    async def _middleware(self, request: web.Request, handler) -> web.StreamResponse:
        if request.path == GATEWAY_PATH:
            return await handler(request)
        path = request.path.removeprefix(API_PREFIX)
        body, files = await self._body(request)
        kind, channel_id = classify(request.method, path)
        channel = self.model.channels.get(channel_id or "")
        place = (
            None
            if channel is None
            else "dm"
            if channel.is_dm
            else "thread"
            if channel.is_thread
            else "channel"
        )
        call = Call(request.method, path, dict(request.query), body, kind, channel_id, place, files=files)
        request[CALL] = call
        self.calls.append(call)
        log.debug("HTTP %s %s", request.method, request.path_qs)
        # Interaction responses and followups are webhook calls: discord.py sends them without a token.
        # So are a member's sign-in calls (an Activity's): the client secret or their own token.
        needs_token = not path.startswith(("/interactions/", "/webhooks/")) and not bearer(request)
        if needs_token and request.headers.get("Authorization") != f"Bot {self.token}":
            await self._problem(f"{call}: bad Authorization header")
            return self._done(call, error_response(401, "401: Unauthorized"))
        after = 0.0
        for fault in list(self.faults):
            if fault.matches(call):
                fault.hits.append(call)
                if fault.delay:
                    await asyncio.sleep(fault.delay)
                after = max(after, fault.after)
                response = fault.response()
                if response is not None:
                    return self._done(call, response)
        try:
            response = await handler(request)
            if after:
                await asyncio.sleep(after)
        except (web.HTTPNotFound, web.HTTPMethodNotAllowed):
            log.warning("fake Discord: no route for %s %s", request.method, request.path_qs)
            self.unknown.append(f"{request.method} {request.path_qs}")
            response = error_response(404, "404: Not Found")
        return self._done(call, response)

    def _done(self, call: Call, response: web.StreamResponse) -> web.StreamResponse:
        call.status = response.status
        return response

    @staticmethod
    async def _body(request: web.Request) -> tuple[Any, list[dict[str, Any]]]:
        if not request.body_exists:
            return None, []
        if request.content_type == "application/json":
            return await request.json(), []
        if request.content_type.startswith("multipart/"):
            form = await request.post()
            files = []
            for name, value in form.items():
                match = re.fullmatch(r"files\[(\d+)\]", name)
                if match and hasattr(value, "file"):
                    size = len(value.file.read())
                    files.append({"index": int(match[1]), "filename": value.filename, "size": size})
            raw = form.get("payload_json")
            return (json.loads(raw) if isinstance(raw, str) else {}), files
        return await request.text(), []

    async def _problem(self, text: str) -> None:
        log.warning("fake Discord: %s", text)
        self.problems.append(text)
        await self.changed()
