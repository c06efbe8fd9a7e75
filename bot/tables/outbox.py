"""Messages sent once, even when the process dies between Discord's answer and the commit that
stores the new message's id.

Discord offers no idempotency key we can look up later (a nonce is echoed only to the sender), so
an intent row is committed before each new message. If the next pass finds the intent still open,
the send may or may not have happened: the channel's history after the intent is searched for the
bot's message that matches, and only when there is none is the message sent. Edits need none of
this: repeating an edit changes nothing. (The intents' rows: ``bot/storage/outbox.py``.)
"""

from __future__ import annotations

import datetime
from collections.abc import Awaitable, Callable, Collection

import discord

from bot.storage.outbox import SendIntents

#: How far before the intent the history is searched: our clock against Discord's snowflakes.
CLOCK_SKEW = datetime.timedelta(seconds=2)
#: How many of the bot's later messages are looked at: one pass sends a few at most.
HISTORY = 25


class Outbox:
    def __init__(self, intents: SendIntents, client: discord.Client) -> None:
        self.intents = intents
        self.client = client  # whose messages are looked for

    async def send_once(
        self,
        table_id: int,
        surface: str,
        channel: discord.abc.Messageable,
        channel_id: int,
        matches: Callable[[discord.Message], bool],
        send: Callable[[], Awaitable[discord.Message]],
        known: Collection[int] = (),
    ) -> tuple[discord.Message, bool]:
        """The message for ``surface`` and whether it was sent now: else an interrupted earlier
        attempt sent it, and it may show an older state. The caller stores its id and calls
        :meth:`done` in the same transaction."""
        after = await self.intents.sent_after(table_id, surface)
        if after is not None:
            found = await self.find(channel, after, matches, known)
            if found is not None:
                return found, False
        else:
            after = discord.utils.time_snowflake(discord.utils.utcnow() - CLOCK_SKEW)
            await self.intents.open(table_id, surface, channel_id, after)
        return await send(), True

    async def find(
        self, channel: discord.abc.Messageable, after: int, matches: Callable[[discord.Message], bool],
        known: Collection[int],
    ) -> discord.Message | None:
        me = self.client.user.id if self.client.user else None
        async for message in channel.history(limit=HISTORY, after=discord.Object(after)):
            if message.author.id == me and message.id not in known and matches(message):
                return message
        return None

    async def done(self, table_id: int, surface: str) -> None:
        await self.intents.close(table_id, surface)

    async def forget(self, table_id: int) -> None:
        """An ended table's intents that never completed (a send refused for good) are dropped."""
        await self.intents.forget(table_id)


def mentions_url(url: str) -> Callable[[discord.Message], bool]:
    """A message that links to ``url`` in its text or its embed (a hand DM names its table)."""

    def match(message: discord.Message) -> bool:
        texts = [message.content or ""] + [e.description or "" for e in message.embeds]
        return any(url in t for t in texts)

    return match


def says(text: str) -> Callable[[discord.Message], bool]:
    """A message whose text is exactly ``text`` (record lines, a turn ping)."""
    return lambda message: message.content == text


def begins(text: str) -> Callable[[discord.Message], bool]:
    """A message showing ``text`` or its first lines: the record's last piece, sent by a pass cut
    short before more lines came (the lines that follow only grow it)."""
    return lambda message: message.content == text or text.startswith(message.content + "\n")
