"""Client locales in SimCord: Discord sends each interaction with the member's client locale and the
server's preferred locale; SimCord sends "en-US" for both, so fill them in as Discord would."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


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
