"""What a client sends with a click, read strictly, once, where it arrives.

A custom id and a menu's values come from the client: a modified client sends anything. Every
number must fit the database's signed 64-bit integers, an action must be short and made of the
characters actions use, and a menu value must be one the message could have offered. Anything else
is not a button of ours any more: it is refused before any service sees it (``Refused``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from bot.core.i18n import LANGUAGES
from bot.tables.terms import CLOCKS, TIMEOUT_POLICIES

MAX_ID = 2**63 - 1  # the largest id the database stores
#: Every game's actions: letters, digits and ``: . _ -``, at most 60 characters (bot.core.engine).
ACTION = re.compile(r"[A-Za-z0-9:._-]{1,60}")
NUMBER = re.compile(r"0|[1-9][0-9]{0,18}")  # written as the bot writes it: no sign, no leading 0
MAX_POSITION = 99  # a seat position in the host's remove menu
SETTINGS = {
    "clock": frozenset({"0", *map(str, CLOCKS)}),
    "tmo": frozenset(TIMEOUT_POLICIES),
    "lang": frozenset(LANGUAGES),
}


class Refused(Exception):
    """A click that no message of ours could have sent; ``why`` goes to the log."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


def number(text: str | None, what: str = "id") -> int:
    """A table id, version, tournament id or index from a custom id."""
    if text is None or NUMBER.fullmatch(text) is None or int(text) > MAX_ID:
        raise Refused(f"bad {what} {text!r:.40}")
    return int(text)


def action(text: str | None) -> str:
    if text is None or ACTION.fullmatch(text) is None:
        raise Refused(f"bad action {text!r:.80}")
    return text


def values(data: Any) -> Sequence[Any]:
    found = data.get("values") if isinstance(data, dict) else None
    return found if isinstance(found, list) else []


def one_value(data: Any) -> str:
    """The single value of a one-choice menu."""
    chosen = values(data)
    if len(chosen) != 1 or not isinstance(chosen[0], str):
        raise Refused(f"{len(chosen)} menu values")
    return chosen[0]


def position(data: Any) -> int:
    """A seat position from the host's remove menu."""
    seat = number(one_value(data), "seat")
    if seat > MAX_POSITION:
        raise Refused(f"bad seat {seat}")
    return seat


def setting(what: str, data: Any) -> str:
    """A value of a lobby setting menu, one of those it offers."""
    value = one_value(data)
    if value not in SETTINGS.get(what, ()):
        raise Refused(f"bad {what} value {value!r:.40}")
    return value
