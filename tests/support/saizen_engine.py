"""Scenario helpers shared by the Saizen engine test files."""

from __future__ import annotations

import json

import pytest

from bot.core.engine import IllegalAction
from cogs.saizen.engine import SaizenEngine


def table(hands, *, leader=0, layout="", jokers=0, pass_chips=True):
    """An engine whose hands are ``hands`` (seat order), ``leader`` leading round 1.

    Everyone passes the round-1 chip step unless ``pass_chips`` is False.
    """
    n = len(hands)
    e = SaizenEngine(n, 7, {"jokers": jokers, "layout": layout})
    e.hands = [list(h) for h in hands]
    e.start_player = e.leader = leader
    e.chip_queue = [(leader + k) % n for k in range(n)]
    if pass_chips:
        for seat in list(e.chip_queue):
            e.apply(seat, "pass")
    return e


def act(e, *actions):
    """Apply actions for whoever is to act; bare card codes mean ``play:<card>``. Returns events."""
    events = []
    for action in actions:
        if not action.startswith(("play:", "chip:")) and action != "pass":
            action = f"play:{action}"
        events += e.apply(e.to_act()[0], action)
    return events


def playable(e):
    """Card codes the seat to act may play now."""
    seat = e.to_act()[0]
    return sorted({a.split(":")[1] for a in e.legal_actions(seat)})


def refused(e, action):
    if not action.startswith(("play:", "chip:")) and action != "pass":
        action = f"play:{action}"
    before = json.dumps(e.public_view(), sort_keys=True)
    with pytest.raises(IllegalAction) as info:
        e.apply(e.to_act()[0], action)
    assert json.dumps(e.public_view(), sort_keys=True) == before
    return info.value


def winner_of(events):
    won = [ev for ev in events if ev.code == "trick_won"]
    return won[-1].data["seat"] if won else None
