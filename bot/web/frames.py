"""What every answer under ``/activity`` carries. Discord shows the Activity in an iframe, served
through its proxy from ``<application id>.discordsays.com``: the page may be framed by Discord's
client (``frame-ancestors``; ``X-Frame-Options`` would forbid it, so no answer sets it), and loads
and calls nothing but its own origin, which through the proxy is the only one Discord lets it
reach. The Embedded App SDK talks to the client by ``postMessage``, which no directive governs.
The pages' own answers keep the pages' policy (``app.HEADERS``).
"""

from __future__ import annotations

PREFIX = "/activity"
#: Discord's clients (the web and desktop apps, and their test builds) and its Activity proxy.
DISCORD_FRAMES = ("https://discord.com", "https://*.discord.com", "https://*.discordsays.com")
POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",  # a game's colour in a style attribute, as on the pages
    "img-src 'self' data: blob:",
    "connect-src 'self'",  # the API and its event stream, same-origin through the proxy
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    # 'self': a test page of this server's own may frame it, as Discord's client does.
    "frame-ancestors 'self' " + " ".join(DISCORD_FRAMES),
])
HEADERS = {
    "Content-Security-Policy": POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # a session in a stream's or a picture's address goes nowhere else
    "X-Robots-Tag": "noindex",
}


def activity_path(path: str) -> bool:
    return path == PREFIX or path.startswith(PREFIX + "/")
