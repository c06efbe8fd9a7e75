"""One translation function over TOML message catalogs: ``bot/locales`` and ``cogs/*/locales``.

Keys are dotted paths (``error.not_your_turn``, ``donguri.event.trick_won``). A value may be a
table with ``one``/``other`` forms, chosen by the ``count`` parameter. A parameter may be a ``Term``,
put in the reader's language when the text is drawn. A key missing in a
language falls back to English; a key missing everywhere shows as the key itself, which the
catalog tests catch.
"""

from __future__ import annotations

import logging
import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)
ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("en", "ja")
FALLBACK = "en"


def _flatten(prefix: str, value: Any, out: dict[str, Any]) -> None:
    if isinstance(value, dict) and not {"one", "other"} >= set(value):
        for key, sub in value.items():
            _flatten(f"{prefix}.{key}" if prefix else key, sub, out)
    else:
        out[prefix] = value


def catalog_files(language: str) -> list[Path]:
    return [
        ROOT / "bot" / "locales" / f"{language}.toml",
        *sorted(ROOT.glob(f"cogs/*/locales/{language}.toml")),
    ]


def load_catalog(language: str) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for path in catalog_files(language):
        if path.exists():
            _flatten("", tomllib.loads(path.read_text(encoding="utf-8")), merged)
    return merged


_CATALOGS: dict[str, dict[str, Any]] = {}


def catalog(language: str) -> dict[str, Any]:
    if language not in _CATALOGS:
        _CATALOGS[language] = load_catalog(language)
    return _CATALOGS[language]


def language_of(locale: Any) -> str:
    """Map a Discord locale (``ja``, ``en-US`` ...) to a catalog language."""
    text = str(getattr(locale, "value", locale) or "")
    return "ja" if text.startswith("ja") else FALLBACK


def has(key: str, language: str = FALLBACK) -> bool:
    return key in catalog(language) or key in catalog(FALLBACK)


class Term:
    """A catalog text that is put into a message in the message's language, known only when it is
    shown: an error raised with ``option=Term("donguri.cmd.new.length.name")`` names the option
    as the member who reads it sees it (「長さ」 or "length")."""

    __slots__ = ("key", "params")

    def __init__(self, key: str, **params: Any) -> None:
        self.key = key
        self.params = params

    def __repr__(self) -> str:
        return f"Term({self.key!r})"

    def text(self, language: str) -> str:
        return t(self.key, language, **self.params)


def t(key: str, language: str = FALLBACK, /, **params: Any) -> str:
    if any(isinstance(v, Term) for v in params.values()):
        params = {k: v.text(language) if isinstance(v, Term) else v for k, v in params.items()}
    value = catalog(language).get(key)
    if value is None:
        value = catalog(FALLBACK).get(key)
    if value is None:
        log.warning("missing message key %s", key)
        return key
    if isinstance(value, dict):
        value = value["one"] if params.get("count") == 1 and "one" in value else value["other"]
    text: str = value  # every entry is a string or a one/other table of strings (test_i18n checks)
    try:
        return text.format_map(params)
    except (KeyError, IndexError, ValueError):
        log.warning("bad placeholders for %s: %s", key, sorted(params))
        return text


class Lang:
    """A translator bound to one language, handed to renderers."""

    def __init__(self, language: str) -> None:
        self.language = language

    def __call__(self, key: str, /, **params: Any) -> str:
        return t(key, self.language, **params)

    def has(self, key: str) -> bool:
        return has(key, self.language)

    def join(self, items: Iterable[str], *, conjunction: bool = True) -> str:
        """Every list of names, cards or details in a text people read, as the language writes it:
        "A, B and C" / 「A、B、C」; without the conjunction (a roster, card numbers, the details of a
        result) "A, B, C" / 「A、B、C」.

        The separators are catalog entries (``list.separator``, ``list.last``), so a sentence
        never carries English commas into Japanese.
        """
        items = list(items)
        if len(items) < 2:
            return "".join(items)
        separator = self("list.separator")
        last = self("list.last") if conjunction else separator
        return separator.join(items[:-1]) + last + items[-1]
