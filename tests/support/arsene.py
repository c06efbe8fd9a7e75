"""Helpers for the Arsène cog tests: the running engine (to know what must stay hidden), the record."""

from __future__ import annotations

import re
from typing import Any

from bot.core import cards
from tests.support.table import World, table_message, thread


def table_id(world: World) -> int:
    title = table_message(world).embeds[0].title or ""
    return int(re.search(r"table #(\d+)", title)[1])


async def engine(world: World) -> Any:
    """The bot's engine of the newest table (read only: to know the hidden cards to look for)."""
    service = world.env.bot.service
    return await service.engine(await service.table(table_id(world)))


def record(world: World) -> str:
    return "\n".join(m.content for m in thread(world).history() if m.author.bot)


def card_labels(codes) -> set[str]:
    return {cards.label(c) for c in codes}


def shown_labels(text: str, codes) -> set[str]:
    """Which of ``codes`` appear in ``text`` as card labels (♠10 is not mistaken for ♠1: no rank 1 label)."""
    return {lab for lab in card_labels(codes) if re.search(re.escape(lab) + r"(?![0-9])", text)}


def first_clockwise_target(public: dict[str, Any], winner: int) -> str | int | None:
    """The push rule restated from the public trick counts: the dummy if it qualifies, else the first
    player clockwise with the winner's (non-zero) count."""
    counts = [p["tricks"] for p in public["players"]]
    mine = counts[winner]
    if mine < 1:
        return None
    if public["dummy"] and public["dummy"]["tricks"] == mine:
        return "dummy"
    n = len(counts)
    return next((s for s in ((winner + k) % n for k in range(1, n)) if counts[s] == mine), None)
