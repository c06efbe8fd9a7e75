"""The answers to invitation DMs (sent by the lobby's delivery pass: ``invite_dms.py``), **Accept**
and **Decline** (persistent ids: ``tt:inv:<answer>:<table>``, answered after a restart too).

**Accept** is the lobby's own join, with all its checks; an invitation that lapsed, a table that
started without them or was closed, says so. The click's answer redraws the DM with the answer,
and the lobby message, drawn by the delivery worker, shows it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.core.errors import UserError
from bot.core.interaction import Interaction
from bot.storage.invitations import ACCEPTED, DECLINED, LAPSED, Guest
from bot.tables.in_time import update
from bot.tables.invite_dms import invitation, surface_of
from bot.tables.member_locale import member_lang
from bot.tables.opening import display

if TYPE_CHECKING:
    from bot.storage.store import TableRow
    from bot.tables.desk import Desk
    from bot.tables.service import TableService


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
    def __init__(self, client: discord.Client, service: TableService, desk: Desk) -> None:
        self.client = client  # the server's name, for a DM answered later
        self.service = service
        self.desk = desk  # answers the click, whatever happens; its moves seat the member

    def server_name(self, table: TableRow) -> str:
        guild = self.client.get_guild(table.guild_id) if table.guild_id else None
        return guild.name if guild is not None else ""

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
        if interaction.message is not None:  # the pass need not draw it again
            await self.service.store.lobby_posts.set_shows(table_id, surface_of(guest), interaction.message.id, answer)
