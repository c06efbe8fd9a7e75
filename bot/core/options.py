"""A game's table options, declared once as data on its engine.

Each ``Option`` says what values are legal and where its texts live in the catalogs, so the engine's
validation, the ``/<game> new`` parameters, the lobby summary and ``/tournament create`` all follow
from the one declaration. Pure like the engines: no discord here.

Catalog entries under ``key``: ``name`` and ``description`` (the slash-command parameter),
``summary`` (the lobby line, with ``{value}`` = the value's label and ``{raw}`` = the value itself),
and optional labels: ``<token>`` for one value (every listed choice needs one), ``value`` for any
other value (``{value}``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.core.engine import IllegalAction
from bot.core.i18n import Term

KINDS = (bool, int, str)


@dataclass(frozen=True)
class Option:
    name: str
    kind: type
    default: Any
    key: str
    #: The only legal values (besides a ``None`` default), in the order they are offered.
    choices: tuple[Any, ...] = ()
    #: Bounds of an ``int`` without choices.
    low: int | None = None
    high: int | None = None
    #: Values offered first when the value is typed freely (a range, or free text).
    suggestions: tuple[Any, ...] = ()
    #: Free text: returns the canonical form of a legal value, raises ``IllegalAction`` otherwise.
    normalize: Callable[[Any], Any] | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise TypeError(f"option {self.name}: kind must be one of {KINDS}")
        self.check(self.default)
        for value in (*self.choices, *self.suggestions):
            self.check(value)

    def check(self, value: Any) -> Any:
        """``value`` itself (free text: its canonical form) when legal; else ``IllegalAction``."""
        if value is None and self.default is None:
            return None
        if not isinstance(value, self.kind) or (self.kind is int and isinstance(value, bool)):
            raise IllegalAction("bad_option", option=self.name, value=value)
        if self.choices and value not in self.choices:
            raise IllegalAction("bad_option", option=self.name, value=value)
        if isinstance(value, int) and (
            (self.low is not None and value < self.low) or (self.high is not None and value > self.high)
        ):
            raise IllegalAction("bad_option", option=self.name, value=value)
        return self.normalize(value) if self.normalize else value

    # ---- values as text (autocomplete values, catalog keys) ---------------------------------------
    @staticmethod
    def token(value: Any) -> str:
        """A value as a short string: ``none``, ``true``/``false``, or the value itself."""
        if value is None:
            return "none"
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)

    def read(self, token: str) -> Any:
        """The inverse of ``token``, unchecked: ``"3"`` is 3 for a number, ``"none"`` None ..."""
        text = token.strip()
        if text.lower() == "none" and self.default is None:
            return None
        if self.kind is bool:
            return {"true": True, "false": False}.get(text.lower(), text)
        if self.kind is int and text.lstrip("-").isdigit():
            return int(text)
        return text

    def parse(self, token: str) -> Any:
        """Typed text as a legal value, or ``IllegalAction``."""
        return self.check(self.read(token))

    def listed(self) -> list[Any]:
        """The values worth offering without typing: the default, the choices, the suggestions."""
        values = [self.default, *((False, True) if self.kind is bool else self.choices), *self.suggestions]
        out: list[Any] = []
        for value in map(self.check, values):
            if not contains(out, value):
                out.append(value)
        return out

    def offers(self, typed: str, label: Callable[[Any], str]) -> list[Any]:
        """Values to offer while a member types ``typed``: the typed value itself when it is legal,
        then every listed value whose label or token contains what was typed."""
        wanted = typed.strip().lower()
        found: list[Any] = []
        if wanted:
            try:
                found.append(self.parse(typed))
            except IllegalAction:
                pass
        for value in self.listed():
            if contains(found, value):
                continue
            if wanted in label(value).lower() or wanted in self.token(value).lower():
                found.append(value)
        return found


def contains(values: list[Any], value: Any) -> bool:
    """``value in values`` where ``False`` is not ``0`` and ``True`` is not ``1``."""
    return any(type(seen) is type(value) and seen == value for seen in values)


def find(declared: tuple[Option, ...], name: str) -> Option | None:
    return next((option for option in declared if option.name == name), None)


def shown_name(declared: tuple[Option, ...], name: str) -> Term | str:
    """An option as the reader sees it in the commands (「長さ」, "length"), for a message about it;
    a name the game does not declare stays as typed."""
    option = find(declared, name)
    return Term(f"{option.key}.name") if option is not None else name
