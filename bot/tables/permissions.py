"""The permissions the bot needs before a table opens, checked first so that nothing half opens.

A table's message goes in the channel it is opened in, with a public thread for the game; opened
in a thread, it stays there. A game played in a channel of its own (Final Quest) posts its
announcement where it was opened, and needs to create the channel (Manage Channels) and keep
its speaking turns: with Manage Permissions, or at least Manage Messages (``speech.speech_mode``),
both in the category where that channel goes; a refusal names that category as the place, and
both ways of keeping the turns.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.core.errors import UserError
from bot.core.i18n import Lang
from bot.tables.speech import speech_mode

#: In a text channel: the table message (an embed, pictures) and the record read back after a crash.
IN_CHANNEL = ("view_channel", "send_messages", "embed_links", "attach_files", "read_message_history")
#: ... and the game's thread, started from the table message.
FOR_THREADS = ("create_public_threads", "send_messages_in_threads")
#: In a thread, Send Messages in Threads takes the place of Send Messages.
IN_THREAD = ("view_channel", "send_messages_in_threads", "embed_links", "attach_files", "read_message_history")
#: What is missing where a game's own channel goes (its category), not in the channel: named so.
IN_CATEGORY = "category."
#: ... to keep its speaking turns there: Manage Permissions, or at least Manage Messages.
SPEECH = "speech"


class MissingPermissions(UserError):
    """The bot lacks ``missing`` (permission attribute names; ``IN_CATEGORY`` ones in the category
    where the game's own channel goes) where a table would open."""

    def __init__(self, missing: list[str], tr: Lang) -> None:
        here = [p for p in missing if not p.startswith(IN_CATEGORY)]
        there = [p for p in missing if p.startswith(IN_CATEGORY)]
        if not there:
            super().__init__("error.missing_permissions", permissions=named(here, tr))
        elif not here:
            super().__init__("error.missing_category_permissions", permissions=named(there, tr))
        else:
            super().__init__(
                "error.missing_both_permissions", permissions=named(here, tr), category_permissions=named(there, tr)
            )
        self.missing = missing


def named(missing: list[str], tr: Lang) -> str:
    """The permissions' names as Discord's settings show them; those of the category say so when
    the channel's are named beside them."""
    here = [tr(f"permission.{p}") for p in missing if not p.startswith(IN_CATEGORY)]
    there = [tr(f"permission.{p.removeprefix(IN_CATEGORY)}") for p in missing if p.startswith(IN_CATEGORY)]
    if here and there:
        there = [tr("permission.in_category", permission=name) for name in there]
    return tr.join(here + there)


def granted(me: discord.Member, place: discord.abc.GuildChannel | discord.Thread) -> discord.Permissions:
    """The bot's permissions in ``place`` as its roles and the overwrites there grant them (a
    thread's are its channel's), before the rules Discord derives from them: without View Channel
    no other counts, and without Send Messages neither do Embed Links and Attach Files. So a
    refusal names only what an admin must grant, not what follows from it."""
    channel = place.parent if isinstance(place, discord.Thread) else place
    perms = me.guild_permissions
    if perms.administrator or channel is None:
        return discord.Permissions.all() if perms.administrator else perms
    allow, deny = channel.overwrites_for(me.guild.default_role).pair()
    perms.handle_overwrite(allow=allow.value, deny=deny.value)
    allowed = denied = 0
    for role in me.roles:
        if role.is_default():
            continue
        allow, deny = channel.overwrites_for(role).pair()
        allowed, denied = allowed | allow.value, denied | deny.value
    perms.handle_overwrite(allow=allowed, deny=denied)
    allow, deny = channel.overwrites_for(me).pair()
    perms.handle_overwrite(allow=allow.value, deny=deny.value)
    return perms


def home_permissions(me: discord.Member, source: Any, category: discord.CategoryChannel | str | None) -> discord.Permissions:
    """The bot's permissions where a game's own channel would be created: in the chosen category,
    else (a category still to create, or none) in the server; None: the opening channel's."""
    if isinstance(category, discord.CategoryChannel):
        return granted(me, category)
    if category is None and getattr(source, "category", None) is not None:
        return granted(me, source.category)
    return me.guild_permissions


def missing_for_table(
    me: discord.Member,
    channel: discord.TextChannel | discord.Thread,
    own_channel: bool,
    category: discord.CategoryChannel | str | None = None,
) -> list[str]:
    """Every permission the bot lacks to open a table in ``channel`` (in the order Discord lists
    them), or none."""
    perms = granted(me, channel)
    if isinstance(channel, discord.Thread):
        wanted: tuple[str, ...] = IN_THREAD
    else:
        wanted = IN_CHANNEL + (() if own_channel else FOR_THREADS)
    missing = [p for p in wanted if not getattr(perms, p)]
    if isinstance(channel, discord.Thread) and channel.locked and not perms.manage_threads:
        missing.append("manage_threads")  # a locked thread takes messages from moderators only
    if own_channel:
        home = home_permissions(me, channel, category)
        if speech_mode(home) is None:
            if not home.manage_channels:
                missing.append(IN_CATEGORY + "manage_channels")
            if not (home.manage_roles or home.manage_messages):
                missing.append(IN_CATEGORY + SPEECH)
        if isinstance(category, str) and not me.guild_permissions.manage_channels:
            missing.append(IN_CATEGORY + "manage_channels")  # the category is created first
    return list(dict.fromkeys(missing))


def require_for_table(
    tr: Lang,
    me: discord.Member,
    channel: discord.TextChannel | discord.Thread,
    own_channel: bool,
    category: discord.CategoryChannel | str | None = None,
) -> None:
    """Refuse, naming every permission missing, in ``tr``'s language."""
    missing = missing_for_table(me, channel, own_channel, category)
    if missing:
        raise MissingPermissions(missing, tr)
