"""Who a message may ping. The bot's default (``NOBODY``, given to discord.py's client) pings no one,
whatever a message says: names, tournament names and table talk are the members' own text, and one
named ``@everyone`` (or ``<@id>``) would otherwise ping the server, or that member, wherever it is
shown. A notice that means to ping names whom (``pinging``); nothing else can.

Discord parses an edit's content afresh with its own default allowances (everyone included) unless
the edit says otherwise, so every edit carries the default too: discord.py adds it to what it sends
itself, and ``message_parameters`` to what the bot sends through discord.py's HTTP client directly.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord
from discord.http import MultipartParameters, handle_message_parameters

NOBODY = discord.AllowedMentions.none()


def pinging(user_ids: Iterable[int | None]) -> discord.AllowedMentions:
    """Only these members (``None``s skipped: open seats), and only where the text mentions them."""
    users = [discord.Object(user_id) for user_id in dict.fromkeys(user_ids) if user_id is not None]
    return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)


def message_parameters(**fields: Any) -> MultipartParameters:
    """discord.py's message payload for ``fields``, with the bot's default mentions when the
    fields name none (as discord.py's own ``edit`` and ``send`` do)."""
    return handle_message_parameters(previous_allowed_mentions=NOBODY, **fields)
