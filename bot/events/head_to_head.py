"""Head-to-head: the result between players (or fixed teams) tied on the keys before it, counted
only at the tables where they met, so a direct result decides before any rating or lot does.

Each meeting scores every tied pair at that table: 1 to the one who finished above the other, a
half each for a shared place, so at tables of three or more it is the finishing order between
the tied players there, and not the places of the others. Two tied players count if they met at
least once; with three or more, the mini-table among them counts only if each pair met, since a
score against some of them only is no comparison. Partners at a team game never meet: only the
opponents a finish lists do.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from itertools import combinations
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.events.standings import Finish


def mini_table(tied: Collection[int], finishes: Iterable[Finish]) -> dict[int, float]:
    """Each tied unit's head-to-head score; all 0.0 when it cannot decide (a pair never met)."""
    members = set(tied)
    played = [f for f in finishes if f.player in members and not f.bye and f.place is not None]
    place = {(f.round, f.player): f.place for f in played}
    score = dict.fromkeys(members, 0.0)
    met: set[tuple[int, int]] = set()
    for f in played:
        for other in set(f.opponents) & members - {f.player}:
            theirs = place.get((f.round, other))
            if theirs is None or f.place is None:
                continue
            met.add((min(f.player, other), max(f.player, other)))
            score[f.player] += 1.0 if f.place < theirs else 0.5 if f.place == theirs else 0.0
    if len(members) < 2 or any(pair not in met for pair in combinations(sorted(members), 2)):
        return dict.fromkeys(members, 0.0)
    return score
