"""Syncing the application's commands without losing its Entry Point command.

An application with an Activity has one Entry Point command (type 4, ``PRIMARY_ENTRY_POINT``): the
App Launcher opens the Activity with it. Discord made a default one ("Launch", handled by Discord
itself: handler 2, ``DISCORD_LAUNCH_ACTIVITY``) when the owner enabled Activities, and an owner may
have renamed or described it since. discord.py syncs by one bulk overwrite of every global command,
built from the commands the bot declares, which has none of type 4; Discord refuses an overwrite
that would drop the Entry Point command (50240). So with ``activity = true`` the sync reads the
application's commands first and sends its Entry Point command along as it is (or the default one,
made here, when it has none), unless the application has no Activity after all (its ``EMBEDDED``
flag: Discord refuses an Entry Point command then). Without it, a refusal for that reason is met
the same way, so that a bot whose owner enabled Activities before setting ``activity`` still starts.

Guild commands (``test_guild_id``) never include it: an Entry Point command is global only.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.http import Route

from bot.core.config import Config
from bot.core.i18n import Lang

log = logging.getLogger(__name__)

ENTRY_POINT = 4  # PRIMARY_ENTRY_POINT, an application command type discord.py 2.7 does not declare
DISCORD_LAUNCHES = 2  # the handler: Discord launches the Activity and posts that it did
ENTRY_POINT_DROPPED = 50240  # "You cannot remove this app's Entry Point command in a bulk update"
GUILD_INSTALL = 0  # an integration type: the bot installed in a server
IN_GUILD = 0  # an interaction context: used in a server
#: What an Entry Point command keeps through the overwrite: everything an owner may have set.
KEPT = (
    "name",
    "type",
    "handler",
    "description",
    "name_localizations",
    "description_localizations",
    "integration_types",
    "contexts",
    "default_member_permissions",
    "nsfw",
)
Tree = app_commands.CommandTree[Any]


@dataclass
class Synced:
    """A command as Discord stored it: what the bot links to (``</name:id>``)."""

    name: str
    id: int


async def sync_commands(tree: Tree, config: Config) -> list[Synced]:
    """Sync the bot's commands as ``CommandTree.sync`` does, the Entry Point command kept."""
    if config.test_guild_id:
        guild = discord.Object(id=config.test_guild_id)
        tree.copy_global_to(guild=guild)
        return [Synced(c.name, c.id) for c in await tree.sync(guild=guild)]
    if config.activity:
        return await with_entry_point(tree)
    try:
        return [Synced(c.name, c.id) for c in await tree.sync()]
    except discord.HTTPException as exc:
        if exc.code != ENTRY_POINT_DROPPED:
            raise
        log.warning("the application has an Activity: its Entry Point command is kept (see docs/activity.md)")
        return await with_entry_point(tree, refused=True)


async def with_entry_point(tree: Tree, refused: bool = False) -> list[Synced]:
    """``refused``: Discord refused the plain sync for the Entry Point command it dropped, which
    the application has then, whatever its flags say."""
    client = tree.client
    if client.application_id is None:
        raise app_commands.MissingApplicationID
    if not refused and not client.application_flags.embedded:  # Discord would refuse one
        log.warning("activity = true, but the application has no Activity: enable it (see docs/activity.md)")
        return [Synced(c.name, c.id) for c in await tree.sync()]
    translator = tree.translator
    payload = [
        await command.get_translated_payload(tree, translator) if translator else command.to_dict(tree)
        for command in tree.get_commands()
    ]
    route = Route("GET", "/applications/{application_id}/commands", application_id=client.application_id)
    existing = await client.http.request(route, params={"with_localizations": "true"})
    entry = next((c for c in existing if c.get("type") == ENTRY_POINT), None)
    payload.append(kept(entry) if entry is not None else default_entry_point())
    data = await client.http.bulk_upsert_global_commands(client.application_id, payload=payload)
    return [Synced(d["name"], int(d["id"])) for d in data]


def kept(command: dict[str, Any]) -> dict[str, Any]:
    """The application's Entry Point command as it is, to send back (without its ids)."""
    return {key: command[key] for key in KEPT if command.get(key) is not None}


def default_entry_point() -> dict[str, Any]:
    """The Entry Point command the bot makes when the application has none: Discord launches the
    Activity, in a server only (it plays that server's tables)."""
    en, ja = Lang("en"), Lang("ja")
    return {
        "name": en("activity.launch.command.name"),
        "description": en("activity.launch.command.description"),
        "description_localizations": {"ja": ja("activity.launch.command.description")},
        "type": ENTRY_POINT,
        "handler": DISCORD_LAUNCHES,
        "integration_types": [GUILD_INSTALL],
        "contexts": [IN_GUILD],
    }
