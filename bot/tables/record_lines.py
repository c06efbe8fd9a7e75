"""The public record as a pure function of the table log: which lines, and which message each is in.

The worker reads the log in passes whose bounds depend on timing (a burst of moves, a pass put
off, a restart), so nothing here may depend on them. The log is cut into units: an event whose
line is complete, with the events before it that waited for it (``GameUI.record_open``), or one
note, or the end. A unit's lines are drawn from the unit alone, with the names the seats had then;
the open tail of the log waits for a later pass. Units are then packed greedily into messages of
one deal each: the same messages whether the units come one by one or all at once.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.core.engine import Event
from bot.core.games import GameUI
from bot.core.i18n import Lang
from bot.storage.store import Seat
from bot.tables import render
from bot.tables.terms import SEAT_CHANGES


@dataclass
class Unit:
    lines: list[str]
    upto: int  # seq of its last row: the record's position once its lines are shown
    deal: int


@dataclass
class Part:
    """One record message as a pass leaves it."""

    part: int
    deal: int
    text: str
    upto: int | None  # the position to store with it; None: it ends inside a unit
    message_id: int | None = None  # the stored message it extends; None: a message to send


def names_by_row(rows: Sequence[Any], seats: list[Seat], tr: Lang) -> list[list[str]]:
    """The seat names at each row: the seats now, with every later seat change undone."""
    seats = list(seats)
    out: list[list[str]] = [[] for _ in rows]
    for i in range(len(rows) - 1, -1, -1):
        out[i] = [render.seat_name(seat, tr) for seat in seats]
        row = rows[i]
        if row["kind"] == "note" and row["code"] in SEAT_CHANGES:
            data = json.loads(row["data"])
            was = data.get("was")
            if was is not None:
                position = data["seat"]
                seats[position] = Seat(position, was["user_id"], was["name"], bool(was.get("away")))
    return out


def draw(
    rows: Sequence[Any],
    ui: GameUI,
    public: dict[str, Any],
    seats: list[Seat],
    tr: Lang,
    final_line: Callable[[list[str]], str],
) -> list[Unit]:
    """The complete units of ``rows`` (log rows in order); the open tail is left out."""
    names = names_by_row(rows, seats, tr)
    units: list[Unit] = []
    batch: list[Event] = []
    first = 0  # index of the batch's first row

    def flush(last: int) -> None:
        units.append(Unit(ui.record(batch, public, names[last], tr), rows[last]["seq"], rows[first]["deal"]))
        batch.clear()

    for i, row in enumerate(rows):
        if row["kind"] == "event":
            if not batch:
                first = i
            batch.append(Event(row["code"], json.loads(row["data"])))
            if not ui.record_open(batch):
                flush(i)
            continue
        if batch:  # a note or the end comes between: what waited is drawn as it stands
            flush(i - 1)
        if row["kind"] == "note":
            line = tr(row["code"], **ui.format_params(json.loads(row["data"]), names[i]))
        else:
            line = final_line(names[i])
        units.append(Unit([line], row["seq"], row["deal"]))
    return units


def chunks(lines: list[str], limit: int) -> list[str]:
    """Lines joined into texts of at most ``limit`` characters (a longer single line is cut)."""
    out: list[str] = []
    current = ""
    for line in lines:
        line = line[:limit]
        if current and len(current) + 1 + len(line) > limit:
            out.append(current)
            current = ""
        current = f"{current}\n{line}" if current else line
    if current:
        out.append(current)
    return out


def pack(last: Any, units: list[Unit], limit: int) -> list[Part]:
    """The messages ``units`` change, after ``last`` (the record's last stored message, or None).
    The position after a unit with no lines is the caller's to store.

    A unit goes into the last message when that message is of the unit's deal and has room for all
    of it; otherwise it begins a new message. A unit longer than a message is spread over several.
    """
    parts: list[Part] = []
    current: Part | None = None
    if last is not None and not last["closed"]:
        current = Part(last["part"], last["deal"], last["lines"], None, last["message_id"])
    number = last["part"] if last is not None else 0
    for unit in units:
        if not unit.lines:
            continue
        text = "\n".join(line[:limit] for line in unit.lines)
        if current is not None and current.deal == unit.deal and len(current.text) + 1 + len(text) <= limit:
            current.text = f"{current.text}\n{text}"
            current.upto = unit.upto
            if not parts or parts[-1] is not current:
                parts.append(current)
            continue
        pieces = chunks(unit.lines, limit)
        if not parts and current is not None and current.text in pieces[:-1]:
            # A pass that sent the first pieces of this long unit was cut short: the rest follow.
            pieces = pieces[pieces.index(current.text) + 1 :]
        for i, piece in enumerate(pieces):
            number += 1
            current = Part(number, unit.deal, piece, unit.upto if i == len(pieces) - 1 else None)
            parts.append(current)
    return parts
