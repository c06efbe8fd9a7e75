"""Signing in to the Activity: the SDK's code is exchanged at Discord with the client secret (which
no answer ever carries), ``/users/@me`` names the member, the Activity instance says where it runs,
and the session handed back is the member's for an hour. A session missing, forged or ended
answers 401; a body that is not what the API takes answers 400 and asks Discord nothing."""

from __future__ import annotations

import json

import aiohttp

from bot.core import config as config_mod
from bot.web.activity_auth import SESSION_LIFE, Buckets, DiscordSignIn, Sessions
from tests.support.activity import API, activity
from tests.support.web import GUILD, SECRET


async def test_a_code_from_the_sdk_becomes_discords_access_token_and_a_session_for_the_member(tables, site):
    async with activity(site, tables) as act:
        alice = act.member(1)
        code = act.fake.oauth.code(alice)
        answer = await act.web.post(f"{API}/token", json={"code": code, "instance_id": act.instance(GUILD, alice)})
        assert answer.status == 200
        assert answer.headers["Cache-Control"] == "no-store"
        body = await answer.json()
        assert body["access_token"] in act.fake.oauth.tokens, "the SDK's authenticate takes Discord's own token"
        assert body["member"] == {"id": "1", "name": "Alice"} and body["guild"] == str(GUILD)
        assert body["expires_in"] == SESSION_LIFE
        (exchange,) = act.fake.calls_to("POST", "/oauth2/token")
        assert f"client_secret={act.fake.oauth.client_secret}" in exchange.body
        assert f"client_id={act.fake.application_id}" in exchange.body and "grant_type=authorization_code" in exchange.body
        assert act.fake.oauth.client_secret not in json.dumps(body), "the secret never reaches a browser"
        me = await act.get("/me", body["session"])
        assert (await me.json())["member"]["id"] == "1" and (await me.json())["guild"] == str(GUILD)
        again = await act.web.post(f"{API}/token", json={"code": code})
        assert again.status == 401 and (await again.json())["error"]["code"] == "activity.code_refused"


async def test_a_member_discord_does_not_list_in_the_instance_gets_no_session(tables, site):
    async with activity(site, tables) as act:
        bob = act.member(2)
        someone_elses = act.instance(GUILD, act.member(1))
        answer = await act.web.post(f"{API}/token", json={"code": act.fake.oauth.code(bob), "instance_id": someone_elses})
        assert answer.status == 403 and (await answer.json())["error"]["code"] == "activity.not_in_instance"
        unknown = await act.web.post(f"{API}/token", json={"code": act.fake.oauth.code(bob), "instance_id": "i-1-gc-2-3"})
        assert unknown.status == 403
        # Without an instance the session is the member's, in no server Discord confirmed.
        plain = await act.web.post(f"{API}/token", json={"code": act.fake.oauth.code(bob)})
        assert (await plain.json())["guild"] is None


async def test_a_forged_or_unknown_code_is_refused_in_the_members_language(tables, site):
    async with activity(site, tables) as act:
        answer = await act.web.post(f"{API}/token?locale=ja", json={"code": "made-up"})
        assert answer.status == 401
        error = (await answer.json())["error"]
        assert error["code"] == "activity.code_refused" and "Discord" in error["message"] and "確認" in error["message"]


async def test_a_malformed_sign_in_answers_400_and_asks_discord_nothing(tables, site):
    async with activity(site, tables) as act:
        bodies = [
            ("text/plain", b"code=abc"),
            ("application/json", b"not json"),
            ("application/json", b"[1, 2]"),
            ("application/json", b"{}"),
            ("application/json", b'{"code": 5}'),
            ("application/json", b'{"code": "a b"}'),
            ("application/json", json.dumps({"code": "x" * 300}).encode()),
            ("application/json", b'{"code": "abc", "instance_id": ["i"]}'),
            ("application/json", json.dumps({"code": "abc", "pad": "x" * 5000}).encode()),
        ]
        for kind, raw in bodies:
            answer = await act.web.post(f"{API}/token", data=raw, headers={"Content-Type": kind})
            assert answer.status == 400, raw
            assert (await answer.json())["error"]["code"] == "activity.bad_request"
        assert act.fake.calls_to("POST", "/oauth2/token") == []


async def test_a_missing_forged_or_ended_session_answers_401(tables, site):
    async with activity(site, tables) as act:
        session = await act.sign_in(1)
        assert (await act.get("/me", session)).status == 200
        missing = await act.get("/me", None)
        assert missing.status == 401 and (await missing.json())["error"]["code"] == "activity.session_missing"
        body, _, mac = session.partition(".")
        for forged in (f"{body}.{mac[:-2]}xx", f"{body[:-4]}AAAA.{mac}", "nonsense", Sessions("another secret").issue(1, "alice")):
            answer = await act.get("/me", forged)
            assert answer.status == 401 and (await answer.json())["error"]["code"] == "activity.session_invalid", forged
        act.clock.at += SESSION_LIFE
        ended = await act.get("/me", session)
        assert ended.status == 401 and (await ended.json())["error"]["code"] == "activity.session_expired"
        other_header = await act.web.get(f"{API}/me", headers={"X-Session": await act.sign_in(2)})
        assert (await other_header.json())["member"]["id"] == "2"


async def test_a_members_requests_are_limited_and_told_when_to_come_back(tables, site):
    async with activity(site, tables) as act:
        act.routes.requests = Buckets(rate=1.0, burst=3, now=act.clock)
        session = await act.sign_in(1)
        assert [(await act.get("/me", session)).status for _ in range(3)] == [200, 200, 200]
        refused = await act.get("/me", session)
        assert refused.status == 429 and refused.headers["Retry-After"] == "1"
        assert (await refused.json())["error"]["code"] == "activity.rate_limited"
        assert (await act.get("/me", await act.sign_in(2))).status == 200, "another member has a bucket of their own"
        act.clock.at += 1
        assert (await act.get("/me", session)).status == 200


def test_a_bucket_refills_and_forgets_the_full_ones_first():
    now = [0.0]
    buckets = Buckets(rate=2.0, burst=2, now=lambda: now[0], most=3)
    assert [buckets.take("a") for _ in range(3)] == [0.0, 0.0, 0.5]
    now[0] += 0.5
    assert buckets.take("a") == 0.0
    for key in ("b", "c"):
        buckets.take(key)
    now[0] += 10
    buckets.take("d")
    assert len(buckets.buckets) <= 3


async def test_discord_out_of_reach_answers_502(tables, site):
    async with activity(site, tables) as act, aiohttp.ClientSession() as http:
        act.routes.discord = DiscordSignIn(http, lambda: "http://127.0.0.1:9/api/v10", lambda: 1, "secret", "token")
        answer = await act.web.post(f"{API}/token", json={"code": "abc"})
        assert answer.status == 502 and (await answer.json())["error"]["code"] == "activity.discord_unreachable"


def test_the_client_secret_comes_from_the_config_or_the_environment(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('client_secret = "from-file"\n')
    assert config_mod.load(str(path), env={}).client_secret == "from-file"
    assert config_mod.load(str(path), env={"DISCORD_CLIENT_SECRET": "from-env"}).client_secret == "from-env"
    assert Sessions(SECRET).read(Sessions(SECRET).issue(7, "x", 1, 2)).guild_id == 1
