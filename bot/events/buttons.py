"""A tournament's buttons: sign up, drop out, check in, and the organizer's start, next round, a
look at a round's seating, and confirming or redoing it. Routed by discord.py like the table components
(``bot.tables.components``), bound to the tournament desk in the composition root."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, ClassVar, Self

import discord

from bot.core.interaction import Interaction
from bot.tables import component_input as strict
from bot.tables.components import Checked, bound

if TYPE_CHECKING:
    from bot.events.desk import TournamentDesk


class EventButton(
    Checked,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"tt:ev:(?P<verb>join|drop|checkin|start|next|confirm|repair|pairings):(?P<eid>[0-9]+)",
):
    handler: ClassVar[TournamentDesk]

    def __init__(self, verb: str, event_id: int, **button: Any) -> None:
        super().__init__(discord.ui.Button(custom_id=f"tt:ev:{verb}:{event_id}", **button))
        self.verb, self.event_id = verb, event_id

    @classmethod
    def parse(cls, match: re.Match[str], data: Any) -> Self:
        return cls(match["verb"], strict.number(match["eid"], "tournament id"))

    async def run(self, interaction: Interaction) -> None:
        await self.handler.on_button(interaction, self.verb, self.event_id)


def event_items(desk: TournamentDesk) -> list[type[discord.ui.DynamicItem[Any]]]:
    return [bound(EventButton, desk)]
