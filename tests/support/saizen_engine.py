"""Scenario helpers shared by the Saizen engine test files."""

from __future__ import annotations

from cogs.saizen.engine import SaizenEngine
from tests.support import engines


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


def move(action: str) -> str:
    """An action as given, a bare card code meaning ``play:<card>``."""
    return action if action.startswith(("play:", "chip:")) or action == "pass" else f"play:{action}"


def act(e, *actions):
    """Apply actions for whoever is to act; bare card codes mean ``play:<card>``. Returns events."""
    events = []
    for action in actions:
        events += e.apply(e.to_act()[0], move(action))
    return events


def playable(e):
    """Card codes the seat to act may play now."""
    seat = e.to_act()[0]
    return sorted({a.split(":")[1] for a in e.legal_actions(seat)})


def refused(e, action):
    """Assert ``action`` (a bare card code means ``play:<card>``) is refused for the seat to act and
    changes nothing; return the IllegalAction."""
    return engines.refused(e, e.to_act()[0], move(action))


def winner_of(events):
    won = [ev for ev in events if ev.code == "trick_won"]
    return won[-1].data["seat"] if won else None
