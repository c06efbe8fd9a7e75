"""Which turn notices a table wants at a given time, with no Discord in it.

A notice is for a player who is away. A member's wait (their turn, from when it began or from
their last move in it) earns a notice once it has lasted the grace period; a member who chose
``always`` gets their DM as soon as their turn comes round, and one who chose ``never`` gets none (the table's thread still mentions them after the grace
period, so the others see whom the table waits for). When a clocked table's reminder time has
come, the reminder takes the place of the turn notice, whoever it is for.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.tables.terms import REMIND_BEFORE

if TYPE_CHECKING:
    from bot.storage.store import TableRow

NONE, TURN, REMINDER = 0, 1, 2  # a notice's stage: a later stage replaces an earlier one
DM, THREAD = "dm", "thread"


@dataclass(frozen=True)
class Wait:
    seat: int
    user_id: int
    turn_no: int  # the table's turn at which it began
    since: float
    came: bool  # the turn came round (rather than went on after the member's own move)


def waits(table: TableRow) -> list[Wait]:
    """The members the table waits for, with their waits (a table from before waits were kept
    has none for a turn begun then: no notice for that turn)."""
    out = []
    for seat in table.turn_seats:
        if seat >= len(table.seats) or table.seats[seat].played_by_computer or seat not in table.waits:
            continue
        turn, since, came = table.waits[seat]
        user_id = table.seats[seat].user_id
        assert user_id is not None
        out.append(Wait(seat, user_id, turn, since, came))
    return out


def reminder_time(table: TableRow) -> float | None:
    """When the clock reminds the players it waits for (a fifth of the move's time left)."""
    if table.clock and table.deadline is not None:
        return table.deadline - table.clock * REMIND_BEFORE
    return None


def wanted(wait: Wait, kind: str, mode: str, grace: float, remind: float | None, now: float) -> int:
    """The stage of the notice of ``kind`` that the wait has earned by ``now``."""
    if kind == DM and mode == "never":
        return NONE
    if remind is not None and remind <= now:
        return REMINDER
    at_once = kind == DM and mode == "always" and wait.came
    start = wait.since if at_once else wait.since + grace
    return TURN if start <= now else NONE


def next_due(waits: Iterable[Wait], grace: float, now: float) -> float | None:
    """When the next of these waits reaches its grace period, after ``now``."""
    return min((w.since + grace for w in waits if w.since + grace > now), default=None)
