"""Invite-only tables, on Discord's side: who ``/<game> new invite:`` may invite.

A member invites members of the same server who can read the table's channel and accept
challenges; never a bot, nor themselves. A refusal names whom, and opens nothing: it comes before
the table's row is written. (The lobby's rule, only guests and the host join, is
``lobby_ops.invited``.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord

from bot.core.errors import UserError
from bot.core.i18n import Lang
from bot.core.interaction import Interaction
from bot.storage.invitations import Guest

if TYPE_CHECKING:
    from bot.storage.store import Store

async def guests_of(
    interaction: Interaction,
    channel: discord.TextChannel | discord.Thread,
    invited: Sequence[discord.abc.User],
    store: Store,
    tr: Lang,
) -> list[Guest]:
    """The members invited, each once, as the lobby keeps them; ``UserError`` for the first one
    who may not be invited."""
    guild = channel.guild
    members: list[discord.Member] = []
    for user in {u.id: u for u in invited}.values():
        if user.bot:
            raise UserError("error.invite_bot", member=user.mention)
        if user.id == interaction.user.id:
            raise UserError("error.invite_self")
        if not isinstance(user, discord.Member) or user.guild.id != guild.id:
            raise UserError("error.invite_outsider", member=user.mention)
        if not channel.permissions_for(user).view_channel:
            raise UserError("error.invite_cannot_see", member=user.mention, channel=channel.mention)
        members.append(user)
    refusing = await store.invitations.refusing([m.id for m in members])
    if refusing:
        names = tr.join(m.mention for m in members if m.id in refusing)
        raise UserError("error.invite_refused", members=names, count=len(refusing))
    return [Guest(m.id, m.display_name) for m in members]


def invited_lines(guests: Sequence[Guest], lapse: float | None, tr: Lang) -> list[str]:
    """What the host is told once the lobby is open: whom the DMs invite, until when (one whose
    DMs are closed is named in the table's thread, where the mention reaches them)."""
    at = f"<t:{int(lapse)}:R>" if lapse is not None else "—"
    members = tr.join(f"<@{g.user_id}>" for g in guests)
    return [tr("lobby.invited", members=members, count=len(guests), at=at)]
