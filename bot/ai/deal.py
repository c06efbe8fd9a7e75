"""Dealing unseen cards for a determinization: random, but respecting what a seat has learnt.

A seat that failed to follow a suit is known to lack it, so a consistent deal may not give it one.
Hands are filled most-constrained first from a shuffled pool, which is exact when one hand is
constrained and close to uniform otherwise; a rare dead end retries, then falls back to dealing
card by card with Hall's condition checked (always succeeds when any consistent deal exists).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import combinations

ATTEMPTS = 8
#: Cost of one group checked by the exact fallback on the reference machine, in µs.
GROUP_US = 3.0
#: Groups checked by the exact fallback in this process so far. A search reads it before and after
#: each determinization and charges the difference on its virtual clock: the fallback is rare but
#: can cost a few milliseconds, and a budget must bound the worst case.
groups_checked = 0


def _suit(card: str) -> str:
    return card[0]


def deal(
    cards: Sequence[str],
    sizes: Sequence[int],
    lacks: Sequence[str],
    rng: random.Random,
    kind: Callable[[str], str] = _suit,
) -> list[list[str]]:
    """Split ``cards`` into hands of ``sizes``; hand ``i`` gets no card whose ``kind`` is in ``lacks[i]``."""
    if sum(sizes) != len(cards):
        raise ValueError("hand sizes do not add up to the cards")
    pool = list(cards)
    rng.shuffle(pool)
    if not any(lacks):
        out, at = [], 0
        for size in sizes:
            out.append(pool[at : at + size])
            at += size
        return out
    order = sorted(range(len(sizes)), key=lambda i: -len(lacks[i]))
    for _attempt in range(ATTEMPTS):
        hands = _greedy(pool, sizes, lacks, order, kind)
        if hands is not None:
            return hands
        rng.shuffle(pool)
    return _exact(pool, sizes, lacks, rng, kind)


def _greedy(
    pool: list[str],
    sizes: Sequence[int],
    lacks: Sequence[str],
    order: list[int],
    kind: Callable[[str], str],
) -> list[list[str]] | None:
    hands: list[list[str]] = [[] for _ in sizes]
    remaining = pool
    for i in order:
        if lacks[i]:
            allowed = [c for c in remaining if kind(c) not in lacks[i]]
            if len(allowed) < sizes[i]:
                return None
            taken = set(allowed[: sizes[i]])
            hands[i] = allowed[: sizes[i]]
            remaining = [c for c in remaining if c not in taken]
        else:
            hands[i] = remaining[: sizes[i]]
            remaining = remaining[sizes[i] :]
    return hands


def _exact(
    pool: list[str],
    sizes: Sequence[int],
    lacks: Sequence[str],
    rng: random.Random,
    kind: Callable[[str], str],
) -> list[list[str]]:
    free = list(sizes)
    hands: list[list[str]] = [[] for _ in sizes]
    counts: dict[str, int] = {}
    for card in pool:
        counts[kind(card)] = counts.get(kind(card), 0) + 1
    for card in pool:
        k = kind(card)
        counts[k] -= 1
        options = [i for i in range(len(sizes)) if free[i] and k not in lacks[i]]
        rng.shuffle(options)
        for i in options:
            free[i] -= 1
            if _feasible(counts, free, lacks):
                hands[i].append(card)
                break
            free[i] += 1
        else:
            raise ValueError("no deal is consistent with these constraints")
    return hands


def _feasible(counts: dict[str, int], free: list[int], lacks: Sequence[str]) -> bool:
    """Hall's condition: every group of kinds fits in the free places of hands that may hold one."""
    global groups_checked
    kinds = [k for k, n in counts.items() if n]
    for r in range(1, len(kinds) + 1):
        for group in combinations(kinds, r):
            groups_checked += 1
            need = sum(counts[k] for k in group)
            room = sum(f for f, lack in zip(free, lacks, strict=True) if any(k not in lack for k in group))
            if need > room:
                return False
    return True
