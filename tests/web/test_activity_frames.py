"""Every answer under ``/activity`` may be framed by Discord's client and its Activity proxy, and by
nothing else, and lets the page load and call its own origin only: its API, stream and pictures,
its refusals, and what the middleware answers for an address it does not know. No answer sets
``X-Frame-Options``, which would keep Discord from framing it. The pages keep their own policy."""

from __future__ import annotations

from tests.support.activity import API, activity
from tests.support.web import seated_table

DISCORD = {"https://discord.com", "https://*.discord.com", "https://*.discordsays.com"}


def policy(header: str) -> dict[str, set[str]]:
    directives = {}
    for part in header.split(";"):
        name, *sources = part.split()
        directives[name] = set(sources)
    return directives


def assert_framed_by_discord_only(response) -> None:
    assert "X-Frame-Options" not in response.headers
    found = policy(response.headers["Content-Security-Policy"])
    assert found["frame-ancestors"] == {"'self'", *DISCORD}
    assert found["default-src"] == found["script-src"] == found["connect-src"] == {"'self'"}
    assert found["object-src"] == found["base-uri"] == {"'none'"}
    for name, sources in found.items():
        if name != "frame-ancestors":
            assert sources <= {"'self'", "'none'", "data:", "blob:", "'unsafe-inline'"}, name
            assert "'unsafe-inline'" not in sources or name == "style-src"
    assert response.headers["X-Content-Type-Options"] == "nosniff" and response.headers["Referrer-Policy"] == "no-referrer"


async def test_every_activity_answer_carries_the_activitys_policy(tables, site):
    table_id = await seated_table(tables, "othello_torite")
    async with activity(site, tables) as act:
        session = await act.sign_in(1)
        answers = [
            await act.web.post(f"{API}/token", json={"code": act.fake.oauth.code(act.member(2))}),
            await act.web.post(f"{API}/token", data=b"x"),
            await act.get("/me", None),
            await act.get(f"/table/{table_id}", session),
            await act.get(f"/table/{table_id}/table.png", session),
            await act.get("/table/999", session),
            await act.post(f"/table/{table_id}/move", session, {"seen": "x"}),
            await act.web.get("/activity/nothing-here"),
            await act.web.get(f"{API}/table/{table_id}/events", params={"session": session}),
        ]
        statuses = [a.status for a in answers]
        assert statuses == [200, 400, 401, 200, 200, 404, 400, 404, 200]
        for answer in answers:
            assert_framed_by_discord_only(answer)
        answers[-1].close()


async def test_the_pages_keep_their_own_policy(tables, site):
    table_id = await seated_table(tables, "donguri")
    async with activity(site, tables) as act:
        page = await act.web.get(site.path(table_id))
        assert page.status == 200
        found = policy(page.headers["Content-Security-Policy"])
        assert "frame-ancestors" not in found and found["default-src"] == {"'self'"}
        live = await act.web.get(site.path(table_id, "/live"))
        assert live.headers["Content-Security-Policy"] == page.headers["Content-Security-Policy"]
        live.close()
