"""Donguri to Yamaneko for computer players: playouts stop at the end of the deal, and the deal's
penalties are weighed against the deals still to come (a big lead early is worth less than late)."""

from __future__ import annotations

import math

from bot.ai.registry import GameAI, register, share_ahead
from cogs.donguri.engine import DonguriEngine

#: Spread of one deal's penalty difference between two players (measured over random games).
DEAL_SPREAD = {3: 13.0, 4: 12.0, 5: 16.0}


def evaluate(engine: DonguriEngine, seat: int) -> float:
    """Expected share of opponents ``seat`` will finish ahead of, from the penalty gaps so far."""
    n = engine.num_players
    left = max(1, engine.deals_total - engine.deal_no + 1)
    scale = DEAL_SPREAD[n] * math.sqrt(left) / 1.7  # logistic curve close to the normal CDF
    return share_ahead(engine.penalties, seat, scale, lower_wins=True)


register("donguri", GameAI(evaluate=evaluate, move_us=7.0, iteration_us=180.0))
