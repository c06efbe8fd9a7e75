"""The pages' own files (their style sheet, scripts and icon), read once when the pages load.

Each is linked under an address that names its content (``/static/style.css?v=<its hash>``): a
browser keeps it for a year without asking again, and a new version of the file is a new address.
Asked without that version (or with an old one), it is served to be checked again each time; its
``ETag`` lets the browser ask whether it changed (``If-None-Match``) and get a bare 304 if not.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

STATIC = Path(__file__).resolve().parent / "static"
TYPES = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}
#: How long a browser keeps a file asked for by its current version: a year, never asking again.
FOREVER = "public, max-age=31536000, immutable"
#: A file asked for without its current version: kept, but checked (by its ETag) before each use.
CHECKED = "no-cache"


@dataclass(frozen=True)
class Asset:
    body: bytes
    type: str
    version: str  # the first 16 hex digits of the content's SHA-256

    @property
    def etag(self) -> str:
        return f'"{self.version}"'

    def fresh(self, if_none_match: str) -> bool:
        """Whether a browser that sent ``If-None-Match: if_none_match`` holds this very content
        (a weak tag counts: a compressing layer on the way may have weakened ours)."""
        tags = {t.strip().removeprefix("W/") for t in if_none_match.split(",")}
        return "*" in tags or self.etag in tags


def load(folder: Path = STATIC) -> dict[str, Asset]:
    found = {}
    for path in sorted(folder.iterdir()):
        if path.suffix in TYPES:
            body = path.read_bytes()
            found[path.name] = Asset(body, TYPES[path.suffix], hashlib.sha256(body).hexdigest()[:16])
    return found


FILES = load()


def url(base: str, name: str) -> str:
    """The address a page links the file ``name`` by: under the pages' prefix, with its version."""
    return f"{base}/static/{name}?v={FILES[name].version}"
