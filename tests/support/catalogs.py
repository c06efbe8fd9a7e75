"""Where the message catalogs are, and which ones have both languages: shared by the i18n test files."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def catalog_pairs() -> list[tuple[str, Path, Path]]:
    pairs = [("bot", ROOT / "bot/locales/en.toml", ROOT / "bot/locales/ja.toml")]
    for en in sorted(ROOT.glob("cogs/*/locales/en.toml")):
        pairs.append((en.parent.parent.name, en, en.with_name("ja.toml")))
    return pairs


def translated() -> set[str]:
    """Games (and "bot") whose catalogs exist in both languages."""
    return {name for name, _en, ja in catalog_pairs() if ja.exists()}
