"""A member's click on their hand DM leaves an interaction token that may edit that message for
15 minutes, through the interaction's webhook, and Discord's global limit (50 calls a second) does
not count those calls. So the next time that DM must change (their turn starts again), the delivery
worker edits it with the token rather than with the bot's own call. At a table in play, a move's
counted calls drop from two (the next player's DM and the table message) to about one.

A token is stored with the move its click made, in the same transaction, and read with the DM's
delivery row. So it serves after a restart (a crash's dirty tables are redrawn mostly uncounted),
and in whichever process delivers the table: with several processes, Discord sends every DM click
to shard 0's. It is used for 14 minutes; a token Discord refuses is deleted and the bot's own edit
follows.

A member whose DMs are closed plays from the private hand **My hand** shows them in the channel.
The bot cannot edit that message at all except through a click's token, so the token of their last
card pressed there redraws it when their turn comes back, as their DM would have been.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
from discord.webhook.async_ import async_context

from bot.core.engine import Engine
from bot.core.mentions import message_parameters
from bot.storage.store import Store, TableRow
from bot.tables.render import relevance

LIFE = 14 * 60.0  # Discord's 15 minutes, less a margin for clocks and queues
EPHEMERAL = 64  # a message's flag: only the member it answers sees it


@dataclass
class Token:
    token: str
    message_id: int  # the message its component was on: what ``@original`` edits
    until: float  # wall-clock seconds
    shows: str | None = None  # for a private hand in the channel (not a DM): what it shows (``relevance``)


class Tokens:
    def __init__(self, store: Store, client: discord.Client, session: aiohttp.ClientSession) -> None:
        self.store = store
        self.client = client  # its application id and proxy settings
        self.session = session  # the interaction webhook's calls are not the bot's: a session of our own

    @staticmethod
    def of(interaction: discord.Interaction) -> Token | None:
        """The token of a click, before it is answered (it is good from the moment it was sent)."""
        if interaction.message is None:
            return None
        return Token(interaction.token, interaction.message.id, time.time() + LIFE)

    async def keep(self, token: Token, table: TableRow, engine: Engine, seat: int, private: bool) -> None:
        """Inside the transaction of the move the click made (``table`` and ``engine`` as it leaves
        them): the click is answered by updating its message with that state."""
        shows = relevance(table, engine, seat) if private else None
        await self.store.surfaces.keep_token(table.id, seat, private, token.message_id, token.token, token.until, shows)

    @staticmethod
    def for_dm(row: Any) -> Token | None:
        """A token that may still edit the DM of this delivery row (``Store.delivery``), if any."""
        if row is None or row["token"] is None or row["token_message"] != row["message_id"]:
            return None
        if row["token_until"] <= time.time():
            return None
        return Token(row["token"], row["token_message"], row["token_until"])

    async def for_private_hand(self, table_id: int, seat: int) -> Token | None:
        row = await self.store.surfaces.click_token(table_id, seat, True)
        if row is None or row["until"] <= time.time():
            return None
        return Token(row["token"], row["message_id"], row["until"], row["shows"])

    async def shown(self, table_id: int, seat: int, token: Token, shows: str) -> None:
        token.shows = shows
        await self.store.surfaces.token_shows(table_id, seat, token.token, shows)

    async def forget(self, table_id: int) -> None:
        await self.store.surfaces.drop_tokens(table_id)

    async def edit(self, table_id: int, seat: int, token: Token, **fields: Any) -> None:
        """``Interaction.edit_original_response`` without building the answered Message or storing
        the view (every button here is a dynamic item, found again by its custom id). A token
        Discord refuses (expired, the message dismissed) is deleted before the error is raised."""
        http = self.client.http
        application_id = self.client.application_id
        assert application_id is not None, "a token comes from an interaction, after login"
        try:
            with message_parameters(**fields) as params:
                await async_context.get().edit_original_interaction_response(
                    application_id, token.token, session=self.session,
                    proxy=http.proxy, proxy_auth=http.proxy_auth, payload=params.payload,
                    multipart=params.multipart, files=params.files,
                )
        except discord.HTTPException:
            await self.store.surfaces.drop_token(table_id, seat, token.token)
            raise

    async def original(self, token: str) -> None:
        """Read the message a click's response made or deferred: NotFound when Discord never had
        a response to it (the process died before deferring it; the member saw the click fail)."""
        http = self.client.http
        assert self.client.application_id is not None, "a token comes from an interaction, after login"
        await async_context.get().get_original_interaction_response(
            self.client.application_id, token, session=self.session, proxy=http.proxy, proxy_auth=http.proxy_auth
        )

    async def follow_up(self, token: str, text: str) -> None:
        """A private message to the member whose click this token answers, as ``followup.send``."""
        http = self.client.http
        assert self.client.application_id is not None, "a token comes from an interaction, after login"
        payload = {"content": text, "flags": EPHEMERAL, "allowed_mentions": {"parse": []}}
        await async_context.get().execute_webhook(
            self.client.application_id, token, session=self.session, proxy=http.proxy, proxy_auth=http.proxy_auth,
            payload=payload, wait=True,
        )
