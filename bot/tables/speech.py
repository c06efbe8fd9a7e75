"""Speaking turns in a table's own channel: only the seats a game names may write there.

With Manage Permissions the bot keeps per-member send overwrites in step with the turn. With only
Manage Messages it deletes out-of-turn messages at once and tells the author privately why. After
the game (or on start-up after a crash) every restriction is lifted, so nothing stays locked.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot.core.games import REGISTRY
from bot.core.i18n import Lang
from bot.storage.store import Store, TableRow
from bot.tables.budget import Budgets, Later
from bot.tables.member_locale import MemberLanguages

if TYPE_CHECKING:
    from bot.tables.service import TableService

log = logging.getLogger(__name__)
OVERWRITES = "overwrites"
DELETE = "delete"


def speech_mode(perms: discord.Permissions) -> str | None:
    """The strongest enforcement these guild permissions allow, or None."""
    if perms.manage_roles and perms.manage_channels:
        return OVERWRITES
    if perms.manage_messages and perms.manage_channels:
        return DELETE
    return None


@dataclass(eq=False)
class Speech:
    client: discord.Client
    store: Store
    service: TableService
    languages: MemberLanguages
    budgets: Budgets
    applied: dict[tuple[int, int], bool] = field(default_factory=dict)

    def allowed(self, table: TableRow, public: dict[str, Any]) -> set[int]:
        if table.status != "running":
            return set()
        speakers = REGISTRY[table.game].speakers(public)
        return {s.position for s in table.seats} if speakers is None else set(speakers)

    async def sync(self, table: TableRow, public: dict[str, Any] | None) -> None:
        """Bring the channel's send permissions in line with who may speak now."""
        if table.speech != OVERWRITES:
            if table.speech == DELETE and table.status != "running" and table.locked:
                await self.store.update_table(table.id, locked=0)
            return
        if table.status == "lobby":
            return  # the channel keeps its creation overwrites: nobody but the bot writes yet
        channel = self.client.get_channel(table.channel_id)
        if not isinstance(channel, discord.TextChannel):
            return
        allowed = self.allowed(table, public or {})
        running = table.status == "running"
        for seat in table.seats:
            if seat.user_id is None:  # a computer seat
                continue
            may_speak = seat.position in allowed
            key = (table.id, seat.user_id)
            if self.applied.get(key) == may_speak and running:
                continue
            member = channel.guild.get_member(seat.user_id)
            if member is None:
                member = await channel.guild.fetch_member(seat.user_id)
            overwrite = (
                discord.PermissionOverwrite(send_messages=True if may_speak else False) if running else None
            )
            await channel.set_permissions(
                member, overwrite=overwrite, reason=Lang(table.language)("speech.audit_turn", id=table.id)
            )
            if running:
                self.applied[key] = may_speak
            else:
                self.applied.pop(key, None)
        if not running:
            everyone = channel.overwrites_for(channel.guild.default_role)
            everyone.update(send_messages=None)
            reason = Lang(table.language)("speech.audit_over", id=table.id)
            await channel.set_permissions(channel.guild.default_role, overwrite=everyone, reason=reason)
            await self.store.update_table(table.id, locked=0)
        elif not table.locked:
            await self.store.update_table(table.id, locked=1)

    async def on_message(self, message: discord.Message) -> None:
        """Fallback enforcement: delete what an out-of-turn member writes, and say why in private."""
        if message.author.bot or message.guild is None:
            return
        tables = await self.store.speech_tables(message.channel.id)
        for table in tables:
            engine = await self.service.engine(table)
            seat = table.seat_of(message.author.id)
            if seat is not None and seat in self.allowed(table, engine.public_view()):
                return
            if table.speech == OVERWRITES and seat is None:
                return  # spectators are held by the channel's own permissions
            tr = await self.languages.lang(message.author.id, table.language)  # a DM: theirs
            try:
                await message.delete()
            except discord.HTTPException as exc:
                log.warning("table %s: could not delete an out-of-turn message: %s", table.id, exc)
                return
            key = "speech.not_seated" if seat is None else "speech.not_your_turn"
            try:  # the why is skipped when the bot is busy: a flood of messages must not crowd out hands
                async with self.budgets.spending(None):
                    await message.author.send(tr(key, channel=f"<#{message.channel.id}>"))
            except (Later, discord.HTTPException):
                pass
            return
