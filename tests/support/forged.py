"""Clicks and slash commands that no client of Discord's would send: any custom id and menu values, any option values.

SimCord's ``click``/``select`` press only components that are on the message (a real user's client
cannot do otherwise). A forged click goes through the same interaction path from an existing
message of the channel or DM, with data of the test's choosing (SimCord 3.2's
``_dispatch_actor_interaction``, the step under ``click``).

discord.py routes a click to a dynamic item only when the clicked message carries its custom id;
the bot answers any other click as out of date (``components.unclaimed``). ``carried=True`` sends
the message as if it carried the forged component, so that the click reaches the item itself and
the item's own reading of the id and values is all that stands between the click and the tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from simcord import interactions
from simcord.actors import _dispatch_actor_interaction
from simcord.backend import serializers
from simcord.builders import ChannelHandle
from simcord.enums import InteractionType

BUTTON, STRING_SELECT = 2, 3
CHAT_INPUT, STRING = 1, 3  # a slash command; an option's type


def channel_id_of(message: Any) -> int:
    channel_id = getattr(message, "channel_id", None)
    return channel_id if channel_id is not None else message.channel.id


async def forge(
    actor: Any, message: Any, custom_id: str, values: Sequence[str] | None = None, carried: bool = False
):
    """``actor`` (a guild member, or a user in their DM) sends ``custom_id`` from ``message``: a
    button press, or a menu choice when ``values`` is given."""
    env = actor._env
    stored = env.backend.get_message(channel_id_of(message), message.id)
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": BUTTON}
    component: dict[str, Any] = {"type": BUTTON, "style": 1, "label": "x", "custom_id": custom_id}
    if values is not None:
        data["component_type"] = STRING_SELECT
        data["values"] = list(values)
        options = [{"label": "x", "value": v} for v in dict.fromkeys(values)] or [{"label": "x", "value": "x"}]
        component = {"type": STRING_SELECT, "custom_id": custom_id, "options": options}
    shown = dict(serializers.message_payload(env.backend, stored))
    if carried:
        shown["components"] = [{"type": 1, "components": [component]}]
    channel = ChannelHandle(env, getattr(actor, "guild", None), env.backend.get_channel(stored.channel_id))
    return await _dispatch_actor_interaction(
        actor, InteractionType.MESSAGE_COMPONENT, channel, data, extra={"message": shown}, source_message_id=stored.id
    )


def answer_text(result: Any) -> str:
    """The text of the one private answer to a click ("" when it was answered by an update)."""
    if result.response is not None and result.ephemeral:
        return result.response.content
    return result.followups[-1].content if result.followups else ""


async def forge_slash(actor: Any, channel: Any, name: str, /, **options: Any):
    """``actor`` invokes the slash command ``name`` with ``options`` as sent, unchecked: SimCord's
    ``slash`` keeps to each option's declared range, length and choices as Discord's client does,
    and a modified client does not. Only plain values (text, numbers, booleans); each option goes
    with the type it declares (a name it does not declare: as a text)."""
    env = actor._env
    guild = getattr(actor, "guild", None)
    parts = name.split()
    root = env.backend.find_command(parts[0], guild.id if guild is not None else None, type=CHAT_INPUT)
    assert root is not None, f"no command /{parts[0]}"
    leaf, nesting = interactions.walk_to_subcommand(root, parts[1:])
    declared = {option["name"]: option["type"] for option in leaf.get("options") or []}
    sent = [{"name": key, "type": declared.get(key, STRING), "value": value} for key, value in options.items()]
    data: dict[str, Any] = {
        "id": root["id"],
        "name": root["name"],
        "type": CHAT_INPUT,
        "options": interactions.nest_options(root, nesting, sent),
    }
    if root.get("guild_id"):
        data["guild_id"] = root["guild_id"]
    return await _dispatch_actor_interaction(actor, InteractionType.APPLICATION_COMMAND, channel, data)
