"""Interactions the fake Discord sends over the gateway, and what the bot answered to each.

A :class:`Sent` follows one interaction from the frame sent (``sent_at``) to its response through
``POST /interactions/{id}/{token}/callback`` (``answered_at``, type and data) and its followups.
Like Discord, the fake refuses a first response later than ``deadline`` seconds (10062 Unknown
interaction) and a second one (40060 already acknowledged).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from tests.support.discord_model import EPHEMERAL, Channel, Message, Model, snowflake

COMMAND, COMPONENT = 2, 3
PONG, MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE, LAUNCH = 1, 4, 5, 6, 7, 12
OPTION_TYPES = {bool: 5, int: 4, float: 10, str: 3}
ATTACHMENT_LIMIT = 10 * 1024 * 1024
ALL_PERMISSIONS = str((1 << 50) - 1)


class Undelivered(Exception):
    """No bot is connected to the gateway (it is down or restarting): the click goes nowhere."""


@dataclass
class Sent:
    """One interaction sent to the bot and what became of it."""

    id: str
    token: str
    type: int
    user_id: str
    channel_id: str
    payload: dict[str, Any]
    message_id: str | None = None  # the message whose component was used
    custom_id: str | None = None
    values: list[str] = field(default_factory=list)
    sent_at: float = 0.0
    answered_at: float | None = None
    response_type: int | None = None
    response: dict[str, Any] | None = None  # the callback's data
    response_message_id: str | None = None  # the message the response created or updated
    followups: list[str] = field(default_factory=list)  # message ids, in order
    edits: list[dict[str, Any]] = field(default_factory=list)  # edits of the response through its token, in order
    said: list[str] = field(default_factory=list)  # the followups' texts, in order
    refused: list[str] = field(default_factory=list)  # callbacks the fake refused, and why
    lost: bool = False  # the bot's gateway connection closed before it answered
    connection: Any = None  # the gateway connection (one bot process) it was sent on
    done: asyncio.Future = field(default_factory=lambda: asyncio.get_running_loop().create_future())

    @property
    def answered(self) -> bool:
        return self.response_type is not None

    @property
    def latency(self) -> float | None:
        """Seconds from the gateway frame to the callback's arrival."""
        return None if self.answered_at is None else self.answered_at - self.sent_at

    @property
    def updated(self) -> bool:
        """Answered by updating the clicked message (7) or deferring that update (6)."""
        return self.response_type in (UPDATE, DEFERRED_UPDATE)

    async def wait(self, timeout: float) -> bool:
        """Wait for the first response; False when none came in time or the bot went away."""
        try:
            await asyncio.wait_for(asyncio.shield(self.done), timeout)
        except TimeoutError:
            return False
        return self.answered

    def lose(self) -> None:
        self.lost = True
        if not self.done.done():
            self.done.set_result(self)

    def answer(self, response_type: int, data: dict[str, Any], message_id: str | None) -> None:
        self.answered_at = time.monotonic()
        self.response_type, self.response, self.response_message_id = response_type, data, message_id
        if not self.done.done():
            self.done.set_result(self)


def _user_fields(model: Model, user_id: str, channel: Channel, locale: str | None) -> dict[str, Any]:
    """Who acted, and where: a member in a guild channel, or a user in their DM with the bot."""
    user = model.users[user_id]
    fields: dict[str, Any] = {"locale": locale or user.locale}
    if channel.is_dm:
        fields.update(
            user=user.payload(),
            context=1,
            authorizing_integration_owners={"0": "0"},
            app_permissions=ALL_PERMISSIONS,
        )
        return fields
    guild = model.guilds[channel.guild_id]
    member = model.member_payload(guild, user_id)
    member["permissions"] = ALL_PERMISSIONS if user_id == guild.owner_id else "2248473465835073"
    fields.update(
        guild_id=guild.id,
        guild={"id": guild.id, "locale": guild.locale, "features": []},
        guild_locale=guild.locale,
        member=member,
        context=0,
        authorizing_integration_owners={"0": guild.id},
        app_permissions=str(guild.bot_permissions),
    )
    return fields


def _base(model: Model, application_id: str, kind: int, user_id: str, channel: Channel, locale: str | None):
    payload = {
        "id": snowflake(),
        "application_id": application_id,
        "type": kind,
        "token": "itoken-" + snowflake(),
        "version": 1,
        "channel_id": channel.id,
        "channel": channel.payload(model),
        "entitlements": [],
        "attachment_size_limit": ATTACHMENT_LIMIT,
        **_user_fields(model, user_id, channel, locale),
    }
    return payload


def command_options(path: list[str], options: dict[str, Any]) -> dict[str, Any]:
    """``data`` of a chat-input command: ``["donguri", "new"]`` with ``{"players": 3}``."""
    leaf = [{"name": k, "type": OPTION_TYPES[type(v)], "value": v} for k, v in options.items()]
    for depth, name in reversed(list(enumerate(path[1:], 1))):
        kind = 1 if depth == len(path) - 1 else 2  # the last word a subcommand, a middle one its group
        leaf = [{"name": name, "type": kind, "options": leaf}]
    return {"id": snowflake(), "name": path[0], "type": 1, "options": leaf}


def command(
    model: Model,
    application_id: str,
    user_id: str,
    channel: Channel,
    name: str,
    options: dict[str, Any],
    locale: str | None = None,
) -> Sent:
    payload = _base(model, application_id, COMMAND, user_id, channel, locale)
    payload["data"] = command_options(name.split(), options)
    return Sent(payload["id"], payload["token"], COMMAND, user_id, channel.id, payload)


def component(
    model: Model,
    application_id: str,
    user_id: str,
    message: Message,
    custom_id: str,
    values: list[str] | None = None,
    locale: str | None = None,
) -> Sent:
    """A button click (or a select, with ``values``) on a message as the member sees it now."""
    channel = model.channels[message.channel_id]
    payload = _base(model, application_id, COMPONENT, user_id, channel, locale)
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": 3 if values is not None else 2}
    if values is not None:
        data["values"] = values
    payload["data"] = data
    payload["message"] = message.payload(model)
    return Sent(
        payload["id"],
        payload["token"],
        COMPONENT,
        user_id,
        channel.id,
        payload,
        message_id=message.id,
        custom_id=custom_id,
        values=list(values or []),
    )


def is_ephemeral(data: dict[str, Any]) -> bool:
    return bool(int(data.get("flags") or 0) & EPHEMERAL)
