"""Arsène's public record: a trick won and its taking or pushing as one line, each deal's start
and its summary (tricks, shop, chips, clashes, police, tokens, exchanges). The table view shows the
same summary after a deal."""

from __future__ import annotations

from typing import Any

from bot.core.engine import Event
from bot.core.i18n import Lang
from cogs.arsene.texts import DISCS, clash_partners, count, label, shop_text


def record_lines(events: list[Event], names: list[str], tr: Lang) -> list[str]:
    """Lines for the public record; a trick won waits for its taking or pushing (``record_open``)."""
    lines: list[str] = []
    trick_at: int | None = None  # index of a "Trick n" line whose take/push may follow
    won: dict[str, Any] = {}
    for event in events:
        data = event.data
        code = event.code
        player = names[data["seat"]] if "seat" in data else ""
        if code == "trick_won":
            won = {"trick": data["trick"], "player": player, "card": label(data["card"])}
            trick_at = len(lines)
            lines.append(tr("arsene.event.trick_won", **won))
            continue
        resolution = resolution_of(event, names, tr)
        if resolution is not None and trick_at is not None:
            key, target = resolution
            lines[trick_at] = tr(f"arsene.event.{key}", target=target, **won)
        elif resolution is not None:
            if code != "trick_taken" or not data.get("auto"):
                lines.append(tr(f"arsene.event.{code}", player=player, target=resolution[1]))
        elif code == "deal_started":
            key = "deal_started_contest" if data["contest"] else "deal_started"
            lines.append(tr(f"arsene.event.{key}", deal=data["deal"], player=player))
        elif code in ("aside_taken", "dummy_trick_formed"):
            lines.append(tr(f"arsene.event.{code}", player=player))
        elif code in ("trump_laid", "card_shown"):
            lines.append(tr(f"arsene.event.{code}", player=player, card=label(data["card"])))
        elif code == "deal_scored":
            lines.append(tr("arsene.event.deal_scored", deal=data["deal"]))
            lines.extend(summary_lines(data, names, tr))
        elif code == "deal_void":
            lines.append(tr("arsene.event.deal_void", deal=data["deal"]))
        elif code == "game_over":
            lines.append(
                tr(
                    "arsene.event.game_over",
                    reason=tr(f"arsene.end_reason.{data['reason']}"),
                    players=tr.join(names[s] for s in data["winners"]),
                )
            )
        trick_at = None
    return lines


def resolution_of(event: Event, names: list[str], tr: Lang) -> tuple[str, str] | None:
    """(merged line key, target) when ``event`` settles who gets a trick, else None."""
    if event.code == "trick_taken":
        return ("trick_won" if event.data.get("auto") else "trick_won_taken"), ""
    if event.code == "trick_pushed":
        return "trick_won_pushed", names[event.data["target"]]
    if event.code == "trick_pushed_dummy":
        return "trick_won_pushed", tr("arsene.dummy")
    return None


def summary_lines(summary: dict[str, Any], names: list[str], tr: Lang) -> list[str]:
    """The deal summary: each player's tricks → shop → chips, clash, police, tokens, exchange."""
    lines = []
    for row in summary["players"]:
        parts = [count(tr, "tricks", row["tricks"])]
        parts.append(
            tr("arsene.summary.shop", shop=row["shop"]) if row["shop"] else tr("arsene.summary.no_shop")
        )
        if row["clash"]:
            parts.append(tr("arsene.summary.clash", players=clash_partners(summary, row, names, tr)))
        if row["police"] == "caught":
            parts.append(tr("arsene.summary.police_caught", chips=count(tr, "chips", row["chips_lost"])))
        elif row["police"] == "exempt":
            parts.append(tr("arsene.summary.police_exempt"))
        if row["chips_taken"]:
            parts.append(tr("arsene.summary.chips_taken", chips=count(tr, "chips", row["chips_taken"])))
        if row["token_gained"]:
            parts.append(tr("arsene.summary.token"))
        if row["exchange_to"] is not None:
            handed = summary["players"][row["exchange_to"]]["chips_after"]
            parts.append(
                tr(
                    "arsene.summary.exchange",
                    chips=count(tr, "chips", handed),
                    target=names[row["exchange_to"]],
                )
            )
        if len(parts) == 2:
            parts.append(tr("arsene.summary.nothing"))
        lines.append(
            tr(
                "arsene.summary.line",
                disc=DISCS[row["seat"]],
                player=names[row["seat"]],
                parts=" → ".join(parts),
                chips_after=row["chips_after"],
                tokens_after=row["tokens_after"],
            )
        )
    dummy = summary.get("dummy")
    if dummy:
        lines.append(
            tr(
                "arsene.summary.dummy_line",
                tricks=count(tr, "tricks", dummy["tricks"]),
                shop=shop_text(dummy["tricks"], tr),
            )
        )
    return lines
