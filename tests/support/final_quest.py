"""Helpers for the Final Quest cog tests: opening and joining a table, its own channel, its messages,
hands read from DMs and turns played from them."""

from __future__ import annotations

import re
from typing import Any

import discord
from simcord import BackendError

from tests.support.table import World, dms, embed_text, make_world

CHANNEL_PREFIX = "final-quest-"


def table_channel(world: World) -> Any:
    """The newest Final Quest table channel of the guild (a SimCord channel handle)."""
    found = [c for name, c in world.guild.channels.items() if name.startswith(CHANNEL_PREFIX)]
    assert found, "no Final Quest table channel was created"
    return max(found, key=lambda c: c.id)


def table_message(channel: Any) -> discord.Message:
    for message in reversed(channel.history()):
        if message.author.bot and message.embeds and "table #" in (message.embeds[0].title or ""):
            return message
    raise AssertionError("no table message in the table channel")


def channel_text(channel: Any) -> str:
    """Everything the bot posted in the channel (table embed, record, announcements)."""
    return "\n".join(embed_text(m) for m in channel.history() if m.author.bot)


def to_act(world: World, channel: Any) -> list[Any]:
    content = table_message(channel).content or ""
    return [world.member(int(uid)) for uid in re.findall(r"<@(\d+)>", content)]


def prompt(member: Any) -> discord.Message:
    """The member's one game DM (edited as the game goes), not the notices sent beside it."""
    messages = [m for m in dms(member) if m.embeds and "table #" in (m.embeds[0].title or "")]
    assert messages, f"{member.name} got no game DM"
    return messages[-1]


def prompt_text(member: Any) -> str:
    return embed_text(prompt(member))


def hand(member: Any) -> list[int]:
    """The numbers of the member's hand, as their DM shows it."""
    match = re.search(r"Your hand: ([0-9*· ]+)", prompt_text(member))
    assert match, prompt_text(member)
    return [int(n.strip(" *")) for n in match.group(1).split("·")]


def seat_names(channel: Any) -> list[str]:
    """Player names by seat (1..4), read from the table embed."""
    text = embed_text(table_message(channel))
    found = dict(re.findall(r"\*\*([1-4])\. ([^*]+)\*\*", text))
    return [found[str(n)] for n in range(1, 5)]


def member_named(world: World, name: str) -> Any:
    return next(m for m in world.members if m.name == name)


def seated(world: World, channel: Any) -> list[Any]:
    """The seated members in seat order (seat 1 first)."""
    return [member_named(world, name) for name in seat_names(channel)]


def set_bot_permissions(env: Any, world: World, **changes: bool) -> None:
    """Change the bot's managed role in the guild (SimCord gives it every permission but admin)."""
    backend = env.backend
    guild = backend.get_guild(world.guild.id)
    role = next(r for r in guild.roles.values() if r.managed)
    perms = discord.Permissions(role.permissions)
    perms.update(**changes)
    backend.edit_role(world.guild.id, role.id, {"permissions": perms.value})


GAME = "finalquest"
MISSING_PERMISSIONS = 50013
ANNOUNCE = "❓"


async def open_lobby(world, **options):
    """alice opens a table with ``options``; returns its channel."""
    result = await world.members[0].slash(world.channel, f"{GAME} new", **options)
    assert result.ephemeral and "Your table is open" in result.response.content
    channel = table_channel(world)
    assert channel.mention in embed_text(world.channel.history()[-1])
    return channel


async def start_table(world, **options):
    """alice opens a table with ``options``; bob, carol and dave join from the announcement."""
    channel = await open_lobby(world, **options)
    announcement = world.channel.history()[-1]
    for member in world.members[1:4]:
        await member.click(announcement, label="Join")
    return channel


async def refused_to_write(member, channel) -> bool:
    """True when SimCord refuses the member's message for missing permissions."""
    try:
        await member.send(channel, "I hold the 7!")
    except BackendError as exc:
        assert exc.status == 403 and exc.code == MISSING_PERMISSIONS
        return True
    return False


async def click_dm(member, label):
    return await member.user.click(prompt(member), label=label)


async def end_turn(member):
    await click_dm(member, "End turn")


def others(world, channel, *excluded):
    return [m for m in seated(world, channel) if m not in excluded]


def record_text(channel) -> str:
    return "\n".join(m.content for m in channel.history() if m.author.bot and m.content)


async def started_turn(env: Any) -> tuple[World, Any, Any, list[Any]]:
    """A started table: (the world, the table's channel, the member to act, the other players in
    seat order)."""
    world = make_world(env)
    channel = await start_table(world)
    (active,) = to_act(world, channel)
    return world, channel, active, others(world, channel, active)
