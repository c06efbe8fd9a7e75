"""The fake Discord's side of an Activity's sign-in: the code the Embedded App SDK's ``authorize``
would give a member, its exchange at ``/oauth2/token`` for an access token (with the application's
client secret), ``/users/@me`` read with that token, and an Activity instance (who is in it, in
which server and channel), as the bot reads it with its own token.

A code answers once, as Discord's does; a wrong secret, grant or code is Discord's
``invalid_client`` / ``invalid_grant``.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import parse_qs

from aiohttp import web

from tests.support.discord_traffic import CALL, error_response, json_response

if TYPE_CHECKING:
    from tests.support.discord_model import User
    from tests.support.fake_discord import FakeDiscord

API = "/api/v10"
TOKEN_PATH = "/oauth2/token"
UNKNOWN_INSTANCE = 10_004  # what the fake answers for an instance it never launched


@dataclass
class Instance:
    id: str
    guild_id: str | None
    channel_id: str
    users: list[str] = field(default_factory=list)


class OAuth:
    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.client_secret = "fake-client-secret-" + secrets.token_hex(8)
        self.codes: dict[str, str] = {}  # code -> user id, until exchanged
        self.tokens: dict[str, str] = {}  # access token -> user id
        self.instances: dict[str, Instance] = {}
        self.exchanges = 0

    def code(self, user: User) -> str:
        """What ``authorize`` gives ``user`` in their Activity: a code for one exchange."""
        code = secrets.token_urlsafe(12)
        self.codes[code] = user.id
        return code

    def launch(self, guild_id: str | None, channel_id: str, *users: User) -> Instance:
        """An Activity started in a channel (of server ``guild_id``), with ``users`` in it."""
        instance = Instance(f"i-{secrets.randbelow(10**18)}-gc-{guild_id}-{channel_id}", guild_id, channel_id)
        instance.users = [u.id for u in users]
        self.instances[instance.id] = instance
        return instance

    def add_routes(self, app: web.Application) -> None:
        app.router.add_post(API + TOKEN_PATH, self.token)
        app.router.add_get(API + "/applications/{app}/activity-instances/{iid}", self.instance)

    async def token(self, request: web.Request) -> web.Response:
        raw = request[CALL].body
        form = {k: v[0] for k, v in parse_qs(raw if isinstance(raw, str) else "").items()}
        if form.get("client_id") != self.fake.application_id or form.get("client_secret") != self.client_secret:
            return json_response({"error": "invalid_client"}, status=401)
        user_id = self.codes.pop(form.get("code", ""), None)
        if form.get("grant_type") != "authorization_code" or user_id is None:
            return json_response({"error": "invalid_grant", "error_description": "Invalid \"code\" in request."}, status=400)
        self.exchanges += 1
        access = secrets.token_urlsafe(24)
        self.tokens[access] = user_id
        return json_response(
            {"access_token": access, "token_type": "Bearer", "expires_in": 604800, "refresh_token": secrets.token_urlsafe(24), "scope": "identify"}
        )

    def me(self, request: web.Request) -> web.Response:
        """``/users/@me`` with a member's access token."""
        user_id = self.tokens.get(request.headers.get("Authorization", "").removeprefix("Bearer "))
        if user_id is None:
            return error_response(401, "401: Unauthorized")
        return json_response(self.fake.model.users[user_id].payload())

    async def instance(self, request: web.Request) -> web.Response:
        found = self.instances.get(request.match_info["iid"])
        if request.match_info["app"] != self.fake.application_id or found is None:
            return error_response(404, "Unknown Activity Instance", UNKNOWN_INSTANCE)
        location = {"id": found.id.partition("-gc-")[2], "kind": "gc", "channel_id": found.channel_id, "guild_id": found.guild_id}
        return json_response(
            {"application_id": self.fake.application_id, "instance_id": found.id, "launch_id": found.id.split("-")[1], "location": location, "users": found.users}
        )


def bearer(request: web.Request) -> bool:
    """A member's call (``/users/@me`` with their access token) or a token exchange: not the bot's."""
    path = request.path.removeprefix(API)
    return path == TOKEN_PATH or (path == "/users/@me" and request.headers.get("Authorization", "").startswith("Bearer "))
