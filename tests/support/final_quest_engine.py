"""Scenario helpers shared by the Final Quest engine test files (tests/ai uses ``table`` too)."""

from __future__ import annotations

from cogs.final_quest.engine import FinalQuestEngine
from tests.support import engines

HANDS = [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]]  # centre 13


def table(hands=HANDS, centre=13, first=0, **options):
    """An engine with ``hands`` (numbers, seat order), ``centre`` face down and ``first`` to play."""
    assert sorted([c for h in hands for c in h] + [centre]) == list(range(1, 14))
    e = FinalQuestEngine(4, 11, options)
    e.hands = [sorted(h) for h in hands]
    e.centre = centre
    e.first_player = e.current = first
    e.seen = [set(h) for h in e.hands]
    return e


def refused(e, seat, action):
    """Assert ``action`` is refused for ``seat`` and changes nothing; return the IllegalAction code."""
    return engines.refused(e, seat, action).code


def leaves(value):
    """Every string leaf and dict key of JSON data."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set(value) | set().union(*(leaves(v) for v in value.values()))
    if isinstance(value, (list, tuple)):
        return set().union(*(leaves(v) for v in value))
    return set()
