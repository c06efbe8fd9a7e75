"""The seats at two-seat tables (the colours of Othello): what each player is due next, what giving
them the other seat costs, and who takes the first seat.

Two rules are promised in ``/tournament help`` and hold whenever a seating allows them: nobody
gets the same seat three times running, and nobody has two more of one seat than of the other
(so after an even number of games the counts are equal, after an odd number one apart). A
seating that breaks them is chosen only when every seating of the round does (rematches are
avoided first in "avoid repeats" mode): the search weighs each break above everything else it
compares, and a third seat running above any number of uneven counts. A wish to alternate
without either rule at stake costs little, so it settles ties only.
"""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True)
class ColourWeights:
    """What one player's seat costs: a third same seat running, two more of one seat than the
    other after this game, or any seat other than the one due."""

    third: int
    uneven: int
    wish: int


#: For choosing who sits first at a table already chosen: only the order of the weights matters
#: (a pair holds at most two uneven counts and two wishes).
ORDER_WEIGHTS = ColourWeights(third=100, uneven=10, wish=1)


def colour_need(seats: list[int]) -> tuple[int, int]:
    """(strength, seat) a unit should have next at a two-seat table, from the seats it had (0 or 1).
    3: must (the same seat twice running, or two more of one seat); 2: should (one more of one
    seat, so the other would make it two); 1: would like to alternate; 0: no history."""
    if not seats:
        return 0, 0
    difference = seats.count(0) - seats.count(1)
    if len(seats) >= 2 and seats[-1] == seats[-2]:
        return 3, 1 - seats[-1]
    if abs(difference) >= 2:
        return 3, 1 if difference > 0 else 0
    if difference:
        return 2, 1 if difference > 0 else 0
    return 1, 1 - seats[-1]


def seat_cost(seats: list[int], seat: int, weights: ColourWeights) -> int:
    """What giving ``seat`` next to a player who had ``seats`` costs."""
    cost = 0
    if len(seats) >= 2 and seats[-1] == seats[-2] == seat:
        cost += weights.third
    if abs(seats.count(0) - seats.count(1) + (1 if seat == 0 else -1)) >= 2:
        cost += weights.uneven
    strength, due = colour_need(seats)
    if strength and seat != due:
        cost += weights.wish
    return cost


def orientations(first: list[int], second: list[int], weights: ColourWeights) -> tuple[int, int]:
    """The cost of (first in seat 0, second in seat 0)."""
    return (
        seat_cost(first, 0, weights) + seat_cost(second, 1, weights),
        seat_cost(first, 1, weights) + seat_cost(second, 0, weights),
    )


def pair_cost(first: list[int], second: list[int], weights: ColourWeights) -> int:
    """What seating the two together costs in colours, the better way round."""
    return min(orientations(first, second, weights))


def breaks(seats: list[int], seat: int) -> tuple[int, int]:
    """(a third same seat running, two more of one seat): which rule ``seat`` next breaks, 0 or 1 each."""
    third = int(len(seats) >= 2 and seats[-1] == seats[-2] == seat)
    return third, int(abs(seats.count(0) - seats.count(1) + (1 if seat == 0 else -1)) >= 2)


def colour_order(table: list[int], colours: dict[int, list[int]], seed: int) -> list[int]:
    """Who takes seat 0 (the first colour) at a two-seat table listed best first: the way round
    that breaks fewer rules, then gives more players their due seat; otherwise the stronger need
    wins, then the better standing; with no history at all, a seeded coin."""
    if len(table) != 2:
        raise ValueError("colours are for two-seat tables")
    first, second = table
    seats_a, seats_b = colours.get(first, []), colours.get(second, [])
    need_a, need_b = colour_need(seats_a), colour_need(seats_b)
    if need_a[0] == need_b[0] == 0:
        return list(table) if random.Random(seed).random() < 0.5 else [second, first]
    straight, turned = orientations(seats_a, seats_b, ORDER_WEIGHTS)
    if straight != turned:
        return [first, second] if straight < turned else [second, first]
    winner, need = (first, need_a) if need_a[0] >= need_b[0] else (second, need_b)
    other = second if winner == first else first
    return [winner, other] if need[1] == 0 else [other, winner]
