"""The Activity's API over the web tests' platform and the loopback fake Discord: members signed in
as the Embedded App SDK would sign them in (a code from ``authorize``, in an Activity instance of
the tables' server), and their requests with the session the server handed back."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from aiohttp.test_utils import TestClient

from bot.tables.moves import Moves
from bot.web.activity import ActivityRoutes
from bot.web.activity_auth import DiscordSignIn, Sessions
from bot.web.site import Site
from tests.support.bot_process import TOKEN
from tests.support.discord_model import User
from tests.support.fake_discord import FakeDiscord
from tests.support.platform import Platform
from tests.support.web import CHANNEL, GUILD, NAMES, SECRET, client

API = "/activity/api"


@dataclass
class Clock:
    """Seconds, as the sessions read them: moved on by the test, never by waiting."""

    at: float = 1_800_000_000.0

    def __call__(self) -> float:
        return self.at


@dataclass
class Activity:
    fake: FakeDiscord
    web: TestClient
    routes: ActivityRoutes
    clock: Clock
    platform: Platform
    members: dict[int, User] = field(default_factory=dict)  # the platform's member id -> Discord's user

    def member(self, n: int) -> User:
        """Member ``n`` of the web tests' tables (ids 1, 2 …), as the fake Discord knows them; the
        tables' server in the fake is ``GUILD``."""
        if n not in self.members:
            user = User(str(n), NAMES[n - 1] if n <= len(NAMES) else f"member{n}")
            self.fake.model.users[user.id] = user
            self.members[n] = user
        return self.members[n]

    async def sign_in(self, n: int, guild: int | None = GUILD) -> str:
        """Member ``n``'s session, from an Activity opened in ``guild`` (None: no instance named)."""
        user = self.member(n)
        body: dict[str, Any] = {"code": self.fake.oauth.code(user)}
        if guild is not None:
            body["instance_id"] = self.instance(guild, user)
        answer = await self.web.post(f"{API}/token", json=body)
        assert answer.status == 200, await answer.text()
        return (await answer.json())["session"]

    def instance(self, guild: int, *users: User) -> str:
        """An Activity launched in the tables' channel of ``guild``, with ``users`` in it."""
        return self.fake.oauth.launch(str(guild), str(CHANNEL), *users).id

    async def get(self, path: str, session: str | None, **query: Any) -> aiohttp.ClientResponse:
        headers = {"Authorization": f"Bearer {session}"} if session else {}
        return await self.web.get(API + path, params={k: str(v) for k, v in query.items()}, headers=headers)

    async def post(self, path: str, session: str | None, body: Any = None, **query: Any) -> aiohttp.ClientResponse:
        headers = {"Authorization": f"Bearer {session}"} if session else {}
        return await self.web.post(API + path, json={} if body is None else body, params={k: str(v) for k, v in query.items()}, headers=headers)


def moves_of(platform: Platform, *hooks: Any) -> Moves:
    """The move service on the platform, telling ``hooks`` (a live feed's ``changed``) of each change."""

    def tell(table_id: int) -> None:
        for hook in hooks:
            hook(table_id)

    return Moves(platform.tables, platform.lobby, tell, tell)


@contextlib.asynccontextmanager
async def activity(site: Site, platform: Platform, poll: float = 0.05) -> AsyncIterator[Activity]:
    clock = Clock()
    hooks: list[Any] = []  # the live feed's, once the server is up: a change wakes its streams at once
    async with FakeDiscord(token=TOKEN) as fake, aiohttp.ClientSession() as http:
        sign_in = DiscordSignIn(http, lambda: fake.api_base, lambda: int(fake.application_id), fake.oauth.client_secret, TOKEN)
        moves = moves_of(platform, lambda table_id: [hook(table_id) for hook in hooks])
        routes = ActivityRoutes(Sessions(SECRET, now=clock), sign_in, platform.tables, moves)
        async with client(site, poll=poll, groups=[routes]) as web:
            hooks.append(web.feed.changed)
            yield Activity(fake, web, routes, clock, platform)
