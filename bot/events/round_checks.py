"""Before a round's tables open: the bot must have every permission the tables need in the event's
channel (``bot.tables.permissions``), or nothing of the round opens. An organizer who asked gets
the refusal; when the round was to start by itself (a sign-up deadline, the next round of an
event that advances alone), the organizer is told by DM, once per round, in their own language.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from bot.core.games import REGISTRY
from bot.core.i18n import Lang
from bot.core.mentions import pinging
from bot.tables.permissions import MissingPermissions, missing_for_table, named

if TYPE_CHECKING:
    from bot.storage.events import Tournament
    from bot.tables.delivery import Delivery
    from bot.tables.desk import Desk
    from bot.tables.opening import Opening

log = logging.getLogger(__name__)


class RoundChecks:
    def __init__(self, client: discord.Client, opening: Opening, delivery: Delivery, desk: Desk) -> None:
        self.client = client  # the event's server and channel, as the bot sees them now
        self.opening = opening  # where a game's own channels go in the server
        self.delivery = delivery  # the organizer's DM
        self.desk = desk  # the organizer's language
        self.told: set[tuple[int, int]] = set()  # (event, round) whose organizer was told

    async def missing(self, tournament: Tournament) -> list[str]:
        """Every permission the bot lacks to open the event's tables in its channel (none when the
        channel is not to be seen: opening the round says so)."""
        guild = self.client.get_guild(tournament.guild_id)
        channel = guild.get_channel(tournament.channel_id) if guild is not None else None
        if guild is None or not isinstance(channel, discord.TextChannel):
            return []
        own = REGISTRY[tournament.game].channel_mode == "channel"
        category = await self.opening.category(guild, tournament.game) if own else None
        return missing_for_table(guild.me, channel, own, category)

    async def require(self, tournament: Tournament, tr: Lang | None = None) -> None:
        """``MissingPermissions`` in ``tr``'s language (the member who asked; else the event's)."""
        missing = await self.missing(tournament)
        if missing:
            raise MissingPermissions(missing, tr or Lang(tournament.language))

    async def tell_organizer(self, tournament: Tournament, missing: list[str], key: str) -> None:
        """Tell the organizer, once per round, that the round could not open and why: by DM, or
        in the event's channel when their DMs are closed."""
        mark = (tournament.id, tournament.round)
        if mark in self.told:
            return
        self.told.add(mark)
        log.warning("tournament %s: cannot open round %s: missing %s", tournament.id, tournament.round + 1, missing)
        tr = await self.desk.lang_of(tournament.organizer_id, tournament.language)
        text = tr(key, name=tournament.name, channel=f"<#{tournament.channel_id}>", permissions=named(missing, tr))
        try:
            dm = await self.delivery.dm_channel(tournament.organizer_id)
            await dm.send(text)
            return
        except discord.HTTPException:
            pass
        try:
            await self.delivery.messageable(tournament.channel_id).send(
                f"<@{tournament.organizer_id}> {text}"[:2000],
                allowed_mentions=pinging([tournament.organizer_id]),
            )
        except discord.HTTPException:
            log.warning("tournament %s: could not tell the organizer", tournament.id)
