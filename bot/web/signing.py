"""Unguessable page addresses: a page's id is the table's id with an HMAC of it, so knowing one
page's address (or any table number) gives no way to another's, and a forged id is told from an
unknown one only by its owner."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets

#: 128 bits of the HMAC, in 22 URL-safe characters.
MAC_BYTES = 16
TOKEN = re.compile(r"^([1-9][0-9]{0,17})-([A-Za-z0-9_-]{22})$")


def fresh_secret() -> str:
    return secrets.token_urlsafe(32)


class Signer:
    def __init__(self, secret: str) -> None:
        self.key = secret.encode()

    def _mac(self, kind: str, number: int) -> str:
        digest = hmac.new(self.key, f"{kind}:{number}".encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest[:MAC_BYTES]).decode().rstrip("=")

    def token(self, number: int, kind: str = "table") -> str:
        """The id of the page of ``kind`` (a table; later an event, a server) number ``number``."""
        return f"{number}-{self._mac(kind, number)}"

    def number(self, token: str, kind: str = "table") -> int | None:
        """The number a page id was made for, or None for anything not made here."""
        match = TOKEN.match(token)
        if match is None:
            return None
        number = int(match.group(1))
        if not hmac.compare_digest(match.group(2), self._mac(kind, number)):
            return None
        return number
