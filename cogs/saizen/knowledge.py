"""What one Saizen seat knows of the other hands, for computer players' determinizations.

Whole sets pass intact to the previous seat each round, so the deck stays split into the same
blocks all game: block ``b`` is seat ``b``'s first hand, and in round ``r`` seat ``s`` holds block
``s + r - 1``. A seat has seen every block it has held (in round ``r``, blocks ``s … s + r - 1``),
so it knows exactly who holds those cards now (less what was played since, which is public). Of
the other blocks it knows the cards seen played from them in any round, and the suits they lack.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from bot.ai.deal import deal

if TYPE_CHECKING:
    from cogs.saizen.engine import SaizenEngine


def holder(block: int, round_no: int, n: int) -> int:
    return (block - round_no + 1) % n


def redeal(engine: SaizenEngine, seat: int, rng: random.Random) -> dict[int, list[str]]:
    """New (unsorted) hands for the holders of the blocks ``seat`` has not held, consistent with its knowledge.

    The hands of holders of blocks it has held are the ones it passed on (its own memory, less the
    cards played since), so they are read as they are; nothing else hidden is read.
    """
    n, r = engine.num_players, engine.round_no
    held = {(seat + k) % n for k in range(r)}
    unknown = [b for b in range(n) if b not in held]
    if not unknown:
        return {}
    placed: set[str] = set()
    for b in held:
        placed.update(engine.hands[holder(b, r, n)])
    for played in engine.played:
        placed.update(played)
    known: dict[int, list[str]] = {}
    for b in unknown:
        h = holder(b, r, n)
        played_now = set(engine.played[h])
        known[b] = [c for c in dict.fromkeys(engine.block_seen[b]) if c not in played_now]
        placed.update(known[b])
    unseen = [c for c in engine.deck if c not in placed]
    sizes = [len(engine.hands[holder(b, r, n)]) - len(known[b]) for b in unknown]
    dealt = deal(unseen, sizes, [engine.block_lacks[b] for b in unknown], rng)
    return {holder(b, r, n): known[b] + cards for b, cards in zip(unknown, dealt, strict=True)}
