"""Helpers for tests of a server's own settings: a server with an admin (Manage Server) and a
member, the bot's permissions taken away in a channel or in the whole server, and /settings."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord
from simcord.backend.models.channel import Overwrite, OverwriteType


@dataclass
class Server:
    env: Any
    guild: Any
    channel: Any
    admin: Any
    members: list[Any]

    @property
    def bot_id(self) -> int:
        return self.env.backend.bot_user.id

    def deny_bot(self, channel: Any, *names: str) -> None:
        """The bot loses ``names`` (permission attributes) in ``channel``, by an overwrite."""
        deny = discord.Permissions(**dict.fromkeys(names, True))
        self.env.backend.set_overwrite(channel.id, Overwrite(self.bot_id, OverwriteType.MEMBER, 0, deny.value))

    def allow_bot(self, channel: Any) -> None:
        self.env.backend.delete_overwrite(channel.id, self.bot_id)

    def bot_permissions(self, **changes: bool) -> None:
        """Change the bot's managed role (SimCord gives it every permission but administrator)."""
        backend = self.env.backend
        role = next(r for r in backend.get_guild(self.guild.id).roles.values() if r.managed)
        perms = discord.Permissions(role.permissions)
        perms.update(**changes)
        backend.edit_role(self.guild.id, role.id, {"permissions": perms.value})

    async def settings(self, **options: Any) -> Any:
        """The admin runs /settings; the answer (ephemeral)."""
        result = await self.admin.slash(self.channel, "settings", **options)
        assert result.ephemeral, result
        return result


def server(env, name: str = "Cards club", locale: str | None = None, members=("alice", "bob", "carol")) -> Server:
    guild = env.create_guild(name, preferred_locale=locale) if locale else env.create_guild(name)
    channel = guild.create_text_channel("games")
    admins = guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    admin = guild.add_member(env.create_user(f"{name} admin"), roles=[admins])
    people = [guild.add_member(env.create_user(n)) for n in members]
    return Server(env, guild, channel, admin, people)


def command_id(env, name: str) -> int:
    return next(int(c["id"]) for c in env.backend.commands[None].values() if c["name"] == name)


def newest_bot_message(channel) -> discord.Message | None:
    return next((m for m in reversed(channel.history()) if m.author.bot), None)


def table_messages(channel) -> list[discord.Message]:
    return [m for m in channel.history() if m.author.bot and m.embeds and "#" in (m.embeds[0].title or "")]


def field(result: Any, name: str) -> str:
    """The value of a /settings answer's field named ``name``."""
    embed = result.response.embeds[0]
    data = embed.to_dict() if hasattr(embed, "to_dict") else embed
    return next(f["value"] for f in data["fields"] if f["name"] == name)


def answer(result: Any) -> str:
    """The text of an interaction's private answer: its response, or its last followup when the
    bot deferred first."""
    if result.followups:
        return result.followups[-1].content
    return result.response.content
