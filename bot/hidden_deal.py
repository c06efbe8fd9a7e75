"""Dealing the cards a seat has not seen, for the ``determinize`` hook of card-game engines.

A computer player searches states it cannot tell from the real one: the cards it has not seen go
to the other hands and aside piles at random, each pile keeping its size and refusing what the
table knows it cannot hold (a suit its owner failed to follow ...). Plain rejection sampling
stalls when several seats are void, so cards are placed one at a time and a placement is kept
only if the remaining cards can still all be placed (Hall's condition over card classes).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

Accepts = Callable[[str], bool] | None  # None: the pile takes any card


def deal_hidden(
    pool: Sequence[str], slots: Sequence[tuple[int, Accepts]], rng: random.Random
) -> list[list[str]]:
    """Deal ``pool`` into piles of the given sizes, each card only where ``accepts`` allows it.

    ``pool`` must be in an order that reveals nothing (sorted, say): the result depends only on
    it, the slots and ``rng``. Raises ValueError when no such deal exists.
    """
    sizes = [size for size, _ in slots]
    if sum(sizes) != len(pool):
        raise ValueError("pile sizes do not match the unseen cards")
    cards = list(pool)
    rng.shuffle(cards)
    if all(accepts is None for _, accepts in slots):
        piles, start = [], 0
        for size in sizes:
            piles.append(cards[start : start + size])
            start += size
        return piles
    piles = _greedy(cards, slots)
    if piles is not None:
        return piles
    signature = {
        c: frozenset(i for i, (_, accepts) in enumerate(slots) if accepts is None or accepts(c))
        for c in cards
    }
    left: dict[frozenset[int], int] = {}
    for c in cards:
        left[signature[c]] = left.get(signature[c], 0) + 1
    room = list(sizes)
    if not _feasible(left, room):
        raise ValueError("no deal respects the piles' constraints")
    piles = [[] for _ in slots]
    for c in cards:
        sig = signature[c]
        left[sig] -= 1
        options = [i for i in sorted(sig) if room[i] > 0]
        while options:
            weights = [room[i] for i in options]
            pick = rng.choices(options, weights)[0]
            room[pick] -= 1
            if _feasible(left, room):
                piles[pick].append(c)
                break
            room[pick] += 1
            options.remove(pick)
        else:  # pragma: no cover - the start was feasible, so some placement keeps it feasible
            raise ValueError("no deal respects the piles' constraints")
    return piles


def _greedy(cards: list[str], slots: Sequence[tuple[int, Accepts]]) -> list[list[str]] | None:
    """The constrained piles, most constrained first, take the first cards they accept; the open
    piles share the rest. Uniform when one pile is constrained; None when it gets stuck."""
    piles: list[list[str]] = [[] for _ in slots]
    taken: set[str] = set()
    constrained = [i for i, (_, accepts) in enumerate(slots) if accepts is not None]
    reach = {i: sum(1 for c in cards if slots[i][1](c)) for i in constrained}
    for i in sorted(constrained, key=lambda i: (reach[i] - slots[i][0], i)):
        size, accepts = slots[i]
        pile = piles[i]
        for c in cards:
            if len(pile) == size:
                break
            if c not in taken and accepts(c):
                pile.append(c)
                taken.add(c)
        if len(pile) < size:
            return None
    rest = iter(c for c in cards if c not in taken)
    for i, (size, accepts) in enumerate(slots):
        if accepts is None:
            piles[i] = [next(rest) for _ in range(size)]
    return piles


def _feasible(left: dict[frozenset[int], int], room: list[int]) -> bool:
    """Hall's condition: every set of card classes fits in the room of the piles that take them."""
    classes = [(sig, n) for sig, n in left.items() if n]
    for mask in range(1, 1 << len(classes)):
        need, reach = 0, frozenset()
        for bit, (sig, n) in enumerate(classes):
            if mask >> bit & 1:
                need += n
                reach |= sig
        if need > sum(room[i] for i in reach):
            return False
    return True
