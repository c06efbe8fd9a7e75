"""A tournament's buttons: sign up, drop out, check in, and the organizer's start, next round, a
look at a round's seating, and confirming or redoing it; and the standings' pages
(``standings_pages``). Routed by discord.py like the table components
(``bot.tables.components``), bound to the tournament desk in the composition root."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import discord

from bot.core.interaction import Interaction
from bot.events.standings_pages import PageButton
from bot.tables.components import VerbButton, bound

if TYPE_CHECKING:
    from bot.events.desk import TournamentDesk


class EventButton(
    VerbButton, template=r"tt:ev:(?P<verb>join|drop|checkin|start|next|confirm|repair|pairings):(?P<id>[0-9]+)"
):
    prefix = "tt:ev:"
    names = "tournament id"
    handler: ClassVar[TournamentDesk]

    async def run(self, interaction: Interaction) -> None:
        await self.handler.on_button(interaction, self.verb, self.target)


def event_items(desk: TournamentDesk) -> list[type[discord.ui.DynamicItem[Any]]]:
    return [bound(EventButton, desk), bound(PageButton, desk.pages)]
