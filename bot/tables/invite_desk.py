"""Invitation DMs: each member invited to a table gets one, in their own language, with **Accept**
and **Decline** (persistent ids: ``tt:inv:<answer>:<table>``, answered after a restart too).

The opening sends them right after the lobby message, so that the host's answer can name whom a DM
could not reach (closed DMs): the host tells them, and they may still press **Join**. **Accept**
is the lobby's own join, with all its checks; an invitation that lapsed, a table that started
without them or was closed, says so. The answered DM is redrawn with the answer, and the lobby
message, drawn by the delivery worker, shows it.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.core.errors import UserError
from bot.core.games import REGISTRY
from bot.core.i18n import Lang
from bot.core.interaction import Interaction
from bot.storage.invitations import LAPSED, Guest
from bot.tables import render
from bot.tables.components import InviteButton, static_view
from bot.tables.in_time import update
from bot.tables.member_locale import member_lang
from bot.tables.notices import jump_url
from bot.tables.opening import display

if TYPE_CHECKING:
    from bot.storage.store import TableRow
    from bot.tables.delivery import Delivery
    from bot.tables.desk import Desk
    from bot.tables.service import TableService

log = logging.getLogger(__name__)
ACCEPTED, DECLINED = "accepted", "declined"  # what an answered DM says


def host_name(table: TableRow) -> str:
    return next((s.name for s in table.seats if s.user_id == table.host_id), "")


def invitation(table: TableRow, server: str, tr: Lang, answer: str | None = None) -> render.Rendered:
    """An invited member's DM: who invites them where, to what; its buttons until they answer."""
    url = jump_url(table)
    game = tr(f"{table.game}.name")
    if answer is None:
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
    if answer is None and table.invites_lapse is not None:
        lines.append(tr("invite.lapses", at=f"<t:{int(table.invites_lapse)}:R>"))
    embed.description = "\n".join(lines)
    items: list[discord.ui.Item[Any]] = []
    if answer is None:
        items.append(InviteButton("accept", table.id, label=tr("button.accept"), style=discord.ButtonStyle.success))
        items.append(InviteButton("decline", table.id, label=tr("button.decline_invite"), style=discord.ButtonStyle.danger))
    items.append(discord.ui.Button(label=tr("button.to_table"), url=url))
    return render.Rendered(content=content, embed=embed, view=static_view(*items))


def refuse_late(table: TableRow, guest: Guest, user_id: int) -> None:
    """An answer that comes too late says why: the table started or closed, or the invitation lapsed."""
    if table.seat_of(user_id) is not None:
        raise UserError("error.already_seated")
    if table.status in ("running", "finished"):
        raise UserError("error.invite_started")
    if table.status != "lobby":
        raise UserError("error.invite_closed")
    if guest.state == LAPSED:
        raise UserError("error.invite_lapsed")


class InviteDesk:
    def __init__(self, client: discord.Client, service: TableService, delivery: Delivery, desk: Desk) -> None:
        self.client = client  # the server's name, for a DM answered later
        self.service = service
        self.delivery = delivery  # the members' DM channels, and each channel's budget
        self.desk = desk  # answers the click, whatever happens; its moves seat the member

    def server_name(self, table: TableRow) -> str:
        guild = self.client.get_guild(table.guild_id) if table.guild_id else None
        return guild.name if guild is not None else ""

    async def send(self, table: TableRow) -> list[Guest]:
        """Each member invited gets their DM; those it could not reach (closed DMs, a failure)."""
        unreached = []
        for guest in table.guests:
            tr = await self.delivery.languages.lang(guest.user_id, table.language)
            rendered = invitation(table, self.server_name(table), tr)
            try:
                dm = await self.delivery.dm_channel(guest.user_id)
                async with self.delivery.budgets.spending(dm.id):
                    await dm.send(**rendered.send_kwargs())
            except discord.HTTPException as exc:
                if isinstance(exc, discord.NotFound):
                    await self.delivery.forget_dm(guest.user_id)  # a stored DM channel that is gone
                if not isinstance(exc, discord.Forbidden):
                    log.warning("table %s: an invitation DM failed: %r", table.id, exc)
                unreached.append(guest)
        return unreached

    async def on_invite_button(self, interaction: Interaction, verb: str, table_id: int) -> None:
        await self.desk.guarded(interaction, table_id, self._answer(interaction, verb, table_id))

    async def _answer(self, interaction: Interaction, verb: str, table_id: int) -> None:
        user = interaction.user
        table = await self.service.table(table_id)
        if interaction.guild_id is not None and interaction.guild_id != table.guild_id:
            raise UserError("error.wrong_server")
        guest = table.guest(user.id)
        if guest is None:
            raise UserError("error.not_invited")
        refuse_late(table, guest, user.id)
        moves = self.desk.moves
        if verb == "accept":
            changed = await moves.join(table_id, user.id, display(user))
        else:
            changed = await moves.decline(table_id, user.id)
        answer = ACCEPTED if verb == "accept" else DECLINED
        rendered = invitation(changed.table, self.server_name(table), member_lang(interaction), answer)
        await update(interaction, **rendered.edit_kwargs())
