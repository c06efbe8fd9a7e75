"""The end of a game, pushed: a new DM to each member of a finished table, with their place, every
player's score and the table's **Rematch**, **Replay** and **Rules**.

An edit notifies nobody, so the result is a message of its own (the last hand DM only says the
game is over: ``render.prompt_message``). Its first lines, which a phone's notification shows, say
the game and the member's place; a member who chose ``/notifications never`` gets it silently.
It is sent once, crash or not: its send intent is committed first (``outbox.py``), and after a
crash the DM channel's history is searched for it before it is sent again. Once the rematch is
decided (started, declined, expired), each DM is edited once to say so. Only a finished table's
pass reads its rows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.core import results
from bot.core.engine import Engine
from bot.core.games import REGISTRY
from bot.core.i18n import Lang
from bot.storage.endings import ResultDM
from bot.storage.rematches import DECLINED, EXPIRED, OPEN, STARTED
from bot.tables import render
from bot.tables.components import EndButton, static_view
from bot.tables.hooks import Link
from bot.tables.notices import DMChannel, jump_url
from bot.tables.render import Ending, Rendered

if TYPE_CHECKING:
    from bot.storage.store import Seat, Store, TableRow
    from bot.tables.budget import Budgets
    from bot.tables.member_locale import MemberLanguages
    from bot.tables.outbox import Outbox

DM_CLOSED = 50007
OFFER = "offer"  # what a DM shows while the rematch may still happen: its button
STARTING = "starting"  # a rematch started, its table not posted yet: its link comes later


class DMs(Protocol):
    """The members' DM channels, as the delivery worker keeps them."""

    async def dm_channel(self, user_id: int) -> DMChannel: ...

    async def forget_dm(self, user_id: int) -> None: ...

    async def edit_message(self, channel_id: int, message_id: int, **fields: Any) -> None: ...


def shows(table: TableRow, ending: Ending, now: float) -> str | None:
    """What a result DM offers of the rematch: its button while it may happen, else its outcome;
    None while a started rematch's table is not posted yet (its link comes with it)."""
    rematch = ending.rematch
    if table.tournament_id is not None:
        return "none"
    if rematch is None or (rematch.state == OPEN and rematch.expires_at > now):
        return OFFER
    if rematch.state == STARTED:
        return f"{STARTED}:{rematch.new_table_id}" if ending.rematch_url else None
    return DECLINED if rematch.state == DECLINED else EXPIRED


def result_dm(
    table: TableRow, engine: Engine, seat: Seat, ending: Ending, offer: str, page: str | None, tr: Lang
) -> Rendered:
    """A member's end-of-game DM: the game and their place first, every player's result below."""
    ui = REGISTRY[table.game]
    result = results.stored_result(table, engine)
    assert result is not None, "a finished table has its result"
    names = render.seat_names(table, tr)
    url = jump_url(table)
    over = tr("dm.end.over", game=tr(f"{table.game}.name"), id=table.id, url=url)
    content = "\n".join([over, *ui.end_lines(result, seat.position, names, tr)])
    embed = discord.Embed(title=render.game_title(table, tr), url=page, colour=0x2F7D4F)
    embed.description = results.result_block(ui, result, names, tr)
    items: list[discord.ui.Item[Any]] = []
    if offer == OFFER:
        items.append(EndButton("rematch", table.id, label=tr("button.rematch"), emoji="🔁", style=discord.ButtonStyle.success))
    elif offer != "none":
        line, _ = render.end_controls(table, ending, tr)
        embed.description += f"\n\n{line}" if line else ""
    if page:
        items.append(discord.ui.Button(label=tr("button.replay"), url=f"{page}/replay", emoji="🎞️"))
    items.append(EndButton("rules", table.id, label=tr("button.rules"), emoji="📖", style=discord.ButtonStyle.secondary))
    return Rendered(content=content, embed=embed, view=static_view(*items))


def is_result_of(table: TableRow) -> Callable[[discord.Message], bool]:
    """The bot's end-of-game DM of this table (a hand DM names its table in its embed, not its text)."""
    url = jump_url(table)
    return lambda message: (message.content or "").startswith("🏁") and url in message.content


class ResultDMs:
    def __init__(
        self, store: Store, languages: MemberLanguages, budgets: Budgets, outbox: Outbox, dms: DMs, page: Link,
        now: Any,
    ) -> None:
        self.store = store
        self.languages = languages
        self.budgets = budgets
        self.outbox = outbox  # each DM sent once, even across a crash
        self.dms = dms
        self.page = page  # the table's web page: its replay
        self.now = now  # whether an open rematch offer has run out

    async def sync(self, table: TableRow, engine: Engine, ending: Ending) -> None:
        """Send each member of a finished table their DM, and edit those whose offer changed."""
        members = {s.user_id: s for s in table.seats if s.user_id is not None}
        if not members:
            return
        offer = shows(table, ending, self.now())
        stored = await self.store.endings.result_dms(table.id)

        def changed(row: ResultDM) -> bool:
            return bool(offer and row.message_id and row.shows != offer)

        due = [u for u in members if u not in stored or changed(stored[u])]
        if not due:
            return
        page = await self.page(table)
        quiet = {u for u, mode in (await self.store.notices.modes(due)).items() if mode == "never"}
        for user_id in due:
            seat = members[user_id]
            tr = await self.languages.lang(user_id, table.language)
            rendered = result_dm(table, engine, seat, ending, offer or STARTING, page, tr)
            row = stored.get(user_id)
            if row is None:
                await self.send(table, user_id, rendered, offer or "", user_id in quiet)
            else:
                async with self.budgets.spending(row.channel_id):
                    try:
                        await self.dms.edit_message(row.channel_id, row.message_id, **rendered.edit_kwargs())
                    except (discord.NotFound, discord.Forbidden):
                        pass  # deleted, or the DMs closed since: nothing to edit
                assert offer is not None
                await self.store.endings.set_result_dm(table.id, ResultDM(user_id, row.channel_id, row.message_id, offer))

    async def send(self, table: TableRow, user_id: int, rendered: Rendered, offer: str, quiet: bool) -> None:
        """The member's DM, sent once; ``quiet``: without a notification (``/notifications never``)."""
        surface = f"result:{user_id}"
        dm = await self.dms.dm_channel(user_id)
        async with self.budgets.spending(dm.id):
            try:
                message, sent = await self.outbox.send_once(
                    table.id, surface, dm, dm.id, is_result_of(table),
                    lambda: dm.send(**rendered.send_kwargs(), silent=quiet),
                )
            except discord.NotFound:
                await self.dms.forget_dm(user_id)  # a stored DM channel that is gone: opened again next pass
                raise
            except discord.HTTPException as exc:
                if not (isinstance(exc, discord.Forbidden) or exc.code == DM_CLOSED):
                    raise
                async with self.store.transaction():  # closed DMs: the final table shows the result
                    await self.store.endings.set_result_dm(table.id, ResultDM(user_id, dm.id, 0, ""))
                    await self.outbox.done(table.id, surface)
                return
        async with self.store.transaction():
            await self.store.endings.set_result_dm(table.id, ResultDM(user_id, dm.id, message.id, offer))
            await self.outbox.done(table.id, surface)
        if not sent:  # an interrupted attempt's message, found: it may show an older offer
            async with self.budgets.spending(dm.id):
                await self.dms.edit_message(dm.id, message.id, **rendered.edit_kwargs())
