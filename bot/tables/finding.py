"""``/tables``: the server's open tables, so that a member finds a game to join.

Lobbies waiting for players come first, each with a **Join** button; then the games in play. The
button is the lobby's own (``tt:join:<table>``), so a join from the list goes through the very
path of the lobby's Join (``Desk.on_table_button``, then ``Moves.join``) with all its checks: the
table's server, a lobby still open, a free seat, and an invitation where the table asks for one.
Only the asking server's tables are read; the answer is private, in the member's language.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.core.errors import UserError
from bot.core.games import REGISTRY
from bot.core.i18n import Lang
from bot.core.interaction import Interaction
from bot.core.translator import command
from bot.tables import render
from bot.tables.components import TableButton, static_view
from bot.tables.in_time import send_private
from bot.tables.member_locale import member_lang
from bot.tables.notices import jump_url

if TYPE_CHECKING:
    from bot.storage.store import Store, TableRow
    from bot.tables.desk import Desk
    from bot.tables.hooks import TableHooks

#: Lobbies listed (each with its button: Discord allows 25 on a message, 5 to a row).
LOBBIES = 20
#: Games in play listed after them.
RUNNING = 10


#: What an embed's description holds (Discord's limit is 4,096), with room for the last line.
ROOM = 3900


def fitted(sections: list[tuple[str, list[str]]], tr: Lang) -> str:
    """Each section's heading and lines, as many lines as fit; "and N more" for the rest."""
    out: list[str] = []
    for heading, lines in sections:
        out.append(f"**{heading}**")
        for i, line in enumerate(lines):
            if sum(len(s) + 1 for s in out) + len(line) > ROOM:
                out.append(tr("tables.more", count=len(lines) - i))
                break
            out.append(line)
        out.append("")
    return "\n".join(out).strip()


class TableList(commands.Cog):
    def __init__(self, store: Store, desk: Desk, hooks: TableHooks) -> None:
        self.store = store
        self.desk = desk  # answers the interaction, whatever happens
        self.hooks = hooks  # each table's web page, when the server shows them

    @command("cmd.tables", "Open tables in this server: lobbies waiting for players and games in play")
    async def tables(self, interaction: Interaction) -> None:
        await self.desk.guarded(interaction, None, self._list(interaction))

    async def _list(self, interaction: Interaction) -> None:
        tr = member_lang(interaction)
        if interaction.guild_id is None:
            raise UserError("error.server_only")
        found = [t for t in await self.store.tables_in_server(interaction.guild_id) if self.visible(interaction, t)]
        lobbies = [t for t in found if t.status == "lobby" and t.tournament_id is None][:LOBBIES]
        running = [t for t in found if t.status == "running"][:RUNNING]
        if not lobbies and not running:
            await send_private(interaction, content=tr("tables.none"))
            return
        sections = []
        if lobbies:
            lines = [await self.lobby_line(t, tr) for t in lobbies]
            sections.append((tr("tables.waiting", count=len(lobbies)), lines))
        else:
            sections.append((tr("tables.waiting", count=0), [tr("tables.no_lobby")]))
        if running:
            sections.append((tr("tables.playing", count=len(running)), [await self.running_line(t, tr) for t in running]))
        embed = discord.Embed(title=tr("tables.title"), description=fitted(sections, tr), colour=0x5865F2)
        buttons = [
            TableButton("join", t.id, label=tr("tables.join", id=t.id), style=discord.ButtonStyle.success)
            for t in lobbies
            if self.may_join(t, interaction.user.id)
        ]
        fields: dict[str, Any] = {"embed": embed}
        if buttons:
            fields["view"] = static_view(*buttons)
        await send_private(interaction, **fields)

    @staticmethod
    def visible(interaction: Interaction, table: TableRow) -> bool:
        """Whether the member may read the table's channel: a table in a staff channel is not
        named to everyone."""
        guild, member = interaction.guild, interaction.user
        channel = guild.get_channel_or_thread(table.channel_id) if guild is not None else None
        if channel is None or not isinstance(member, discord.Member):
            return False
        return channel.permissions_for(member).view_channel

    @staticmethod
    def may_join(table: TableRow, user_id: int) -> bool:
        """Whether the list offers this member a Join button (the join itself checks again): not
        on an invite-only lobby they are not invited to."""
        if table.guests and table.guest(user_id) is None:
            return False
        return table.seat_of(user_id) is None and len(table.seats) < table.size

    async def links(self, table: TableRow, tr: Lang) -> str:
        page = await self.hooks.table_page(table)
        text = tr("tables.message_link", url=jump_url(table))
        return f"{text} · {tr('tables.page_link', url=page)}" if page else text

    async def lobby_line(self, table: TableRow, tr: Lang) -> str:
        ui = REGISTRY[table.game]
        options = " · ".join(filter(None, ui.option_summary(table.options, table.size, tr).splitlines()))
        if table.guests:
            options = f"{options} · {tr('tables.invite_only')}" if options else tr("tables.invite_only")
        return tr(
            "tables.lobby_line",
            game=tr(f"{table.game}.name"),
            id=table.id,
            options=options or "—",
            free=table.size - len(table.seats),
            size=table.size,
            clock=render.clock_name(table.clock, tr),
            host=f"<@{table.host_id}>",
            links=await self.links(table, tr),
        )

    async def running_line(self, table: TableRow, tr: Lang) -> str:
        players = tr.join((render.seat_name(s, tr) for s in table.seats), conjunction=False)
        return tr(
            "tables.running_line",
            game=tr(f"{table.game}.name"),
            id=table.id,
            players=players,
            clock=render.clock_name(table.clock, tr),
            host=f"<@{table.host_id}>",
            links=await self.links(table, tr),
        )
