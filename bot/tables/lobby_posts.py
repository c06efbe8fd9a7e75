"""A lobby's own messages, sent by its delivery pass (rows: ``bot/storage/lobby_posts.py``): its
guests' invitation DMs and the lines about them in its thread (``invite_dms.py``), a call for
players it heads (``lfg.py``), and the line saying it closed, nobody having joined.

The command or the clock that makes one due only commits it, with the table marked to be
delivered, so a restart finds it; the pass sends each once (its send intent first, and after a
crash the channel is searched for it), a failed send is retried with the pass, and an invitation
DM follows its guest's answer and the lobby. A table whose posts are all done is no longer read
for them: its pass makes no query more.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import discord

from bot.core.i18n import Lang
from bot.core.mentions import pinging
from bot.storage.lobby_posts import Post
from bot.tables.invite_render import closed_text
from bot.tables.lfg import CALL
from bot.tables.outbox import says
from bot.tables.terms import IDLE

if TYPE_CHECKING:
    from bot.storage.store import Store, TableRow
    from bot.tables.budget import Budgets
    from bot.tables.invite_dms import InviteDMs
    from bot.tables.lfg import DueCalls
    from bot.tables.outbox import Outbox

CLOSED = "closed"  # the line saying a lobby nobody joined closed


def followed_through(table: TableRow, posts: dict[str, Post]) -> bool:
    """Nothing left to send or redraw: no call due, and no invitation to follow (an open lobby's
    DMs still follow its answers; a table past its lobby showed how the lobby ended)."""
    call = posts.get(CALL)
    if call is not None and call.message_id is None:
        return False
    return not (table.guests and table.status == "lobby")


class ThreadLines:
    """Lines in a table's thread (or its own channel), each sent once."""

    def __init__(
        self, store: Store, budgets: Budgets, outbox: Outbox, channel: Callable[[int], discord.abc.Messageable]
    ) -> None:
        self.store = store
        self.budgets = budgets
        self.outbox = outbox
        self.channel = channel

    async def post(
        self, table: TableRow, surface: str, text: str, found: Callable[[discord.Message], bool], ping: list[int]
    ) -> Post:
        """The line, pinging ``ping`` only; ``found``: the line as an interrupted attempt sent it."""
        channel_id = table.home_channel_id
        channel = self.channel(channel_id)
        async with self.budgets.spending(channel_id):
            message, _ = await self.outbox.send_once(
                table.id, surface, channel, channel_id, found, lambda: channel.send(text, allowed_mentions=pinging(ping))
            )
        post = Post(surface, channel_id, message.id)
        async with self.store.transaction():
            await self.store.lobby_posts.set(table.id, post)
            await self.outbox.done(table.id, surface)
        return post


class LobbyPosts:
    def __init__(self, store: Store, lines: ThreadLines, invites: InviteDMs, calls: DueCalls) -> None:
        self.store = store
        self.lines = lines
        self.invites = invites
        self.calls = calls

    async def sync(self, table: TableRow) -> None:
        posts = await self.store.lobby_posts.of(table.id)
        await self.calls.sync(table, posts)
        await self.invites.sync(table, posts)
        if table.status == "cancelled" and table.closed_why == IDLE and CLOSED not in posts:
            text = f"⌛ {closed_text(table, Lang(table.language))}"
            posts[CLOSED] = await self.lines.post(table, CLOSED, text, says(text), [])
        if followed_through(table, posts):
            await self.store.update_table(table.id, posts=0)
