"""Helpers for cog tests: open a table, seat members, find the table message and DMs."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import discord


@dataclass
class World:
    env: Any
    guild: Any
    channel: Any
    members: list[Any] = field(default_factory=list)


def make_world(env, names=("alice", "bob", "carol", "dave", "erin")) -> World:
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    members = [guild.add_member(env.create_user(n)) for n in names]
    return World(env, guild, channel, members)


def table_message(world: World) -> discord.Message:
    """The newest bot message in the channel that carries table buttons."""
    for message in reversed(world.channel.history()):
        if message.author.bot and message.components:
            return message
    raise AssertionError("no table message")


def button_ids(message: discord.Message) -> list[str]:
    ids = []
    for row in message.components:
        for child in getattr(row, "children", [row]):
            if getattr(child, "custom_id", None):
                ids.append(child.custom_id)
    return ids


def buttons(message: discord.Message) -> list[Any]:
    out = []
    for row in message.components:
        out.extend(getattr(row, "children", [row]))
    return out


def dm_messages(world: World, member) -> list[discord.Message]:
    return [m for m in member.user_handle.dm_channel.history() if m.author.bot] if hasattr(member, "user_handle") else []
