"""Who is playing in the Activity: the code the Embedded App SDK's ``authorize`` gives, exchanged at
Discord for the member's identity, and the short-lived session this server signs for them.

The client secret stays here: the browser sends the code and gets back Discord's access token
(which the SDK's ``authenticate`` needs) and the session, which every later request carries in a
header. A session holds the member's id and name, the server and channel of the Activity instance
it was opened in (only once Discord confirmed the member is in that instance: a server the browser
merely names proves nothing), and its end; it is signed with a key drawn from the pages' secret.
Nothing is stored, so every process sharing that secret accepts it, and none can be revoked
before it ends: hence an hour, not a day.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import aiohttp

log = logging.getLogger(__name__)
SESSION_LIFE = 3600.0  # seconds
MAX_TOKEN = 1024  # characters: a session longer than this was not made here
SNOWFLAKE = re.compile(r"^[1-9][0-9]{0,19}$")
CALL_TIMEOUT = aiohttp.ClientTimeout(total=10)


class Refused(Exception):
    """A request the Activity's server refuses: ``code`` is a catalog key (``activity.*``)."""

    def __init__(self, status: int, code: str, retry_after: float | None = None) -> None:
        super().__init__(code)
        self.status = status
        self.code = code
        self.retry_after = retry_after


@dataclass(frozen=True)
class Session:
    member_id: int
    name: str
    guild_id: int | None  # the Activity's server, as Discord told it; None: not confirmed
    channel_id: int | None
    expires: float


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Sessions:
    def __init__(self, secret: str, life: float = SESSION_LIFE, now: Callable[[], float] = time.time) -> None:
        # A key of its own: a session is never mistaken for a page's signed id, nor one for the other.
        self.key = hmac.new(secret.encode(), b"activity-session", hashlib.sha256).digest()
        self.life = life
        self.now = now

    def _mac(self, body: str) -> str:
        return _b64(hmac.new(self.key, body.encode(), hashlib.sha256).digest())

    def issue(self, member_id: int, name: str, guild_id: int | None = None, channel_id: int | None = None) -> str:
        payload = {"m": str(member_id), "n": name[:64], "g": _text(guild_id), "c": _text(channel_id), "e": int(self.now() + self.life)}
        body = _b64(json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode())
        return f"{body}.{self._mac(body)}"

    def read(self, token: str | None) -> Session:
        """The session ``token`` carries; refused (401) when there is none, it was not signed here,
        or it has ended."""
        if not token:
            raise Refused(401, "activity.session_missing")
        body, _, mac = token.partition(".")
        if len(token) > MAX_TOKEN or not mac or not hmac.compare_digest(mac, self._mac(body)):
            raise Refused(401, "activity.session_invalid")
        try:
            payload = json.loads(_unb64(body))
            session = Session(int(payload["m"]), str(payload["n"]), _number(payload["g"]), _number(payload["c"]), float(payload["e"]))
        except (ValueError, KeyError, TypeError):  # signed here, so never; but a changed layout might
            raise Refused(401, "activity.session_invalid") from None
        if session.expires <= self.now():
            raise Refused(401, "activity.session_expired")
        return session


def _text(number: int | None) -> str | None:
    return None if number is None else str(number)


def _number(text: Any) -> int | None:
    return None if text is None else int(text)


class Buckets:
    """How often each key (a member; an address for sign-ins) may ask: a token bucket per key,
    ``burst`` deep, refilled at ``rate`` a second. It is held in this process's memory only: each
    process behind a balancer counts its own, and a restart forgets them all. That stops a runaway
    script or a held-down key; it is no quota. At most ``most`` keys are kept: past that, the
    buckets that have refilled are forgotten first (a full bucket is what a new key gets anyway)."""

    def __init__(self, rate: float, burst: float, now: Callable[[], float] = time.monotonic, most: int = 10_000) -> None:
        self.rate = rate
        self.burst = burst
        self.now = now
        self.most = most
        self.buckets: dict[object, tuple[float, float]] = {}  # key -> (tokens, when counted)

    def take(self, key: object) -> float:
        """0 when ``key`` may ask now (it used one token), else the seconds until it may."""
        now = self.now()
        tokens, then = self.buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        if tokens < 1:
            self.buckets[key] = (tokens, now)
            return (1 - tokens) / self.rate
        if key not in self.buckets and len(self.buckets) >= self.most:
            self._forget(now)
        self.buckets[key] = (tokens - 1, now)
        return 0.0

    def _forget(self, now: float) -> None:
        full = [k for k, (tokens, then) in self.buckets.items() if tokens + (now - then) * self.rate >= self.burst]
        for key in full or list(self.buckets)[: len(self.buckets) // 2]:
            del self.buckets[key]


@dataclass(frozen=True)
class Member:
    """Who signed in, as Discord told it; and the Activity instance they are in, when confirmed."""

    id: int
    name: str
    guild_id: int | None = None
    channel_id: int | None = None


class DiscordSignIn:
    """The three calls a sign-in makes to Discord's API: the code's exchange (the client secret
    goes here only), ``/users/@me`` with the member's access token, and the Activity instance,
    read with the bot's own token, to learn that the member is in it and where it runs."""

    def __init__(
        self,
        session: aiohttp.ClientSession,
        api_base: Callable[[], str],
        client_id: Callable[[], int | None],
        client_secret: str,
        bot_token: str,
    ) -> None:
        self.session = session
        self.api_base = api_base  # read at each call: tests point discord.py's at a fake Discord
        self.client_id = client_id  # the application's id, known once the bot has logged in
        self.client_secret = client_secret
        self.bot_token = bot_token

    async def sign_in(self, code: str, instance_id: str | None) -> tuple[str, Member]:
        """(Discord's access token, the member) for ``code``; refused 401 for a code Discord does
        not take, 403 for an instance the member is not in, 502 when Discord cannot be asked."""
        client_id = self.client_id()
        if client_id is None:
            raise Refused(503, "activity.not_ready")
        form = {"client_id": str(client_id), "client_secret": self.client_secret, "grant_type": "authorization_code", "code": code}
        status, body = await self._call("POST", "/oauth2/token", data=form)
        if status in (400, 401) or (status == 200 and not isinstance(body.get("access_token"), str)):
            raise Refused(401, "activity.code_refused")
        self._check(status, "the code's exchange")
        access = body["access_token"]
        status, user = await self._call("GET", "/users/@me", headers={"Authorization": f"Bearer {access}"})
        self._check(status, "/users/@me")
        if not SNOWFLAKE.match(str(user.get("id", ""))):
            raise Refused(502, "activity.discord_unreachable")
        name = str(user.get("global_name") or user.get("username") or user["id"])
        member = Member(int(user["id"]), name)
        if instance_id is not None:
            member = await self._placed(member, client_id, instance_id)
        return access, member

    async def _placed(self, member: Member, client_id: int, instance_id: str) -> Member:
        path = f"/applications/{client_id}/activity-instances/{instance_id}"
        status, body = await self._call("GET", path, headers={"Authorization": f"Bot {self.bot_token}"})
        if status == 404:
            raise Refused(403, "activity.not_in_instance")
        self._check(status, "the Activity instance")
        found_location, found_users = body.get("location"), body.get("users")
        location: dict[str, Any] = found_location if isinstance(found_location, dict) else {}
        users: list[Any] = found_users if isinstance(found_users, list) else []
        guild, channel = str(location.get("guild_id") or ""), str(location.get("channel_id") or "")
        if str(member.id) not in map(str, users):
            raise Refused(403, "activity.not_in_instance")
        return Member(
            member.id, member.name,
            int(guild) if SNOWFLAKE.match(guild) else None, int(channel) if SNOWFLAKE.match(channel) else None,
        )

    @staticmethod
    def _check(status: int, what: str) -> None:
        if status != 200:
            log.warning("activity sign-in: Discord answered %s to %s", status, what)
            raise Refused(502, "activity.discord_unreachable")

    async def _call(self, method: str, path: str, **kwargs: Any) -> tuple[int, dict[str, Any]]:
        try:
            async with self.session.request(method, self.api_base().rstrip("/") + path, timeout=CALL_TIMEOUT, **kwargs) as response:
                try:
                    body = await response.json(content_type=None)
                except (ValueError, aiohttp.ContentTypeError):
                    body = {}
                return response.status, body if isinstance(body, dict) else {}
        except (aiohttp.ClientError, TimeoutError) as exc:
            log.warning("activity sign-in: Discord could not be reached (%s)", exc)
            raise Refused(502, "activity.discord_unreachable") from None
