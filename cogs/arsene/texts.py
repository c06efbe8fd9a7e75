"""The small wordings of Arsène (cards, seats, counts, shops, clash partners), shared by the table
view, the private prompts and the record in render.py."""

from __future__ import annotations

from typing import Any

from bot.core import cards
from bot.core.i18n import Lang
from cogs.arsene.rules_scoring import shop_of

#: Seat colours as in the board image.
DISCS = ("🔵", "🟠", "🟣", "🟢")


def label(card: str) -> str:
    return cards.label(card)


def labels(hand: list[str]) -> str:
    return " ".join(label(c) for c in hand) or "—"


def who(target: int | str, names: list[str], tr: Lang) -> str:
    return names[target] if isinstance(target, int) else tr("arsene.dummy")  # a seat, or DUMMY


def trumps_text(public: dict[str, Any], tr: Lang) -> str:
    if public["trumps"] is None:
        return tr("arsene.trumps_undecided")
    return tr("arsene.trumps") if public["trumps"] else tr("arsene.no_trumps")


def plays_text(plays: list[dict[str, Any]], names: list[str]) -> str:
    return " · ".join(f"{label(p['card'])} {names[p['seat']]}" for p in plays)


def count(tr: Lang, what: str, n: int) -> str:
    return tr(f"arsene.count.{what}", count=n)



def shop_text(tricks: int, tr: Lang) -> str:
    shop = shop_of(tricks)
    return tr("arsene.board.to_shop", shop=shop) if shop else tr("arsene.board.no_shop")


def clash_partners(summary: dict[str, Any], row: dict[str, Any], names: list[str], tr: Lang) -> str:
    """Everyone a clashing player shared the shop (or, in contest mode, the 0 tricks) with."""
    others = [
        names[other["seat"]]
        for other in summary["players"]
        if other["seat"] != row["seat"] and other["clash"] and other["tricks"] == row["tricks"]
    ]
    if row["with_dummy"]:
        others.append(tr("arsene.dummy"))
    return tr.join(others)

