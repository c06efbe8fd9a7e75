"""Saizen for computer players: playouts stop at the end of the round (whole sets pass on, so only
the tricks won carry over), and the score gaps are weighed against the rounds still to come."""

from __future__ import annotations

import math

from bot.ai.registry import GameAI, register, share_ahead
from cogs.saizen.engine import ROUNDS, SaizenEngine

#: Spread of one round's trick difference between two players, by player count (random games).
ROUND_SPREAD = {2: 6.5, 3: 3.9, 4: 3.1, 5: 2.2, 6: 1.9}


def evaluate(engine: SaizenEngine, seat: int) -> float:
    """Expected share of opponents ``seat`` will finish ahead of, from the trick counts so far."""
    n = engine.num_players
    left = max(1, ROUNDS - engine.round_no + 1)
    scale = ROUND_SPREAD[n] * math.sqrt(left) / 1.7  # logistic curve close to the normal CDF
    return share_ahead(engine.scores, seat, scale, lower_wins=False)


register("saizen", GameAI(evaluate=evaluate, move_us=19.0, iteration_us=180.0))
