"""Clicks that no message shows: any custom id and menu values, sent as a modified client would.

SimCord's ``click``/``select`` press only components that are on the message (a real user's client
cannot do otherwise); a forged click goes through the same interaction path from an existing
message of the channel or DM, with data of the test's choosing (SimCord 3.2's
``_component_interaction``, the one step under ``click``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from simcord.actors import _component_interaction

BUTTON, STRING_SELECT = 2, 3


def channel_id_of(message: Any) -> int:
    channel_id = getattr(message, "channel_id", None)
    return channel_id if channel_id is not None else message.channel.id


async def forge(actor: Any, message: Any, custom_id: str, values: Sequence[str] | None = None):
    """``actor`` (a guild member, or a user in their DM) sends ``custom_id`` from ``message``: a
    button press, or a menu choice when ``values`` is given."""
    stored = actor._env.backend.get_message(channel_id_of(message), message.id)
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": BUTTON}
    if values is not None:
        data["component_type"] = STRING_SELECT
        data["values"] = list(values)
    return await _component_interaction(actor, stored, data)


def answer_text(result: Any) -> str:
    """The text of the one private answer to a click ("" when it was answered by an update)."""
    if result.response is not None and result.ephemeral:
        return result.response.content
    return result.followups[-1].content if result.followups else ""
