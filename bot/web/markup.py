"""Discord's markdown, as the games' renderers and the catalogs write it, turned into safe HTML.

Everything is escaped first; then only the few forms the bot writes become tags: **bold**,
~~struck~~, `code`, code blocks, [links](https://…), <t:…> timestamps (a ``<time>`` the page's
script shows in the reader's time zone) and <@member> mentions (the member's seat name, when known).
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from datetime import UTC, datetime

CODE_BLOCK = re.compile(r"```(?:[a-z]*\n)?(.*?)```\n?", re.S)  # a block ends its line
INLINE_CODE = re.compile(r"`([^`\n]+)`")
BOLD = re.compile(r"\*\*(.+?)\*\*", re.S)
STRUCK = re.compile(r"~~(.+?)~~", re.S)
LINK = re.compile(r"\[([^\]\n]+)\]\((https?://[^\s)]+)\)")
TIMESTAMP = re.compile(r"&lt;t:(-?\d{1,12})(?::([tTdDfFR]))?&gt;")
MENTION = re.compile(r"&lt;@!?(\d{1,20})&gt;")
HOLE = "\x00{}\x00"  # a piece already turned into HTML, kept out of the later replacements
HOLES = re.compile("\x00(\\d+)\x00")


def escape(text: str) -> str:
    return html.escape(text, quote=True)


def time_tag(when: float, style: str = "f") -> str:
    """A moment as ``<time>``: UTC in the page; the script shows it in the reader's zone."""
    moment = datetime.fromtimestamp(when, UTC)
    iso = moment.isoformat().replace("+00:00", "Z")
    return f'<time datetime="{iso}" data-style="{style}">{moment:%Y-%m-%d %H:%M} +00:00</time>'


def to_html(text: str | None, names: Mapping[int, str] | None = None) -> str:
    """``text`` in Discord's markdown as HTML, newlines as line breaks; ``names``: member id to the
    name a mention shows."""
    if not text:
        return ""
    text = text.replace("\x00", "")
    pieces: list[str] = []

    def keep(piece: str) -> str:
        pieces.append(piece)
        return HOLE.format(len(pieces) - 1)

    text = CODE_BLOCK.sub(lambda m: keep(f"<pre><code>{escape(m.group(1).strip(chr(10)))}</code></pre>"), text)
    text = INLINE_CODE.sub(lambda m: keep(f"<code>{escape(m.group(1))}</code>"), text)
    text = escape(text)
    text = LINK.sub(lambda m: keep(f'<a href="{m.group(2)}" rel="noopener">{m.group(1)}</a>'), text)
    text = TIMESTAMP.sub(lambda m: keep(time_tag(int(m.group(1)), m.group(2) or "f")), text)
    known = names or {}
    text = MENTION.sub(lambda m: escape(known.get(int(m.group(1)), "@…")), text)
    text = BOLD.sub(r"<strong>\1</strong>", text)
    text = STRUCK.sub(r"<s>\1</s>", text)
    text = text.replace("\n", "<br>\n")
    return HOLES.sub(lambda m: pieces[int(m.group(1))], text)


def plain(text: str | None) -> str:
    """``text`` without its markdown, for a page's title or an image's alt text (not escaped)."""
    if not text:
        return ""
    text = CODE_BLOCK.sub(lambda m: m.group(1), text)
    text = LINK.sub(r"\1", text)
    return re.sub(r"\*\*|~~|`", "", text)
