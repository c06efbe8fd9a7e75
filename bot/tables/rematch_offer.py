"""A rematch offer, heard: once the first player presses **Rematch**, one message in the table's
thread (or its own channel) mentions every other player once, with the table's **Rematch** and
**No rematch**; each confirmation, a decline, the start or the offer running out edits that one
message (an edit notifies nobody).

The message is sent once (``outbox.py``: its intent before the send, looked for in the channel
after a crash) and stored with the rematch (``offer_message_id``; 0 when there is nobody else to
tell, or the offer was decided before it could be posted), with the text it shows, so each change
is one edit, whichever process delivers the table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.core.i18n import Lang
from bot.storage.rematches import OPEN, Rematch
from bot.tables import render
from bot.tables.components import EndButton, static_view
from bot.tables.notices import NO_MENTIONS, Channels, jump_url
from bot.tables.rematch import waiting_for
from bot.tables.render import Ending

if TYPE_CHECKING:
    from bot.storage.store import Store, TableRow
    from bot.tables.budget import Budgets
    from bot.tables.outbox import Outbox

SURFACE = "rematch_offer"  # its send intent


def offer_line(table: TableRow, rematch: Rematch, asked: list[int], tr: Lang) -> str:
    """The offer's first line: whom it asks (mentions), who offered, which table."""
    by = [render.seat_name(s, tr) for s in table.seats if s.user_id in set(rematch.votes) and not s.is_computer]
    players = tr.join(tr("clock.addressee", player=f"<@{u}>") for u in asked)
    return tr(
        "rematch.offer", players=players, by=tr.join(tr("clock.addressee", player=b) for b in by),
        id=table.id, url=jump_url(table),
    )


def offer_message(table: TableRow, ending: Ending, first_line: str, tr: Lang) -> tuple[str, discord.ui.View]:
    """The whole message: its first line as posted, then where the offer stands (the final table's
    own rematch line) and its buttons while it is open."""
    status, items = render.end_controls(table, ending, tr)
    buttons: list[discord.ui.Item[Any]] = [i for i in items if isinstance(i, EndButton) and i.verb != "rules"]
    lines = [first_line, (status or "").removeprefix("🔁 ")]
    return "\n".join(filter(None, lines)), static_view(*buttons)


def is_offer_of(table: TableRow) -> Callable[[discord.Message], bool]:
    url = jump_url(table)
    return lambda message: (message.content or "").startswith("🔁") and url in message.content


class RematchOffer:
    def __init__(self, store: Store, budgets: Budgets, outbox: Outbox, channels: Channels) -> None:
        self.store = store
        self.budgets = budgets
        self.outbox = outbox
        self.channels = channels

    async def sync(self, table: TableRow, ending: Ending) -> None:
        """Post the offer of a finished table once it is opened; bring the posted one up to date."""
        rematch = ending.rematch
        if rematch is None or rematch.offer_message_id == 0 or table.tournament_id is not None:
            return
        tr = Lang(table.language)
        if rematch.offer_message_id is None:
            asked = waiting_for(table, rematch)
            if rematch.state != OPEN or not asked:
                await self.store.rematches.set_offer(table.id, table.home_channel_id, 0, "")
                return
            await self.post(table, ending, offer_line(table, rematch, asked, tr), asked, tr)
            return
        assert rematch.offer_channel_id is not None
        first_line = (rematch.offer_shows or "").split("\n", 1)[0]
        text, view = offer_message(table, ending, first_line, tr)
        if text == rematch.offer_shows:
            return
        async with self.budgets.spending(rematch.offer_channel_id):
            try:
                await self.channels.edit_message(
                    rematch.offer_channel_id, rematch.offer_message_id, content=text, view=view,
                    allowed_mentions=NO_MENTIONS,
                )
            except (discord.NotFound, discord.Forbidden):
                pass  # deleted by a moderator, or out of reach: the final table still says it
        await self.store.rematches.set_offer(table.id, rematch.offer_channel_id, rematch.offer_message_id, text)

    async def post(self, table: TableRow, ending: Ending, first_line: str, asked: list[int], tr: Lang) -> None:
        text, view = offer_message(table, ending, first_line, tr)
        home_id = table.home_channel_id
        home = self.channels.messageable(home_id)
        mentions = discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(u) for u in asked])
        async with self.budgets.spending(home_id):
            message, sent = await self.outbox.send_once(
                table.id, SURFACE, home, home_id, is_offer_of(table),
                lambda: home.send(content=text, view=view, allowed_mentions=mentions),
            )
        async with self.store.transaction():
            await self.store.rematches.set_offer(table.id, home_id, message.id, text)
            await self.outbox.done(table.id, SURFACE)
        if not sent and message.content != text:  # an interrupted attempt's, found: it may show less
            async with self.budgets.spending(home_id):
                await self.channels.edit_message(home_id, message.id, content=text, view=view, allowed_mentions=NO_MENTIONS)
