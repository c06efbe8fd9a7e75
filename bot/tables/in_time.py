"""Answering an interaction within Discord's 3 seconds, however busy the bot is.

Discord forgets an interaction that is not answered within 3 s of its creation (the click fails
with 10062 Unknown interaction). A button's work usually ends well before, and its answer then
redraws the clicked message in one call. Under load it may not: 2 s after the interaction
arrived (``ANSWER_BY``), the click is acknowledged by a deferred update, the work goes on, and its
answer edits the clicked message (``update``) or comes as a private follow-up (``send_private``).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord

ANSWER_BY = 2.0
KEPT = 4096  # arrival times kept, for interactions not yet handled

T = TypeVar("T")

#: interaction id -> the lock its one response is sent under, while ``in_time`` runs its work:
#: a deferral and the work's own answer never both go out.
ANSWERING: dict[int, asyncio.Lock] = {}


class Arrivals:
    """When each interaction reached the bot (noted as the gateway event is parsed)."""

    def __init__(self) -> None:
        self.times: OrderedDict[int, float] = OrderedDict()

    def note(self, interaction: discord.Interaction) -> None:
        self.times[interaction.id] = asyncio.get_running_loop().time()
        while len(self.times) > KEPT:
            self.times.popitem(last=False)

    def left(self, interaction: discord.Interaction) -> float:
        """Seconds left before the interaction must be acknowledged."""
        now = asyncio.get_running_loop().time()
        return ANSWER_BY - (now - self.times.pop(interaction.id, now))


async def in_time(interaction: discord.Interaction, left: float, work: Awaitable[T]) -> T:
    """Await ``work``; if it is not done within ``left`` seconds, acknowledge a component
    interaction first (a deferred update of the clicked message) and then wait for it."""
    if interaction.type is not discord.InteractionType.component:
        return await work
    lock = ANSWERING[interaction.id] = asyncio.Lock()
    task = asyncio.ensure_future(work)
    try:
        return await asyncio.wait_for(asyncio.shield(task), max(left, 0.0))
    except TimeoutError:
        async with lock:
            if not interaction.response.is_done():
                try:
                    await interaction.response.defer()
                except discord.HTTPException:
                    pass  # too late anyway: the work still ends, and its answer edits the message
        return await task
    finally:
        ANSWERING.pop(interaction.id, None)


def answering(interaction: discord.Interaction) -> contextlib.AbstractAsyncContextManager:
    lock = ANSWERING.get(interaction.id)
    return lock if lock is not None else contextlib.nullcontext()


async def acknowledge(interaction: discord.Interaction) -> None:
    """A deferred update, unless the interaction is answered already."""
    async with answering(interaction):
        if not interaction.response.is_done():
            await interaction.response.defer()


async def update(interaction: discord.Interaction, **fields: Any) -> None:
    """Redraw the clicked message: in the response, or by editing it once the click is deferred."""
    async with answering(interaction):
        if interaction.response.is_done():
            await interaction.edit_original_response(**fields)
        else:
            await interaction.response.edit_message(**fields)


async def send_private(interaction: discord.Interaction, **fields: Any) -> None:
    """An ephemeral answer: the response, or a follow-up once the click is deferred."""
    async with answering(interaction):
        if interaction.response.is_done():
            await interaction.followup.send(ephemeral=True, **fields)
        else:
            await interaction.response.send_message(ephemeral=True, **fields)
