"""Invitation DMs, sent by the lobby's delivery pass: each member invited gets one, in their own
language, with **Accept** and **Decline** (persistent ids: ``tt:inv:<answer>:<table>``).

The command that opens the lobby only commits it, its invitations with it; the pass that follows
sends each guest's DM once, even across a crash (its send intent first, ``outbox.py``), and a
failed send is retried with the pass. A guest whose DMs are closed is named once in the table's
thread, where the mention reaches them and their host reads it. Once an invitation is answered,
the DM shows the answer, without its buttons; the click's own answer draws that, and the pass
only when the click could not. The DM then follows the invitation: once it lapses, or the table
starts (with the guest or without) or is closed, the pass edits it once to say so, without its
buttons. When the invitations lapse, the host is told once in the thread.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.core.games import REGISTRY
from bot.core.i18n import Lang
from bot.storage.invitations import DECLINED, LAPSED, PENDING, Guest
from bot.storage.lobby_posts import Post
from bot.tables import render
from bot.tables.budget import Later
from bot.tables.components import InviteButton, static_view
from bot.tables.notices import jump_url

if TYPE_CHECKING:
    from bot.storage.store import Store, TableRow
    from bot.tables.budget import Budgets
    from bot.tables.lobby_posts import ThreadLines
    from bot.tables.member_locale import MemberLanguages
    from bot.tables.outbox import Outbox
    from bot.tables.result_dms import DMs

DM_CLOSED = 50007
LAPSE = "lapse"  # the host's notice that invitations lapsed
# What became of an invitation once its lobby moved on (catalog keys ``invite.<state>``).
STARTED, STARTED_WITHOUT, CLOSED = "started", "started_without", "closed"


def host_name(table: TableRow) -> str:
    return next((s.name for s in table.seats if s.user_id == table.host_id), "")


def invitation(table: TableRow, server: str, tr: Lang, answer: str = PENDING) -> render.Rendered:
    """An invited member's DM: who invites them where, to what; its buttons until they answer."""
    url = jump_url(table)
    game = tr(f"{table.game}.name")
    if answer == PENDING:
        content = tr("invite.dm", host=host_name(table), game=game, server=server, id=table.id, url=url)
    else:
        content = tr(f"invite.{answer}", game=game, id=table.id, url=url)
    embed = discord.Embed(title=render.game_title(table, tr), url=url, colour=0x5865F2)
    summary = REGISTRY[table.game].option_summary(table.options, table.size, tr)
    lines = [summary] if summary else []
    lines.append(tr("invite.seats", count=table.size))
    others = [g.name for g in table.guests]
    lines.append(tr("invite.guests", names=tr.join(f"**{n}**" for n in others)))
    lines.append(tr("invite.clock", clock=render.clock_name(table.clock, tr)))
    if answer == PENDING and table.invites_lapse is not None:
        lines.append(tr("invite.lapses", at=f"<t:{int(table.invites_lapse)}:R>"))
    embed.description = "\n".join(lines)
    items: list[discord.ui.Item[Any]] = []
    if answer == PENDING:
        items.append(InviteButton("accept", table.id, label=tr("button.accept"), style=discord.ButtonStyle.success))
        items.append(InviteButton("decline", table.id, label=tr("button.decline_invite"), style=discord.ButtonStyle.danger))
    items.append(discord.ui.Button(label=tr("button.to_table"), url=url))
    return render.Rendered(content=content, embed=embed, view=static_view(*items))


def dm_shows(table: TableRow, guest: Guest) -> str:
    """What the guest's DM shows now: the invitation while it holds; their answer; then what became
    of it: lapsed, the table started (with them or without), or closed. A decline stays."""
    if guest.state == DECLINED:
        return DECLINED
    if table.status == "lobby":
        return guest.state
    if table.status == "cancelled":
        return CLOSED
    return STARTED if table.seat_of(guest.user_id) is not None else STARTED_WITHOUT


def is_invitation(table: TableRow) -> Callable[[discord.Message], bool]:
    """The bot's invitation DM for this table, as an earlier attempt sent it (still unanswered)."""
    url = jump_url(table)
    return lambda message: (message.content or "").startswith("⚔") and url in message.content


def naming(start: str, *parts: str) -> Callable[[discord.Message], bool]:
    """A line of the bot's that begins with ``start`` and names every one of ``parts`` (its exact
    words may differ from an earlier attempt's: the table's language may have changed)."""
    return lambda message: (message.content or "").startswith(start) and all(p in message.content for p in parts)


def surface_of(guest: Guest) -> str:
    return f"invite:{guest.user_id}"


def unreached_text(table: TableRow, guest: Guest, tr: Lang) -> str:
    """In the table's thread, for a guest whose DMs are closed: the mention reaches them there."""
    mention = tr("clock.addressee", player=f"<@{guest.user_id}>")
    return tr("invite.unreached", guest=mention, host=host_name(table), url=jump_url(table))


def lapse_text(table: TableRow, late: list[Guest], tr: Lang) -> str:
    """The host's notice, in the table's thread (or channel): whose invitations lapsed, and what the
    lobby can do now."""
    host = tr("clock.addressee", player=f"<@{table.host_id}>")
    members = tr.join(tr("clock.addressee", player=f"**{g.name}**") for g in late)
    return tr("lobby.lapsed", host=host, members=members, count=len(late), url=jump_url(table))


class InviteDMs:
    def __init__(
        self, store: Store, languages: MemberLanguages, budgets: Budgets, outbox: Outbox, dms: DMs,
        lines: ThreadLines, server: Callable[[TableRow], str],
    ) -> None:
        self.store = store
        self.languages = languages
        self.budgets = budgets
        self.outbox = outbox  # each DM sent once, even across a crash
        self.dms = dms
        self.lines = lines  # the lines in the table's thread
        self.server = server  # the server's name, as the DM gives it

    async def sync(self, table: TableRow, posts: dict[str, Post]) -> None:
        """Send each guest's DM due, redraw those whose answer changed, and post the lines due in
        the thread. ``posts``: the table's rows, kept up to date here."""
        if not table.guests or not table.message_id:
            return  # an open lobby, or one whose message is not up yet (the DMs link to it)
        for guest in table.guests:
            surface = surface_of(guest)
            post = posts.get(surface)
            if post is None:
                if table.status != "lobby" or guest.state != PENDING:
                    continue  # the lobby moved on before the DM went: nothing to invite to
                post = posts[surface] = await self.send(table, guest)
            shows = dm_shows(table, guest)
            if post.message_id and post.shows != shows:
                posts[surface] = await self.redraw(table, guest, post, shows)
            elif post.message_id == 0 and table.status == "lobby" and guest.state == PENDING:
                await self.unreached(table, guest, posts)
        await self.lapsed(table, posts)

    async def send(self, table: TableRow, guest: Guest) -> Post:
        surface = surface_of(guest)
        tr = await self.languages.lang(guest.user_id, table.language)
        rendered = invitation(table, self.server(table), tr)
        dm = await self.dms.dm_channel(guest.user_id)
        async with self.budgets.spending(dm.id):
            try:
                message, _ = await self.outbox.send_once(
                    table.id, surface, dm, dm.id, is_invitation(table), lambda: dm.send(**rendered.send_kwargs())
                )
            except discord.NotFound:
                await self.dms.forget_dm(guest.user_id)  # a stored DM channel that is gone: opened again
                raise Later(0.05) from None
            except discord.HTTPException as exc:
                if not (isinstance(exc, discord.Forbidden) or exc.code == DM_CLOSED):
                    raise
                message = None  # closed DMs: the thread names them instead
        post = Post(surface, dm.id, message.id if message else 0, PENDING)
        async with self.store.transaction():
            await self.store.lobby_posts.set(table.id, post)
            await self.outbox.done(table.id, surface)
        return post

    async def redraw(self, table: TableRow, guest: Guest, post: Post, shows: str) -> Post:
        assert post.channel_id is not None and post.message_id is not None
        tr = await self.languages.lang(guest.user_id, table.language)
        rendered = invitation(table, self.server(table), tr, shows)
        async with self.budgets.spending(post.channel_id):
            try:
                await self.dms.edit_message(post.channel_id, post.message_id, **rendered.edit_kwargs())
            except (discord.NotFound, discord.Forbidden):
                pass  # deleted, or the DMs closed since: nothing to edit
        drawn = Post(post.surface, post.channel_id, post.message_id, shows)
        await self.store.lobby_posts.set(table.id, drawn)
        return drawn

    async def unreached(self, table: TableRow, guest: Guest, posts: dict[str, Post]) -> None:
        surface = f"unreached:{guest.user_id}"
        if surface in posts:
            return
        text = unreached_text(table, guest, Lang(table.language))
        found = naming("✉", f"<@{guest.user_id}>", jump_url(table))
        posts[surface] = await self.lines.post(table, surface, text, found, [guest.user_id])

    async def lapsed(self, table: TableRow, posts: dict[str, Post]) -> None:
        """The host is told once whose invitations lapsed, while the lobby is still open."""
        late = [g for g in table.guests if g.state == LAPSED]
        if not late or table.status != "lobby" or LAPSE in posts:
            return
        text = lapse_text(table, late, Lang(table.language))
        found = naming("⌛", f"<@{table.host_id}>", jump_url(table))
        posts[LAPSE] = await self.lines.post(table, LAPSE, text, found, [table.host_id])
