"""Names and limits that the table service and its parts (lobby, seat changes) share."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.storage.store import Seat

COMPUTER = "computer"
LEVELS = ("easy", "normal", "hard")
CLOCKS = (60, 300, 900, 3600, 4 * 3600, 12 * 3600, 86400, 3 * 86400, 7 * 86400)
TIMEOUT_POLICIES = ("computer_turn", "computer_seat", "end")
REMIND_BEFORE = 0.2  # remind when a fifth of the clock is left
LOBBY_IDLE = 86400  # a lobby nobody joins this long closes
IDLE = "idle"  # why such a lobby was closed (``TableRow.closed_why``)
LFG_AFTER = 300  # a lobby still short of players this long calls the server's role (``lfg.py``)


def computer_name(number: int) -> str:
    """How a computer's seat is stored: "computer:1", "computer:2"… in the order they were seated."""
    return f"{COMPUTER}:{number}"


def computer_number(name: str, position: int) -> str:
    """A computer's number from its stored name ("computer:2"); a name of another form (a tournament
    fill-in stored before they were numbered) counts by seat instead."""
    tag, _, number = name.partition(":")
    return number if tag == COMPUTER and number.isdigit() else str(position + 1)


@dataclass
class Note:
    """A platform line for the public record (timeouts, seat changes): a message key and its data."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)


#: notes of a seat changing hands; their params keep, under ``was``, the seat as it was, so the
#: record names each seat as it was at each line (``record_lines.names_by_row``)
SEAT_CHANGES = ("clock.seat_taken_over", "clock.seat_replaced")


def was_seat(seat: Seat) -> dict[str, Any]:
    return {"user_id": seat.user_id, "name": seat.name, "away": seat.away}
