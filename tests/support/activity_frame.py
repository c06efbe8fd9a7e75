"""A stand-in for Discord's client around the Activity, in a real browser: a parent page that holds
the Activity in an iframe, as Discord does (``frame_id``, ``instance_id`` and ``platform`` in its
address), and answers the Embedded App SDK's messages (``postMessage``: the handshake, then
``AUTHORIZE``, ``AUTHENTICATE``, ``USER_SETTINGS_GET_LOCALE`` …) for one member of the fake
Discord. The page is the real bundle, SDK and all; only Discord's side is played here.

The parent page is served by the browser itself (Playwright's ``route``) on the server's own
origin, which the SDK accepts messages from and the Activity's ``frame-ancestors`` allows.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from tests.support.browser import context
from tests.support.discord_model import User
from tests.support.fake_discord import FakeDiscord
from tests.support.patience import patient

SHOTS = Path("/tmp/shots-activity")
WAIT = patient(10) * 1000  # ms: how long a page may take to show what the server committed
PARENT = "/discord-client/"  # a path the server does not serve: the browser answers it
#: The client's side of the SDK's protocol: opcodes 0 (handshake) and 1 (a frame), answered by
#: the test's ``discordCommand``.
CLIENT = """<!doctype html><html><head><meta charset="utf-8"><title>Discord</title>
<style>html,body{margin:0;height:100%}iframe{border:0;width:100%;height:100%;display:block}</style></head>
<body><iframe id="app" src="__SRC__" title="Activity"></iframe>
<script>
const app = document.getElementById("app");
addEventListener("message", async (event) => {
  if (event.source !== app.contentWindow || !Array.isArray(event.data)) return;
  const [op, data] = event.data;
  const reply = (payload) => app.contentWindow.postMessage([1, payload], location.origin);
  if (op === 0) {
    const user = await discordHandshake(data);
    reply({cmd: "DISPATCH", evt: "READY", nonce: null,
           data: {v: 1, config: {api_endpoint: "//discord.com/api", environment: "production"}, user}});
    return;
  }
  if (op !== 1 || data.cmd === "DISPATCH") return;
  const answer = await discordCommand(data.cmd, data.args || {});
  if (answer && answer.error) reply({cmd: data.cmd, evt: "ERROR", nonce: data.nonce, data: answer.error});
  else reply({cmd: data.cmd, evt: null, nonce: data.nonce, data: answer.data});
});
</script></body></html>"""


@dataclass
class DiscordClient:
    """Discord's client for ``user`` in an Activity instance: what the SDK asked, and its logs."""

    fake: FakeDiscord
    user: User
    locale: str  # the member's Discord language, as USER_SETTINGS_GET_LOCALE answers it
    commands: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    logs: list[tuple[str, str]] = field(default_factory=list)  # the SDK's CAPTURE_LOG: (level, message)
    handshakes: list[dict[str, Any]] = field(default_factory=list)

    def user_payload(self) -> dict[str, Any]:
        return {"id": self.user.id, "username": self.user.name, "discriminator": "0"}

    async def handshake(self, data: dict[str, Any]) -> dict[str, Any]:
        self.handshakes.append(data)
        return self.user_payload()

    async def command(self, cmd: str, args: dict[str, Any]) -> dict[str, Any]:
        self.commands.append((cmd, args))
        oauth = self.fake.oauth
        if cmd == "AUTHORIZE":
            if args.get("client_id") != self.fake.application_id or args.get("scope") != ["identify"]:
                return {"error": {"code": 4007, "message": "Invalid client id or scope"}}
            return {"data": {"code": oauth.code(self.user)}}
        if cmd == "AUTHENTICATE":
            if oauth.tokens.get(args.get("access_token", "")) != self.user.id:
                return {"error": {"code": 4009, "message": "Invalid token"}}
            user = {**self.user_payload(), "avatar": None, "public_flags": 0, "global_name": self.user.name}
            application = {"description": "", "id": self.fake.application_id, "name": "Tabletop"}
            return {"data": {"access_token": args["access_token"], "user": user, "scopes": ["identify"],
                             "expires": "2099-01-01T00:00:00.000Z", "application": application}}
        if cmd == "USER_SETTINGS_GET_LOCALE":
            return {"data": {"locale": self.locale}}
        if cmd == "CAPTURE_LOG":
            self.logs.append((str(args.get("level")), str(args.get("message"))))
            return {"data": None}
        return {"error": {"code": 4002, "message": f"{cmd} is not played by the test's client"}}


async def open_activity(
    context: Any, origin: str, fake: FakeDiscord, user: User, instance: str, locale: str = "en-US",
    table: int | None = None, path: str = "/activity/",
) -> tuple[Any, Any, DiscordClient]:
    """(page, the Activity's frame, the client) for ``user``, in a new page of ``context``."""
    client = DiscordClient(fake, user, locale)
    page = await context.new_page()
    await page.expose_function("discordHandshake", client.handshake)
    await page.expose_function("discordCommand", client.command)
    query: dict[str, str] = {"frame_id": f"frame-{user.id}", "instance_id": instance, "platform": "desktop"}
    if table is not None:
        query["table"] = str(table)
    html = CLIENT.replace("__SRC__", path + "?" + urlencode(query).replace("&", "&amp;"))

    async def serve(route: Any) -> None:
        await route.fulfill(status=200, content_type="text/html", body=html)

    await page.route(origin + PARENT, serve)
    await page.goto(origin + PARENT)
    frame = await (await page.wait_for_selector("#app")).content_frame()
    return page, frame, client


def watch_errors(page: Any) -> list[str]:
    """Every error the page's frames log and every answer of 400 or more they get."""
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    return errors


async def version(frame: Any) -> int:
    """The table version the Activity shows (0 before it shows a table)."""
    return int(await frame.get_attribute("#table", "data-version") or 0)


async def shows_version(frame: Any, wanted: int) -> None:
    """Until the Activity shows the table at version ``wanted`` or later."""
    await frame.wait_for_function(
        "v => Number(document.getElementById('table').dataset.version || 0) >= v", arg=wanted, timeout=WAIT
    )


async def enabled_actions(frame: Any) -> list[str]:
    """The moves the member may tap now (the greyed choices carry none)."""
    return await frame.eval_on_selector_all("button.choice[data-action]:not([disabled])", "bs => bs.map(b => b.dataset.action)")


async def tap(frame: Any, action: str) -> None:
    await frame.click(f'button.choice[data-action="{action}"]')


async def shot(page: Any, frame: Any, name: str) -> Path:
    """A screenshot of the whole Activity (the frame stretched to its content), under ``SHOTS``."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    height = await frame.evaluate("() => { window.scrollTo(0, 0); return document.documentElement.scrollHeight; }")
    await page.evaluate("h => { document.getElementById('app').style.height = h + 'px'; }", height)
    path = SHOTS / f"{name}.png"
    await page.screenshot(path=str(path), full_page=True)
    await page.evaluate("() => { document.getElementById('app').style.height = ''; }")
    return path


class Views:
    """Browser contexts (a member each), closed before the server stops: a stream still open
    would hold the server's shutdown for its whole grace."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.opened: list[Any] = []

    async def new(self, width: int, language: str, height: int = 900) -> Any:
        view = await context(self.browser, width, height, language)
        self.opened.append(view)
        return view


@contextlib.asynccontextmanager
async def browsing(browser: Any) -> AsyncIterator[Views]:
    views = Views(browser)
    try:
        yield views
    finally:
        for view in views.opened:
            await view.close()


def drop_connections(server: Any) -> int:
    """Every connection to the test server cut, as a network drop would (its streams with them)."""
    handlers = server.runner.server.connections
    for handler in handlers:
        handler.force_close()
    return len(handlers)
