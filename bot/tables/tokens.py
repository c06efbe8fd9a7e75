"""A member's click on their hand DM leaves an interaction token that may edit that message for
15 minutes, through the interaction's webhook, and Discord's global limit (50 calls a second) does
not count those calls. So the next time that DM must change (their turn starts again), the delivery
worker edits it with the token rather than with the bot's own call. At a table in play, a move's
counted calls drop from two (the next player's DM and the table message) to about one.

Tokens are kept in memory only, for 14 minutes: after a restart, in another process, or later than
that, the bot's own edit is used. A token Discord refuses is dropped and the bot's edit follows.

A member whose DMs are closed plays from the private hand **My hand** shows them in the channel.
The bot cannot edit that message at all except through a click's token, so the token of their last
card pressed there redraws it when their turn comes back, as their DM would have been.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import discord
from discord.http import handle_message_parameters
from discord.webhook.async_ import async_context

from bot.core.engine import Engine
from bot.storage.store import TableRow
from bot.tables.render import relevance

LIFE = 14 * 60.0  # Discord's 15 minutes, less a margin for clocks and queues
KEPT = 4096  # seats; the oldest are forgotten first


@dataclass
class Token:
    application_id: int
    token: str
    message_id: int  # the message its component was on: what ``@original`` edits
    session: Any  # the aiohttp session discord.py answered the interaction with
    until: float  # event-loop time
    shows: str | None = None  # for a private hand in the channel (not a DM): what it shows (``relevance``)


class Tokens:
    def __init__(self) -> None:
        # (table, seat, private hand?) -> the latest: a member may play from both their DM and a
        # private hand, and each keeps its own token
        self.kept: OrderedDict[tuple[int, int, bool], Token] = OrderedDict()

    def keep(self, interaction: discord.Interaction, table: TableRow, engine: Engine, seat: int, private: bool) -> None:
        """After a click on the seat's DM (or, ``private``, on its private hand in the channel) was
        answered by updating that message with the table as it is now."""
        if interaction.message is None:
            return
        until = asyncio.get_running_loop().time() + LIFE
        key = (table.id, seat, private)
        self.kept[key] = Token(
            interaction.application_id, interaction.token, interaction.message.id, interaction._session, until,
            shows=relevance(table, engine, seat) if private else None,
        )
        self.kept.move_to_end(key)
        while len(self.kept) > KEPT:
            self.kept.popitem(last=False)

    def fresh(self, table_id: int, seat: int, message_id: int | None) -> Token | None:
        """A token that may still edit this DM (None: the seat's private hand), if any."""
        key = (table_id, seat, message_id is None)
        token = self.kept.get(key)
        if token is None or (message_id is not None and token.message_id != message_id):
            return None
        if token.until <= asyncio.get_running_loop().time():
            del self.kept[key]
            return None
        return token

    def forget(self, table_id: int) -> None:
        for key in [k for k in self.kept if k[0] == table_id]:
            del self.kept[key]

    async def edit(self, table_id: int, seat: int, token: Token, http: discord.http.HTTPClient, **fields: Any) -> None:
        """``Interaction.edit_original_response`` without building the answered Message or storing
        the view (every button here is a dynamic item, found again by its custom id). A token
        Discord refuses (expired, the message dismissed) is dropped before the error is raised."""
        try:
            with handle_message_parameters(**fields) as params:
                await async_context.get().edit_original_interaction_response(
                    token.application_id, token.token, session=token.session, proxy=http.proxy,
                    proxy_auth=http.proxy_auth, payload=params.payload, multipart=params.multipart,
                    files=params.files,
                )
        except discord.HTTPException:
            self.kept.pop((table_id, seat, token.shows is not None), None)
            raise
