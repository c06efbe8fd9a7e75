"""Which turn notices a table wants at a given time, with no Discord in it.

A notice is for a player who is away. A member's wait (their turn, from when it began or from
their last move in it) earns a notice once it has lasted their grace period; a member who chose
``always`` gets their DM as soon as their turn comes round, and one who chose ``never`` gets none
(the table's thread mentions them instead after the grace period, so the others see whom the
table waits for). When a clocked table's reminder time has come, the reminder takes the place of
the turn notice, whoever it is for.

The grace period follows the player's own pace at the table (``grace_for``), as a player who is
watching is not pinged on lichess or Board Game Arena: there, whether to notify depends on whether
the player is on the game's page, not on a fixed timer. Discord tells us no such thing, so a
player's last moves stand for it: one who moves every two or three minutes is playing slowly, not
away, and a fixed two minutes pinged them at nearly every turn. Their turn waits twice their usual
time (at most ``LIVE``) before they are told. A player whose moves come hours apart comes and
goes: waiting longer would only delay the call, so they are told after the base grace period.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import median
from typing import TYPE_CHECKING

from bot.tables.terms import REMIND_BEFORE

if TYPE_CHECKING:
    from bot.storage.store import TableRow

NONE, TURN, REMINDER = 0, 1, 2  # a notice's stage: a later stage replaces an earlier one
DM, THREAD = "dm", "thread"
#: A player whose moves usually come within this many seconds is at the table, however slowly they
#: play; it is also the longest a turn of theirs waits before they are told.
LIVE = 600.0
THINK_KEPT = 3  # how many of a member's last moves their usual time is taken from (the median)


@dataclass(frozen=True)
class Wait:
    seat: int
    user_id: int
    turn_no: int  # the table's turn at which it began
    since: float
    came: bool  # the turn came round (rather than went on after the member's own move)
    grace: float  # how long it waits before its player is told (``grace_for``)


def grace_for(times: Sequence[float] | None, base: float) -> float:
    """How long a member's turn waits before they are told, from how long their last moves at the
    table took (``times``): twice their usual time, from ``base`` up to ``LIVE``, while they play
    within ``LIVE``; ``base`` for a member who comes and goes, or whose pace is not known yet (and
    when the operator wants notices at once, ``base`` 0)."""
    if not times or base <= 0:
        return base
    usual = median(times)
    return min(max(base, 2 * usual), LIVE) if usual <= LIVE else base


def thought(table: TableRow, movers: Iterable[int], now: float) -> dict[int, list[float]]:
    """The members' times per move at the table, with the moves just made by ``movers`` (their
    wait, from when it began to now)."""
    think = dict(table.think)
    for seat in movers:
        if seat in table.waits and seat < len(table.seats) and not table.seats[seat].played_by_computer:
            took = round(max(0.0, now - table.waits[seat][1]), 1)
            think[seat] = [*think.get(seat, []), took][-THINK_KEPT:]
    return think


def waits(table: TableRow, base: float) -> list[Wait]:
    """The members the table waits for, with their waits (a table from before waits were kept
    has none for a turn begun then: no notice for that turn)."""
    out = []
    for seat in table.turn_seats:
        if seat >= len(table.seats) or table.seats[seat].played_by_computer or seat not in table.waits:
            continue
        turn, since, came = table.waits[seat]
        user_id = table.seats[seat].user_id
        assert user_id is not None
        out.append(Wait(seat, user_id, turn, since, came, grace_for(table.think.get(seat), base)))
    return out


def reminder_time(table: TableRow) -> float | None:
    """When the clock reminds the players it waits for (a fifth of the move's time left)."""
    if table.clock and table.deadline is not None:
        return table.deadline - table.clock * REMIND_BEFORE
    return None


def wanted(wait: Wait, kind: str, mode: str, remind: float | None, now: float) -> int:
    """The stage of the notice of ``kind`` that the wait has earned by ``now``. ``always`` sends
    the DM at once when the turn comes round, not when the member plays on after their own move
    (they are at the table, and a turn of several moves would send one at each)."""
    if kind == DM and mode == "never":
        return NONE
    if remind is not None and remind <= now:
        return REMINDER
    at_once = kind == DM and mode == "always" and wait.came
    start = wait.since if at_once else wait.since + wait.grace
    return TURN if start <= now else NONE


def next_due(waits: Iterable[Wait], now: float) -> float | None:
    """When the next of these waits reaches its grace period, after ``now``."""
    return min((w.since + w.grace for w in waits if w.since + w.grace > now), default=None)
