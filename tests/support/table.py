"""Helpers for cog tests: open a table, seat members, find the table message, DMs and buttons."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import discord


@dataclass
class World:
    env: Any
    guild: Any
    channel: Any
    members: list[Any] = field(default_factory=list)

    def member(self, user_id: int) -> Any:
        return next(m for m in self.members if m.id == user_id)


def make_world(env, names=("alice", "bob", "carol", "dave", "erin")) -> World:
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    members = [guild.add_member(env.create_user(n)) for n in names]
    return World(env, guild, channel, members)


def table_message(world: World) -> discord.Message:
    """The newest table message (lobby, running table or finished table) in the channel."""
    for message in reversed(world.channel.history()):
        if message.author.bot and message.embeds and "#" in (message.embeds[0].title or ""):
            return message
    raise AssertionError("no table message")


def thread(world: World) -> Any:
    threads = world.channel.threads
    assert threads, "the table has no thread"
    return threads[-1]


def components(message: Any) -> list[dict[str, Any]]:
    """Flat list of component dicts from a discord.Message or a SimCord response."""
    rows = message.components
    out: list[dict[str, Any]] = []
    for row in rows:
        row = row if isinstance(row, dict) else row.to_dict()
        out.extend(row.get("components", [row]))
    return out


def enabled_ids(message: Any, prefix: str = "tt:a:") -> list[str]:
    return [
        c["custom_id"]
        for c in components(message)
        if c.get("custom_id", "").startswith(prefix) and not c.get("disabled")
    ]


def labels(message: Any) -> list[str]:
    return [c.get("label") for c in components(message) if c.get("type") == 2]


def dms(member: Any) -> list[discord.Message]:
    return [m for m in member.user.dm_channel.history() if m.author.bot]


def hand_dm(member: Any) -> discord.Message:
    """The member's latest hand DM (turn notices are DMs too, but carry no buttons; an end-of-game
    DM has buttons, and begins "🏁")."""
    return [m for m in dms(member) if m.components and not (m.content or "").startswith("🏁")][-1]


def result_dms(member: Any) -> list[discord.Message]:
    """The member's end-of-game DMs (``bot/tables/result_dms.py``)."""
    return [m for m in dms(member) if m.embeds and (m.content or "").startswith("🏁")]


def to_act(world: World) -> list[Any]:
    content = table_message(world).content or ""
    return [world.member(int(uid)) for uid in re.findall(r"<@(\d+)>", content)]


def whose_turn(members: list[Any]) -> list[Any]:
    """The members whose DM offers a card (what each of them is shown, not the table message)."""
    return [m for m in members if enabled_ids(hand_dm(m))]


def embed_text(message: Any) -> str:
    parts = [message.content or ""]
    for embed in message.embeds:
        data = embed.to_dict() if hasattr(embed, "to_dict") else embed
        parts += [
            data.get("title", ""),
            data.get("description", ""),
            (data.get("footer") or {}).get("text", ""),
        ]
        parts += [f"{f['name']}\n{f['value']}" for f in data.get("fields", [])]
    return "\n".join(p for p in parts if p)


async def open_table(world: World, host: Any, game: str, **options: Any) -> discord.Message:
    result = await host.slash(world.channel, f"{game} new", **options)
    assert result.ephemeral, "opening a table answers the host privately"
    return table_message(world)


async def start_donguri(world: World) -> tuple[Any, Any, Any]:
    """A short three-player Donguri table opened by the first member; the next two join and it
    starts by itself. Returns the three."""
    alice, bob, carol = world.members[:3]
    lobby = await open_table(world, alice, "donguri", players=3, length="short")
    await bob.click(lobby, label="Join")
    await carol.click(lobby, label="Join")
    return alice, bob, carol


async def play_from_dm(member: Any) -> str:
    """The member plays the first enabled move of their latest DM; returns its custom id."""
    message = hand_dm(member)
    ids = enabled_ids(message)
    assert ids, f"{member.name} has no playable button in their DM"
    await member.user.click(message, custom_id=ids[0])
    return ids[0]


async def refused_click(member: Any, message: Any, why: str, **target: Any) -> None:
    """``member`` clicks ``target`` (a ``label`` or ``custom_id``) on ``message``: the answer is
    private and says ``why``."""
    answer = await member.click(message, **target)
    assert answer.ephemeral and why in answer.response.content, answer.response


async def add_computer(member: Any, lobby: Any, level: str = "normal", label: str = "Add computer"):
    """The host presses Add computer, then a level in the picker only they see."""
    picker = await member.click(lobby, label=label)
    assert picker.ephemeral, picker
    wanted = next(
        c["custom_id"] for c in components(picker.response) if c.get("custom_id", "").startswith(f"tt:bot:{level}:")
    )
    return await member.click(picker.response, custom_id=wanted)
