"""How Donguri looks: a text table (it needs no image: a trick is at most five cards)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from bot.core import cards
from bot.core.engine import Engine, Event
from bot.core.games import Choice, GameUI, Prompt, TableView, seat_label, stopped
from bot.core.i18n import Lang
from cogs.donguri.engine import DonguriEngine, is_acorn

SUIT_ORDER = "SHDCX"


def card_label(card: str, players: int) -> str:
    return cards.label(card, face_names=players < 5)


def played(
    plays: list[dict[str, Any]], names: list[str], players: int, excluded: Collection[int] = ()
) -> str:
    parts = []
    for play in plays:
        text = f"{card_label(play['card'], players)} {names[play['seat']]}"
        parts.append(f"~~{text}~~" if play["seat"] in excluded else text)
    return " · ".join(parts)


class DonguriUI(GameUI):
    game_id = "donguri"
    engine = DonguriEngine
    rules_sections = ("goal", "cards", "play", "trick", "scoring", "four_five")

    def format_params(self, params: dict[str, Any], names: list[str]) -> dict[str, Any]:
        return super().format_params(params, names)

    def score_text(self, score: int, tr: Lang) -> str:
        return tr("donguri.result.penalty", count=score)

    def table_view(self, public: dict[str, Any], names: list[str], tr: Lang) -> TableView:
        n = public["players"]
        view = TableView(title=tr("donguri.deal", deal=public["deal"], total=public["deals_total"]))
        over = public["finished"] or stopped(public)
        if over:
            view.title = tr("donguri.game_over")
        if not over:
            view.mark("donguri.mark.turn")
            view.mark("donguri.mark.dealer")
        lines = []
        for seat in range(len(names)):
            marks = ("▶ " if public["turn"] == seat else "") + ("🎴 " if public["dealer"] == seat else "")
            marks = "" if over else marks
            lines.append(
                tr(
                    "donguri.seat_line",
                    marks=marks,
                    player=seat_label(names, seat),
                    cards=tr("donguri.count.cards", count=public["hand_counts"][seat]),
                    tricks=tr("donguri.count.tricks", count=public["tricks"][seat]),
                    penalty=public["penalties"][seat],
                )
            )
        view.fields.append((tr("donguri.players"), "\n".join(lines)))
        if public["trick"]:
            view.fields.append((tr("donguri.current_trick"), played(public["trick"], names, n)))
        last = public["last_trick"]
        if last:
            text = played(last["plays"], names, n, last["excluded"])
            verdict = tr(f"donguri.majority.{last['majority']}")
            if last["excluded"]:  # at four players the card played second is struck through: say why
                view.mark("donguri.mark.excluded")
            view.fields.append((tr("donguri.last_trick"), f"{text}\n→ **{names[last['winner']]}** · {verdict}"))
        footer = [tr("donguri.footer.goal")]
        if public["removed_suit"]:
            footer.append(tr("donguri.footer.removed", suit=cards.SUIT_SYMBOLS[public["removed_suit"]]))
        view.footer = " · ".join(footer)
        return view

    def greyed(self, engine: Engine, seat: int, names: list[str], tr: Lang) -> list[str]:
        legal = set(engine.legal_actions(seat))
        if not legal:
            return []
        greyed = [f"play:{card}" for card in engine.observation(seat)["hand"]]
        return self.refusals(engine, seat, [action for action in greyed if action not in legal], names, tr)

    def onlooker(self, engine: Engine, seat: int, names: list[str], tr: Lang) -> Prompt:
        obs = engine.observation(seat)
        hand = obs["hand"]
        view = self.held(engine, seat, hand, [card_label(c, obs["players"]) for c in hand], names, tr)
        view.text += "\n" + tr("donguri.onlooker.points", player=names[seat], points=obs["taken_points"])
        return view

    def prompt(self, engine: Engine, seat: int, names: list[str], tr: Lang) -> Prompt:
        obs = engine.observation(seat)
        n = obs["players"]
        legal = set(engine.legal_actions(seat))
        hand = obs["hand"]
        lines = [tr("donguri.prompt.hand", count=len(hand))]
        if obs["finished"]:
            lines.append(tr("donguri.game_over"))
        elif obs["turn"] == seat:
            trick = played(obs["trick"], names, n) if obs["trick"] else tr("donguri.prompt.you_lead")
            lines.append(tr("donguri.prompt.your_turn", trick=trick))
            blocked = [c for c in hand if f"play:{c}" not in legal]
            if blocked:
                lines.append(self.refusal(engine, seat, f"play:{blocked[0]}", names, tr))
        else:
            lines.append(tr("donguri.prompt.waiting", player=names[obs["turn"]]))
        lines.append(tr("donguri.prompt.points", points=obs["taken_points"]))
        choices = []
        for card in hand:
            action = f"play:{card}"
            style = "success" if is_acorn(card, n) else "primary"
            choices.append(Choice(action if action in legal else None, card_label(card, n), style=style))
        return Prompt("\n".join(lines), choices)

    def record(self, events: list[Event], public: dict[str, Any], names: list[str], tr: Lang) -> list[str]:
        n = public["players"]
        lines = []
        for event in events:
            data = event.data
            if event.code == "trick_won":
                lines.append(
                    tr(
                        "donguri.event.trick_won",
                        number=data["number"],
                        cards=played(data["plays"], names, n, data["excluded"]),
                        player=names[data["winner"]],
                        majority=tr(f"donguri.majority.{data['majority']}"),
                    )
                )
            elif event.code == "deal_scored":
                per_seat = " · ".join(
                    tr(
                        "donguri.event.deal_seat",
                        player=names[s],
                        points=tr("donguri.count.points", count=data["points"][s]),
                        penalty=data["penalties"][s],
                        total=data["totals"][s],
                    )
                    for s in range(n)
                )
                lines.append(tr("donguri.event.deal_scored", deal=data["deal"], seats=per_seat))
        return lines
