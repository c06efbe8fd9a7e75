"""An event's messages link to its web page: the title of each links there when the pages have a
public address (``bot/web`` hands the desk the ``EventPage`` that says where)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.storage.events import Tournament
from bot.tables.render import Rendered

#: The address of an event's web page, or None when its messages must not link to one.
EventPage = Callable[[Tournament], Awaitable[str | None]]


async def no_page(tournament: Tournament) -> str | None:
    return None


async def linked(page: EventPage, tournament: Tournament, rendered: Rendered) -> Rendered:
    """``rendered`` with its title linking to the event's page, when there is one."""
    url = await page(tournament)
    if url and rendered.embed is not None:
        rendered.embed.url = url
    return rendered
