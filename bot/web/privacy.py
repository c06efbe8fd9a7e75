"""Who may see which pages: a server may turn its pages off (``/settings web``), and a table played
where @everyone cannot look is never listed on an index page (its own page is reached only by its
signed address, which only its channel's members were shown).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import discord

from bot.core.config import Config
from bot.tables.server_settings import ServerSettings

#: Whether the server (its id; None for none) shows its pages.
PagesShown = Callable[[int | None], Awaitable[bool]]


def pages_by_config(config: Config) -> PagesShown:
    """Every server as the config's ``web_pages`` says (tools and tests without servers' settings)."""

    async def shown(guild_id: int | None) -> bool:
        return config.web_pages

    return shown


def pages_by_settings(settings: ServerSettings, config: Config) -> PagesShown:
    """What the server chose with ``/settings web``; for a server that chose nothing, the config's
    ``web_pages``."""

    async def shown(guild_id: int | None) -> bool:
        chosen = await settings.of(guild_id)
        return config.web_pages if chosen.is_default("web") else chosen.web

    return shown


def everyone_sees(channel: object) -> bool:
    """True when @everyone may view ``channel`` (a thread: a public one in such a channel).
    Anything else, a channel not known or not of a server, counts as hidden."""
    if isinstance(channel, discord.Thread):
        if channel.is_private() or channel.parent is None:
            return False
        channel = channel.parent
    if not isinstance(channel, discord.abc.GuildChannel):
        return False
    return channel.permissions_for(channel.guild.default_role).view_channel


class Listing:
    """Which tables an index page (a server's games, an event, a profile) may list."""

    def __init__(self, client: discord.Client, shown: PagesShown) -> None:
        self.client = client
        self.shown = shown

    async def listed(self, guild_id: int | None, channel_id: int) -> bool:
        if not await self.shown(guild_id):
            return False
        return everyone_sees(self.client.get_channel(channel_id))
