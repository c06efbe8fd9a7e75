"""Which tie-break split players who show the same points, so the standings can say it.

Rows whose points read the same (to one decimal, as shown) form a group; for each two neighbours
in it the first of ``standings.TIE_BREAKS`` that differs decided their order. Every row of the
group shows the values of the keys that decided in it, so a reader can compare them down the
column, and "lot" where the lot decided. "points" itself is a key when two totals differ only past
the shown decimal. Elimination ranks first by the round reached and the place there, which the
rows do not hold, so its standings explain no ties.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal

from bot.events.standings import PRECISION, TIE_BREAKS, Standing

#: The keys after points, each as the standings compare it (larger is better except ``place``).
VALUES: dict[str, Callable[[Standing], float]] = {
    "points": lambda s: round(s.points, PRECISION),
    "opponents": lambda s: round(s.opponents, PRECISION),
    "direct": lambda s: round(s.direct, PRECISION),
    "wins": lambda s: float(s.wins),
    "place": lambda s: round(s.place, PRECISION),
    "rating": lambda s: round(s.rating, PRECISION),
}


def deciding(a: Standing, b: Standing) -> int:
    """The index in ``TIE_BREAKS`` of the key that put ``a`` before ``b`` (the last: the lot)."""
    for index, key in enumerate(TIE_BREAKS[:-1]):
        if VALUES[key](a) != VALUES[key](b):
            return index
    return len(TIE_BREAKS) - 1


def tied_groups(rows: list[Standing], shown: Callable[[float], str]) -> list[tuple[list[Standing], list[list[str]]]]:
    """Each group of neighbours whose points read the same (``shown``), with the tie-break keys
    each of its rows shows, in order: every key that split two neighbours of the group (so the
    values can be compared down the column), and "lot" where the lot split the row from a
    neighbour. Rows that dropped out are compared among themselves only."""
    groups = []
    start = 0
    while start < len(rows):
        end = start + 1
        while (
            end < len(rows)
            and shown(rows[end].points) == shown(rows[start].points)
            and rows[end].dropped == rows[start].dropped
        ):
            end += 1
        group = rows[start:end]
        if len(group) > 1:
            decided = [deciding(a, b) for a, b in zip(group, group[1:], strict=False)]
            lot = len(TIE_BREAKS) - 1
            valued = [TIE_BREAKS[k] for k in sorted(set(decided) - {lot})]
            keys = []
            for i in range(len(group)):
                around = decided[max(0, i - 1) : i + 1]
                keys.append(valued + (["lot"] if lot in around else []))
            groups.append((group, keys))
        start = end
    return groups


def decimals(values: list[float], least: int) -> int:
    """The fewest decimals (at least ``least``, at most 3) that show different values differently."""
    distinct = {round(v, PRECISION) for v in values}
    for places in range(least, 3):
        if len({fixed(v, places) for v in distinct}) == len(distinct):
            return places
    return 3


def fixed(value: float, places: int) -> str:
    """``value`` to ``places`` decimals, halves rounded up as the points are (3.25 is 3.3)."""
    step = Decimal(1).scaleb(-places)
    return str(Decimal(repr(float(value))).quantize(step, rounding=ROUND_HALF_UP))
