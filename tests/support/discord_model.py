"""What the fake Discord holds and shows: guilds, channels, members, messages, in memory.

Tests read "what Discord shows" from here (the live messages of a channel, a member's DMs, every
edit a message went through), and the fake's routes change it the way Discord would. Payloads are
built in the JSON shape discord.py 2.7.1 parses.
"""

from __future__ import annotations

import itertools
import re
import time
from dataclasses import dataclass, field
from typing import Any

EPOCH_MS = 1420070400000
TEXT, DM, PUBLIC_THREAD, PRIVATE_THREAD = 0, 1, 11, 12
EPHEMERAL, LOADING = 64, 128
TIMESTAMP = "2024-01-01T00:00:00.000000+00:00"

# What the bot's role allows (README "Invite and permissions", plus what own-channel games need).
PERMISSIONS = {
    "manage_channels": 1 << 4,
    "view_channel": 1 << 10,
    "send_messages": 1 << 11,
    "manage_messages": 1 << 13,
    "embed_links": 1 << 14,
    "attach_files": 1 << 15,
    "read_message_history": 1 << 16,
    "mention_everyone": 1 << 17,
    "use_external_emojis": 1 << 18,
    "manage_roles": 1 << 28,
    "manage_threads": 1 << 34,
    "create_public_threads": 1 << 35,
    "send_messages_in_threads": 1 << 38,
}
BOT_PERMISSIONS = sum(PERMISSIONS.values())
MEMBER_PERMISSIONS = (
    sum(
        PERMISSIONS[p]
        for p in ("view_channel", "send_messages", "embed_links", "attach_files", "read_message_history")
    )
    | PERMISSIONS["create_public_threads"]
    | PERMISSIONS["send_messages_in_threads"]
)

_ids = itertools.count(1)


def snowflake() -> str:
    """A fresh snowflake id, as Discord sends it (a string), increasing like Discord's."""
    return str(((int(time.time() * 1000) - EPOCH_MS) << 22) + (next(_ids) & 0x3FFFFF))


def mentioned_ids(text: str) -> list[str]:
    return re.findall(r"<@!?(\d+)>", text or "")


@dataclass
class User:
    id: str
    name: str
    locale: str = "en-US"
    bot: bool = False
    dms_open: bool = True

    def payload(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "username": self.name,
            "discriminator": "0",
            "global_name": None if self.bot else self.name.title(),
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }


@dataclass
class Channel:
    id: str
    type: int
    name: str = ""
    guild_id: str | None = None
    parent_id: str | None = None
    recipient_id: str | None = None  # a DM's member
    owner_id: str | None = None
    messages: list[str] = field(default_factory=list)  # ids, oldest first (deleted ones too)

    @property
    def is_dm(self) -> bool:
        return self.type == DM

    @property
    def is_thread(self) -> bool:
        return self.type in (PUBLIC_THREAD, PRIVATE_THREAD)

    def payload(self, model: Model) -> dict[str, Any]:
        if self.is_dm:
            recipient = model.users[self.recipient_id]
            return {"id": self.id, "type": DM, "last_message_id": None, "recipients": [recipient.payload()]}
        data: dict[str, Any] = {
            "id": self.id,
            "type": self.type,
            "guild_id": self.guild_id,
            "name": self.name,
            "position": 0,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": self.parent_id,
            "last_message_id": self.messages[-1] if self.messages else None,
            "rate_limit_per_user": 0,
            "topic": None,
        }
        if self.is_thread:
            data.update(
                owner_id=self.owner_id,
                message_count=len(self.messages),
                member_count=1,
                thread_metadata={
                    "archived": False,
                    "auto_archive_duration": 10080,
                    "archive_timestamp": TIMESTAMP,
                    "locked": False,
                },
            )
        return data


@dataclass
class Message:
    id: str
    channel_id: str
    author_id: str
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    visible_to: str | None = None  # an ephemeral message: the one member who sees it
    interaction_id: str | None = None  # answered as this interaction's response or followup
    created_at: float = field(default_factory=time.monotonic)
    deleted_at: float | None = None
    edits: list[float] = field(default_factory=list)  # monotonic time of every edit

    @property
    def live(self) -> bool:
        return self.deleted_at is None

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    def buttons(self) -> list[dict[str, Any]]:
        """Every component of the message, flattened out of its action rows."""
        out: list[dict[str, Any]] = []
        for row in self.components:
            out.extend(row.get("components", [row]) if row.get("type") == 1 else [row])
        return out

    def custom_ids(self, prefix: str = "", enabled_only: bool = True) -> list[str]:
        return [
            c["custom_id"]
            for c in self.buttons()
            if c.get("custom_id", "").startswith(prefix) and not (enabled_only and c.get("disabled"))
        ]

    def text(self) -> str:
        """Content and every embed's visible text, one block (for assertions and error messages)."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            parts += [f"{f.get('name')}\n{f.get('value')}" for f in embed.get("fields", [])]
            parts.append((embed.get("footer") or {}).get("text") or "")
        return "\n".join(p for p in parts if p)

    def apply(self, data: dict[str, Any]) -> None:
        """An edit: fields present replace what was shown; the others stay."""
        if "content" in data:
            self.content = data["content"] or ""
        for key in ("embeds", "components", "attachments"):
            if key in data:
                setattr(self, key, list(data[key] or []))
        if data.get("flags") is not None:
            self.flags = (self.flags & EPHEMERAL) | int(data["flags"])

    def payload(self, model: Model) -> dict[str, Any]:
        author = model.users[self.author_id]
        data = {
            "id": self.id,
            "channel_id": self.channel_id,
            "type": 0,
            "content": self.content,
            "author": author.payload(),
            "embeds": self.embeds,
            "attachments": self.attachments,
            "mentions": [model.users[u].payload() for u in mentioned_ids(self.content) if u in model.users],
            "mention_roles": [],
            "mention_everyone": False,
            "components": self.components,
            "pinned": False,
            "tts": False,
            "flags": self.flags,
            "timestamp": TIMESTAMP,
            "edited_timestamp": TIMESTAMP if self.edits else None,
        }
        guild_id = model.channels[self.channel_id].guild_id
        if guild_id is not None:  # a DM's message has no guild_id at all (discord.py reads it if present)
            data["guild_id"] = guild_id
        return data


@dataclass
class Guild:
    id: str
    name: str
    owner_id: str
    bot_role_id: str
    locale: str = "en-US"
    bot_permissions: int = BOT_PERMISSIONS
    channels: list[str] = field(default_factory=list)
    members: list[str] = field(default_factory=list)


class Model:
    """Every guild, channel, user and message the fake knows."""

    def __init__(self, bot: User) -> None:
        self.bot = bot
        self.users: dict[str, User] = {bot.id: bot}
        self.guilds: dict[str, Guild] = {}
        self.channels: dict[str, Channel] = {}
        self.messages: dict[str, Message] = {}
        self.dm_of: dict[str, str] = {}  # user id -> DM channel id

    # ---- building the world -------------------------------------------------------------------
    def add_guild(self, name: str = "Tabletop Test", locale: str = "en-US") -> Guild:
        owner = self.add_user("owner")
        guild = Guild(snowflake(), name, owner.id, snowflake(), locale)
        self.guilds[guild.id] = guild
        guild.members += [self.bot.id, owner.id]
        return guild

    def add_user(self, name: str, locale: str = "en-US") -> User:
        user = User(snowflake(), name, locale)
        self.users[user.id] = user
        return user

    def add_member(self, guild: Guild, name: str, locale: str = "en-US") -> User:
        user = self.add_user(name, locale)
        guild.members.append(user.id)
        return user

    def add_text_channel(self, guild: Guild, name: str) -> Channel:
        channel = Channel(snowflake(), TEXT, name, guild.id)
        self.channels[channel.id] = channel
        guild.channels.append(channel.id)
        return channel

    def add_thread(self, parent: Channel, name: str, thread_id: str | None = None, kind: int = PUBLIC_THREAD):
        thread = Channel(
            thread_id or snowflake(), kind, name, parent.guild_id, parent.id, owner_id=self.bot.id
        )
        self.channels[thread.id] = thread
        self.guilds[parent.guild_id].channels.append(thread.id)
        return thread

    def open_dm(self, user_id: str) -> Channel:
        """The one DM channel between the bot and a user (created on first use, as Discord does)."""
        if user_id not in self.dm_of:
            channel = Channel(snowflake(), DM, recipient_id=user_id)
            self.channels[channel.id] = channel
            self.dm_of[user_id] = channel.id
        return self.channels[self.dm_of[user_id]]

    def post(self, channel_id: str, author_id: str, data: dict[str, Any], **extra: Any) -> Message:
        message = Message(snowflake(), channel_id, author_id, **extra)
        message.apply(data)
        if data.get("flags") is not None:
            message.flags = int(data["flags"])
        self.messages[message.id] = message
        self.channels[channel_id].messages.append(message.id)
        return message

    # ---- reading what Discord shows -------------------------------------------------------------
    def shown(self, channel_id: str, viewer: str | None = None) -> list[Message]:
        """Live messages of a channel, oldest first, as ``viewer`` sees them (ephemerals for them only)."""
        channel = self.channels.get(channel_id)
        if channel is None:
            return []
        out = []
        for mid in channel.messages:
            message = self.messages[mid]
            if message.live and (message.visible_to is None or message.visible_to == viewer):
                out.append(message)
        return out

    def dms(self, user_id: str) -> list[Message]:
        """The bot's live messages in a member's DMs, oldest first."""
        channel_id = self.dm_of.get(user_id)
        return [] if channel_id is None else [m for m in self.shown(channel_id) if m.author_id == self.bot.id]

    # ---- gateway payloads ---------------------------------------------------------------------
    def member_payload(self, guild: Guild, user_id: str) -> dict[str, Any]:
        roles = [guild.bot_role_id] if user_id == self.bot.id else []
        return {
            "user": self.users[user_id].payload(),
            "roles": roles,
            "joined_at": TIMESTAMP,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "avatar": None,
        }

    def guild_payload(self, guild: Guild) -> dict[str, Any]:
        """GUILD_CREATE: roles, the bot's own member (no members intent), channels and threads."""
        roles = [
            {"id": guild.id, "name": "@everyone", "permissions": str(MEMBER_PERMISSIONS), "position": 0},
            {
                "id": guild.bot_role_id,
                "name": "Tabletop",
                "permissions": str(guild.bot_permissions),
                "position": 1,
                "managed": True,
                "tags": {"bot_id": self.bot.id},
            },
        ]
        for role in roles:
            role.update(color=0, hoist=False, mentionable=False, flags=0)
            role.setdefault("managed", False)
        channels = [self.channels[c] for c in guild.channels]
        return {
            "id": guild.id,
            "name": guild.name,
            "icon": None,
            "owner_id": guild.owner_id,
            "preferred_locale": guild.locale,
            "roles": roles,
            "emojis": [],
            "stickers": [],
            "features": [],
            "member_count": len(guild.members),
            "members": [self.member_payload(guild, self.bot.id)],
            "channels": [c.payload(self) for c in channels if not c.is_thread],
            "threads": [c.payload(self) for c in channels if c.is_thread],
            "voice_states": [],
            "presences": [],
            "large": False,
            "unavailable": False,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "system_channel_id": None,
            "joined_at": TIMESTAMP,
        }
