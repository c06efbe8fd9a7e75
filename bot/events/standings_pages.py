"""Standings longer than one message's lines (issue 49: a 30-player event showed ranks 1–25 only):
pages turned by buttons, the place of the member who asks, and the event's web page linked.

A page button on a message everyone sees (the live standings, a round's standings) answers the
member who clicks with the page, privately, and their place; on such a private answer it turns
the page in place. Its custom id ``tt:sp:<tournament>:<page>`` carries all it needs, so it works
after a restart.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, ClassVar, Self

import discord

from bot.core.errors import UserError
from bot.core.i18n import Lang
from bot.core.interaction import Interaction
from bot.events.links import EventPage
from bot.events.render_standings import STANDINGS_LINES, page_count, standings_message
from bot.events.standings import Standing
from bot.storage.events import Tournament
from bot.tables import component_input as strict
from bot.tables.components import Checked, static_view
from bot.tables.in_time import send_private, update
from bot.tables.member_locale import member_lang
from bot.tables.render import Rendered

if TYPE_CHECKING:
    from bot.events.service import TournamentService
    from bot.tables.desk import Desk


class PageButton(
    Checked,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"tt:sp:(?P<id>[0-9]+):(?P<page>[0-9]+)",
):
    """One page of an event's standings."""

    handler: ClassVar[StandingsPages]

    def __init__(self, tournament_id: int, page: int, **button: Any) -> None:
        super().__init__(discord.ui.Button(custom_id=f"tt:sp:{tournament_id}:{page}", **button))
        self.tournament_id, self.page = tournament_id, page

    @classmethod
    def parse(cls, match: re.Match[str], data: Any) -> Self:
        return cls(strict.number(match["id"], "tournament id"), strict.number(match["page"], "page"))

    async def run(self, interaction: Interaction) -> None:
        await self.handler.on_page(interaction, self.tournament_id, self.page)


def ranks(rows: int, page: int) -> tuple[int, int]:
    """The first and last rank a page shows."""
    return page * STANDINGS_LINES + 1, min(rows, (page + 1) * STANDINGS_LINES)


def page_buttons(t: Tournament, rows: int, page: int, tr: Lang) -> discord.ui.View | None:
    """The buttons to the previous and next pages, or None when the standings fit one page."""
    pages = page_count(rows)
    if pages < 2:
        return None
    items = []
    if page > 0:
        first, last = ranks(rows, page - 1)
        label = tr("tournament.button.page_prev", first=first, last=last)
        items.append(PageButton(t.id, page - 1, label=label, style=discord.ButtonStyle.secondary))
    if page < pages - 1:
        first, last = ranks(rows, page + 1)
        label = tr("tournament.button.page_next", first=first, last=last)
        items.append(PageButton(t.id, page + 1, label=label, style=discord.ButtonStyle.secondary))
    return static_view(*items)


def paged(rendered: Rendered, t: Tournament, rows: list[Standing], page: int, tr: Lang, url: str | None) -> Rendered:
    """``rendered`` with its page buttons, and where the standings take more than one page, the
    link to the event's page, where every player is listed with every round."""
    rendered.view = page_buttons(t, len(rows), page, tr)
    if rendered.view is not None and url and rendered.embed is not None:
        rendered.embed.description = (rendered.embed.description or "") + "\n" + tr("tournament.web_standings", url=url)
    return rendered


class StandingsPages:
    def __init__(self, service: TournamentService, desk: Desk, event_page: EventPage) -> None:
        self.service = service
        self.desk = desk
        self.event_page = event_page

    async def render(self, t: Tournament, tr: Lang, page: int = 0, you: int | None = None) -> Rendered:
        """One page of the standings, in ``tr``'s language, with ``you``'s place."""
        rows = await self.service.ranking.standings(t)
        teams = await self.service.ranking.team_standings(t)
        results = await self.service.store.results(t.id)
        shown = teams if teams is not None else rows
        page = min(page, page_count(len(shown)) - 1)
        rendered = standings_message(
            t, rows, results, tr, t.status == "finished", t.round, teams, page=page, you=you
        )
        return await self.finish(rendered, t, shown, page, tr)

    async def finish(self, rendered: Rendered, t: Tournament, shown: list[Standing], page: int, tr: Lang) -> Rendered:
        """A standings message rendered elsewhere (the live one, a round's), linked and paged."""
        url = await self.event_page(t)
        if url and rendered.embed is not None:
            rendered.embed.url = url
        return paged(rendered, t, shown, page, tr, url)

    async def on_page(self, interaction: Interaction, tournament_id: int, page: int) -> None:
        await self.desk.guarded(interaction, None, self._page(interaction, tournament_id, page))

    async def on_refused(self, interaction: Interaction, why: str) -> None:
        await self.desk.on_refused(interaction, why)

    async def _page(self, interaction: Interaction, tournament_id: int, page: int) -> None:
        t = await self.service.get(tournament_id)
        if t.guild_id != interaction.guild_id:
            raise UserError("tournament.error.none")  # a forged id from another server
        rendered = await self.render(t, member_lang(interaction), page, interaction.user.id)
        message = interaction.message
        if message is not None and message.flags.ephemeral:
            await update(interaction, **rendered.edit_kwargs())
        else:
            await send_private(interaction, **rendered.send_kwargs())
