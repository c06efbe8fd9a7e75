"""How the Activity's API reads a request and words a refusal: a JSON body of 4 kB at most, the
member's language, and the HTTP status of each refusal the platform gives."""

from __future__ import annotations

import json
import re
from typing import Any

from aiohttp import web

from bot.core.i18n import LANGUAGES, Lang, language_of
from bot.web.activity_auth import Refused

MAX_BODY = 4096  # bytes: every body the API takes is a few dozen
LOCALE = re.compile(r"^[A-Za-z]{2,3}(-[A-Za-z]{2,4})?$")
NO_STORE = {"Cache-Control": "no-store"}


def bearer(header: str) -> str | None:
    scheme, _, value = header.partition(" ")
    return value.strip() or None if scheme.lower() == "bearer" else None


async def json_body(request: web.Request) -> dict[str, Any]:
    """The request's JSON object; anything else (too long, not JSON, not an object) is refused 400."""
    if request.content_type != "application/json":
        raise Refused(400, "activity.bad_request")
    if request.content_length is not None and request.content_length > MAX_BODY:
        raise Refused(400, "activity.bad_request")
    raw = await request.content.read(MAX_BODY + 1)
    if len(raw) > MAX_BODY:
        raise Refused(400, "activity.bad_request")
    try:
        body = json.loads(raw or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise Refused(400, "activity.bad_request") from None
    if not isinstance(body, dict):
        raise Refused(400, "activity.bad_request")
    return body


def reader(request: web.Request, default: str | None) -> Lang:
    """The member's language: ``?locale=`` (``en``, ``ja``, or a Discord locale such as ``en-US``),
    else their browser's, else ``default`` (the table's)."""
    values = request.query.getall("locale", [])
    if len(values) == 1 and LOCALE.match(values[0]):
        return Lang(language_of(values[0]))
    header = request.headers.get("Accept-Language", "")
    first = header.split(",")[0].split(";")[0].strip()
    if first and LOCALE.match(first):
        return Lang(language_of(first))
    return Lang(default if default in LANGUAGES else "en")


def locale_checked(request: web.Request) -> None:
    """A ``locale`` given twice or malformed is a bad request (a reader's fallback is not)."""
    values = request.query.getall("locale", [])
    if len(values) > 1 or (values and not LOCALE.match(values[0])):
        raise Refused(400, "activity.bad_request")


def user_status(key: str) -> int:
    """The HTTP status of a refusal the platform gives as a ``UserError``."""
    if key == "error.no_such_table":
        return 404
    if key in FORBIDDEN:
        return 403
    return 409  # the table is not in a state for it: stale, closed, full, paused …


FORBIDDEN = frozenset({
    "error.wrong_server", "error.not_seated", "error.host_only", "error.host_cannot_leave", "error.invite_only",
    "error.not_invited", "error.invite_lapsed",
})


def refusal(tr: Lang, status: int, code: str, text: str) -> web.Response:
    message = tr(text) if text == code and tr.has(code) else text
    return web.json_response({"error": {"code": code, "message": message}}, status=status, headers=NO_STORE)
