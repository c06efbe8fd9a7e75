"""The interaction type every handler takes: the client is discord.py's, never our bot class, so
no handler can reach a service through it (services come in constructors, ``bot/wiring.py``)."""

from __future__ import annotations

from typing import TypeAlias

import discord

Interaction: TypeAlias = discord.Interaction[discord.Client]
