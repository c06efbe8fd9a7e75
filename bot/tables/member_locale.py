"""One language per member: everything private follows the member's own Discord language.

An interaction carries its member's client locale, so ephemeral answers can simply use it. A DM
is sent when no interaction is at hand (a hand dealt because someone else moved, a turn notice),
so the language of each member's last interaction is remembered: in memory at once, when the
interaction arrives and before any command runs, and in the database only when it changed. A
member the bot has never heard from gets the table's language.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.core.i18n import Lang, language_of

if TYPE_CHECKING:
    from bot.storage.store import Store

log = logging.getLogger(__name__)


def member_lang(interaction: discord.Interaction[Any]) -> Lang:
    return Lang(language_of(interaction.locale))


class MemberLanguages:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.known: dict[int, str] = {}
        self.writes: set[asyncio.Task[None]] = set()

    def note(self, interaction: discord.Interaction) -> None:
        """Remember the language an interaction carries (synchronous: called as it arrives)."""
        if interaction.locale is None or interaction.user is None:
            return
        user_id, language = interaction.user.id, language_of(interaction.locale)
        if self.known.get(user_id) == language:
            return
        self.known[user_id] = language
        task = asyncio.get_running_loop().create_task(self._save(user_id, language))
        self.writes.add(task)
        task.add_done_callback(self.writes.discard)

    async def _save(self, user_id: int, language: str) -> None:
        try:
            await self.store.surfaces.set_member_language(user_id, language)
        except Exception:  # a lost write only means the table's language until the next interaction
            log.warning("could not store the language of member %s", user_id, exc_info=True)

    async def language(self, user_id: int | None, fallback: str) -> str:
        if user_id is None:
            return fallback
        if user_id not in self.known:
            stored = await self.store.surfaces.member_language(user_id)
            if stored is None:
                return fallback
            self.known[user_id] = stored
        return self.known[user_id]

    async def lang(self, user_id: int | None, fallback: str) -> Lang:
        return Lang(await self.language(user_id, fallback))

    async def flush(self) -> None:
        """Wait for pending writes (before the database closes)."""
        if self.writes:
            await asyncio.gather(*self.writes, return_exceptions=True)
