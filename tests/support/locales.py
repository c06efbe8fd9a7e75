"""Client locales in SimCord: Discord sends each interaction with the member's client locale and the
server's preferred locale; SimCord sends "en-US" for both, so fill them in as Discord would."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from tests.support.table import embed_text


def patch_client_locales(setattr_: Callable[[Any, str, Any], None]) -> dict[int, str]:
    """Patch SimCord (through ``setattr_``, e.g. pytest's monkeypatch); returns user id → locale."""
    import simcord.interactions as sim

    locales: dict[int, str] = {}
    original = sim.base_payload

    def base_payload(backend, **kwargs):
        record, payload = original(backend, **kwargs)
        payload["locale"] = locales.get(kwargs["user_id"], "en-US")
        if kwargs.get("guild_id") is not None:
            payload["guild_locale"] = backend.get_guild(kwargs["guild_id"]).preferred_locale
        return record, payload

    setattr_(sim, "base_payload", base_payload)
    return locales


def members_in(env: Any, guild: Any, client_locales: dict[int, str], **locales: str) -> list[Any]:
    """A new member of ``guild`` per name, whose Discord client is in the given locale."""
    members = [guild.add_member(env.create_user(name)) for name in locales]
    client_locales.update({member.id: locale for member, locale in zip(members, locales.values(), strict=True)})
    return members


def japanese(text: str) -> bool:
    return bool(re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", text))


def reply_text(result: Any) -> str:
    """The text of the bot's reply to a command or click (its first answer, else its last follow-up)."""
    return embed_text(result.response if result.response is not None else result.followups[-1])
