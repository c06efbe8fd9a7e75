"""Arsène deal scoring (RULINGS §1 "Chips after the deal", advanced rules, three players).

Pure helper: ``score_deal`` mutates the ``Holdings`` it is given and returns one summary line per
seat plus the dummy's line. The engine snapshots the holdings first so a void deal can be undone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

SHOP_GROUPS: dict[int, tuple[int, ...]] = {
    1: (1, 1, 1),
    2: (1, 2, 3),
    3: (1, 3, 5),
    4: (1, 2, 3),
    5: (1, 1, 1),
}
TOKEN_POOL = 8
TOKEN_CAP = 2


@dataclass
class Holdings:
    """Everything the scoring of a deal reads and changes."""

    shops: dict[int, list[int]]  # shop number -> remaining chip groups, next group first
    chips: list[int]
    tokens: list[int]
    exempt_used: list[bool]
    pool: int

    def copy(self) -> Holdings:
        return Holdings(
            {s: list(g) for s, g in self.shops.items()},
            list(self.chips),
            list(self.tokens),
            list(self.exempt_used),
            self.pool,
        )


def new_holdings(num_players: int) -> Holdings:
    return Holdings(
        {s: list(g) for s, g in SHOP_GROUPS.items()},
        [0] * num_players,
        [0] * num_players,
        [False] * num_players,
        TOKEN_POOL,
    )


def shop_of(tricks: int) -> int | None:
    """The shop a trick count visits: 1..5, or None for 0 or 6+ tricks."""
    return tricks if 1 <= tricks <= 5 else None


def exchange_order(seats: list[int]) -> list[tuple[int, int]]:
    """(giver, receiver) pairs: each clashing seat hands its holding to the next one clockwise.

    Seats are numbered clockwise, so ascending order is the cyclic order; two seats simply swap.
    """
    ordered = sorted(seats)
    return [(s, ordered[(i + 1) % len(ordered)]) for i, s in enumerate(ordered)]


def score_deal(
    h: Holdings, tricks: list[int], dummy_tricks: int | None, contest: bool
) -> tuple[list[dict[str, Any]], dict[str, Any] | None, list[int], list[int]]:
    """Score one deal into ``h``.

    Returns (lines per seat, dummy line or None, seats caught without exemption, shops emptied now).
    """
    n = len(tricks)
    lines: list[dict[str, Any]] = [
        {
            "seat": s,
            "tricks": tricks[s],
            "shop": shop_of(tricks[s]),
            "chips_before": h.chips[s],
            "tokens_before": h.tokens[s],
            "chips_taken": 0,
            "clash": False,
            "with_dummy": False,
            "token_gained": False,
            "police": None,  # None | "caught" | "exempt"
            "chips_lost": 0,
            "tokens_returned": 0,
            "exchange_to": None,
            "exchange_from": None,
        }
        for s in range(n)
    ]
    dummy_line = None
    if dummy_tricks is not None:
        dummy_shop = shop_of(dummy_tricks)
        dummy_line = {
            "tricks": dummy_tricks,
            "shop": dummy_shop,
            "clash": False,
            "police": dummy_shop is not None and not h.shops[dummy_shop],
        }
    caught: list[int] = []
    emptied: list[int] = []
    by_count: dict[int, list[int]] = {}
    for s in range(n):
        by_count.setdefault(tricks[s], []).append(s)

    def exchange(seats: list[int]) -> None:
        before = {s: h.chips[s] for s in seats}
        for giver, receiver in exchange_order(seats):
            h.chips[receiver] = before[giver]
            lines[giver]["exchange_to"] = receiver
            lines[receiver]["exchange_from"] = giver

    for count, seats in sorted(by_count.items()):
        shop = shop_of(count)
        dummy_here = dummy_tricks is not None and dummy_tricks == count
        if shop is None:
            # 0 tricks: no shop, but in contest mode players sharing 0 tricks clash and exchange.
            # 6+ tricks is never a clash (ruling).
            if count == 0 and contest and len(seats) >= 2:
                for s in seats:
                    lines[s]["clash"] = True
                exchange(seats)
            continue
        clash = len(seats) + (1 if dummy_here else 0) >= 2
        for s in seats:
            lines[s]["clash"] = clash
            lines[s]["with_dummy"] = dummy_here
        if dummy_here and dummy_line is not None:
            dummy_line["clash"] = clash
        if not h.shops[shop]:
            # Police: the tokens held before this deal decide; no clash tokens at an empty shop.
            for s in seats:
                if h.tokens[s] >= TOKEN_CAP and not h.exempt_used[s]:
                    h.tokens[s] -= TOKEN_CAP
                    h.pool += TOKEN_CAP
                    h.exempt_used[s] = True
                    lines[s]["police"] = "exempt"
                    lines[s]["tokens_returned"] = TOKEN_CAP
                else:
                    lines[s]["police"] = "caught"
                    lines[s]["chips_lost"] = h.chips[s]
                    h.chips[s] = 0
                    caught.append(s)
            if contest and len(seats) >= 2:
                exchange(seats)  # the police check resolves first, then the exchange (ruling)
            continue
        if not clash:
            (s,) = seats
            group = h.shops[shop].pop(0)
            h.chips[s] += group
            lines[s]["chips_taken"] = group
            if not h.shops[shop]:
                emptied.append(shop)
            continue
        if contest:
            if len(seats) >= 2:
                exchange(seats)  # no exchange with the dummy; a player alone with it gets nothing
            continue
        for s in seats:
            if h.tokens[s] < TOKEN_CAP and not h.exempt_used[s] and h.pool > 0:
                h.tokens[s] += 1
                h.pool -= 1
                lines[s]["token_gained"] = True
    for s in range(n):
        lines[s]["chips_after"] = h.chips[s]
        lines[s]["tokens_after"] = h.tokens[s]
    return lines, dummy_line, caught, emptied
