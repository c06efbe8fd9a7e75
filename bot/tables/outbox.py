"""Messages sent once, even when the process dies between Discord's answer and the commit that
stores the new message's id.

Discord offers no idempotency key we can look up later (a nonce is echoed only to the sender), so
an intent row is committed before each new message. If the next pass finds the intent still open,
the send may or may not have happened: the channel's history after the intent is searched for the
bot's message that matches, and only when there is none is the message sent. Edits need none of
this: repeating an edit changes nothing.
"""

from __future__ import annotations

import datetime
from collections.abc import Awaitable, Callable, Collection

import discord

from bot.storage.store import Store

#: How far before the intent the history is searched: our clock against Discord's snowflakes.
CLOCK_SKEW = datetime.timedelta(seconds=2)
#: How many of the bot's later messages are looked at: one pass sends a few at most.
HISTORY = 25


class Outbox:
    def __init__(self, store: Store, client: discord.Client) -> None:
        self.store = store
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
        db = self.store.db
        async with db.execute(
            "SELECT sent_after FROM send_intents WHERE table_id = ? AND surface = ?", (table_id, surface)
        ) as cur:
            row = await cur.fetchone()
        if row is not None:
            found = await self.find(channel, row["sent_after"], matches, known)
            if found is not None:
                return found, False
        else:
            after = discord.utils.time_snowflake(discord.utils.utcnow() - CLOCK_SKEW)
            await db.execute(
                "INSERT INTO send_intents (table_id, surface, channel_id, sent_after) VALUES (?, ?, ?, ?)",
                (table_id, surface, channel_id, after),
            )
            await db.commit()
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
        await self.store.db.execute(
            "DELETE FROM send_intents WHERE table_id = ? AND surface = ?", (table_id, surface)
        )
        await self.store.db.commit()


    async def forget(self, table_id: int) -> None:
        """An ended table's intents that never completed (a send refused for good) are dropped."""
        await self.store.db.execute("DELETE FROM send_intents WHERE table_id = ?", (table_id,))
        await self.store.db.commit()


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
