"""How Arsène looks: the shop board (PNG plus the same facts as text) and private prompts.

The table is drawn from ``public_view()`` only: the laid trump card and the shown card are public,
the other aside cards and the dummy's cards never appear. Private choices (aside pick, trump card,
dummy card, push) are prompts of the seat concerned; the others only read that a choice is pending.
"""

from __future__ import annotations

from typing import Any

from bot.core import cards
from bot.core.engine import Engine, Event
from bot.core.games import Choice, GameUI, Prompt, TableView, seat_label, stopped
from bot.core.i18n import Lang
from cogs.arsene.engine import DUMMY, ArseneEngine
from cogs.arsene.image import board_png
from cogs.arsene.record import record_lines, summary_lines
from cogs.arsene.rules_scoring import SHOP_GROUPS
from cogs.arsene.texts import (
    DISCS,
    count,
    label,
    labels,
    plays_text,
    shop_text,
    trumps_text,
    who,
)

TAKEN = "✕"  # a shop's chip group already taken
CARD_STYLE_TRUMP = "success"


def finished(public: dict[str, Any]) -> bool:
    return public["result"] is not None or stopped(public)


class ArseneUI(GameUI):
    game_id = "arsene"
    engine = ArseneEngine
    rules_sections = ("goal", "setup", "trump", "play", "scoring", "end", "advanced", "three")

    def action_label(self, action: str, names: list[str], tr: Lang) -> str:
        """A move in words (slash-command autocomplete and buttons)."""
        kind, _, arg = action.partition(":")
        if kind == "aside":
            return tr("arsene.action.aside", index=int(arg) + 1)
        if kind in ("trump", "show", "dummy", "play"):
            return tr(f"arsene.action.{kind}", card=label(arg))
        if kind == "take":
            return tr("arsene.action.take")
        if arg == DUMMY:
            return tr("arsene.action.push_dummy")
        return tr("arsene.action.push", target=names[int(arg)])

    # ---- the public table -----------------------------------------------------------------------
    def table_view(self, public: dict[str, Any], names: list[str], tr: Lang) -> TableView:
        over = finished(public)
        if stopped(public):
            public = {**public, "to_act": [], "pending": []}  # nobody is to play any more
        title = (
            tr("arsene.game_over")
            if over
            else tr("arsene.title", deal=public["deal"], trumps=trumps_text(public, tr))
        )
        view = TableView(title=title, image=board_png(public))
        view.description = "\n".join(self._status(public, names, tr))
        if public["to_act"] and not over:
            view.mark("arsene.mark.turn")
        if not over:
            view.mark("arsene.mark.dealer")
        view.mark("arsene.mark.discs")
        view.fields.append((tr("arsene.board.shops"), self._shops(public, tr)))
        if any(shop["taken"] and not shop["empty"] for shop in public["shops"]):
            view.mark("arsene.mark.taken")
        if any(shop["empty"] for shop in public["shops"]):
            view.mark("arsene.mark.police")
        view.fields.append((tr("arsene.board.players"), self._players(public, names, tr)))
        view.mark("arsene.mark.shop")
        if public["trick"]:
            view.fields.append((tr("arsene.board.current_trick"), plays_text(public["trick"], names)))
        last = public["last_trick"]
        if last and not over:
            key = "last_trick_taken" if last["taker"] == last["winner"] else "last_trick_pushed"
            text = tr(
                f"arsene.board.{key}",
                cards=plays_text(last["cards"], names),
                winner=names[last["winner"]],
                target=who(last["taker"], names, tr),
            )
            view.fields.append((tr("arsene.board.last_trick"), text))
            if last["taker"] != last["winner"]:
                view.mark("arsene.mark.pushed")
        summary = public["last_deal"]
        if summary and (over or public["trick_number"] == 1 and not public["trick"]):
            lines = summary_lines(summary, names, tr)
            if summary["void"]:
                lines.append(tr("arsene.summary.void"))
            view.fields.append((tr("arsene.board.last_deal"), "\n".join(lines)))
            view.mark("arsene.mark.after")
        view.mark("arsene.mark.picture")
        view.footer = tr(
            "arsene.board.footer",
            pool=public["token_pool"],
            total=public["token_total"],
            cap=public["token_cap"],
        )
        if public["contest"]:
            view.colour = 0x8C1D28
        return view

    def _status(self, public: dict[str, Any], names: list[str], tr: Lang) -> list[str]:
        lines = []
        if public["trumps"] is True:
            lines.append(tr("arsene.board.trumps_laid", card=label(public["trump_card"])))
        elif public["trumps"] is False:
            lines.append(tr("arsene.board.no_trumps_shown", card=label(public["shown_card"])))
        elif public["result"] is None:
            lines.append(tr("arsene.board.trumps_pending", player=names[public["trump_seat"]]))
        if public["contest"]:
            lines.append(tr("arsene.board.contest"))
        if not finished(public):
            lines.append(
                tr("arsene.board.roles", dealer=names[public["dealer"]], leader=names[public["leader"]])
            )
        for pending in public["pending"]:
            lines.append(tr(f"arsene.pending.{pending['kind']}", player=names[pending["seat"]]))
        if public["phase"] == "play" and public["to_act"]:
            (seat,) = public["to_act"]
            lines.append(
                tr(
                    "arsene.board.trick",
                    number=public["trick_number"],
                    total=public["tricks_per_deal"],
                    player=names[seat],
                )
            )
        return lines

    @staticmethod
    def _shops(public: dict[str, Any], tr: Lang) -> str:
        lines = []
        for shop in public["shops"]:
            if shop["empty"]:
                lines.append(tr("arsene.board.shop_empty", shop=shop["shop"], card=label(shop["card"])))
                continue
            # A taken group is a cross, not its number struck through: a struck "1" (every shop's
            # first group) reads as "+" on a phone.
            groups = [
                TAKEN if k < shop["taken"] else f"**{g}**" if k == shop["taken"] else str(g)
                for k, g in enumerate(SHOP_GROUPS[shop["shop"]])
            ]
            lines.append(
                tr(
                    "arsene.board.shop_line",
                    shop=shop["shop"],
                    card=label(shop["card"]),
                    groups=" ".join(groups),
                    chips=shop["chips"],
                )
            )
        return "\n".join(lines)

    @staticmethod
    def _players(public: dict[str, Any], names: list[str], tr: Lang) -> str:
        lines = []
        for p in public["players"]:
            seat = p["seat"]
            dealer = public["dealer"] == seat and not finished(public)
            marks = ("▶ " if seat in public["to_act"] else "") + ("🎴 " if dealer else "")
            line = tr(
                "arsene.board.player_line",
                marks=marks,
                disc=DISCS[seat],
                player=seat_label(names, seat),
                chips=count(tr, "chips", p["chips"]),
                tokens=count(tr, "tokens", p["tokens"]),
                exempt=tr("arsene.board.exempt_used") if p["exempt_used"] else "",
                tricks=count(tr, "tricks", p["tricks"]),
                shop=shop_text(p["tricks"], tr),
            )
            if public["phase"] == "dummy_choice" and p["dummy_card_given"]:
                line += tr("arsene.board.dummy_given")
            lines.append(line)
        if public["dummy"]:
            tricks = public["dummy"]["tricks"]
            lines.append(
                tr("arsene.board.dummy_line", tricks=count(tr, "tricks", tricks), shop=shop_text(tricks, tr))
            )
        return "\n".join(lines)

    def score_text(self, score: int, tr: Lang) -> str:
        return count(tr, "chips", score)

    # ---- private prompts ------------------------------------------------------------------------
    def onlooker(self, engine: Engine, seat: int, names: list[str], tr: Lang) -> Prompt:
        hand = engine.observation(seat)["hand"]
        return self.held(engine, seat, hand, [label(c) for c in hand], names, tr)

    def prompt(self, engine: Engine, seat: int, names: list[str], tr: Lang) -> Prompt:
        obs = engine.observation(seat)
        legal = engine.legal_actions(seat)
        me = obs["players"][seat]
        lines = [
            tr(
                "arsene.prompt.status",
                deal=obs["deal"],
                trumps=trumps_text(obs, tr),
                chips=count(tr, "chips", me["chips"]),
                tokens=count(tr, "tokens", me["tokens"]),
                tricks=count(tr, "tricks", me["tricks"]),
            )
        ]
        hand = obs["hand"]
        phase = obs["phase"]
        if obs["result"] is not None:
            winners = obs["result"]["winners"]
            lines.append(
                tr("arsene.prompt.game_over", players=tr.join(names[s] for s in winners), count=len(winners))
            )
            return Prompt("\n".join(lines), self._hand_buttons(hand, set(), obs))
        if not legal:
            if phase == "dummy_choice" and obs["my_dummy_card"]:
                waiting = tr.join(names[s] for s in obs["to_act"])
                lines.append(
                    tr("arsene.prompt.dummy_given", card=label(obs["my_dummy_card"]), players=waiting)
                )
            else:
                lines.extend(self._waiting(obs, names, tr))
            return Prompt("\n".join(lines), self._hand_buttons(hand, set(), obs))
        if phase == "aside_pick":
            lines += [tr("arsene.prompt.aside_pick"), tr("arsene.prompt.hand", cards=labels(hand))]
            choices = [
                Choice(a, self.action_label(a, names, tr), style="secondary", emoji="🎴") for a in legal
            ]
            return Prompt("\n".join(lines), choices)
        if phase == "push":
            target = obs["push"]["target"]
            key = "push_dummy" if target == DUMMY else "push"
            lines += [
                tr(
                    f"arsene.prompt.{key}",
                    target=who(target, names, tr),
                    trick=plays_text(obs["trick"], names),
                ),
                tr("arsene.prompt.hand", cards=labels(hand)),
            ]
            choices = [
                Choice(a, self.action_label(a, names, tr), style="success" if a == "take" else "danger")
                for a in legal
            ]
            return Prompt("\n".join(lines), choices)
        if phase == "trump_choice":
            laying = legal[0].startswith("trump:")
            if obs["picked_card"]:
                lines.append(tr("arsene.prompt.picked", card=label(obs["picked_card"])))
            lines.append(tr("arsene.prompt.trump_lay" if laying else "arsene.prompt.trump_show"))
            by_card = {a.partition(":")[2]: a for a in legal}
            choices = [
                Choice(
                    by_card[c],
                    self.action_label(by_card[c], names, tr),
                    style="success" if laying else "primary",
                )
                if c in by_card
                else Choice(None, label(c))
                for c in hand
            ]
            return Prompt("\n".join(lines), choices)
        if phase == "dummy_choice":
            lines.append(tr("arsene.prompt.dummy_choice"))
            return Prompt("\n".join(lines), self._hand_buttons(hand, set(hand), obs, kind="dummy"))
        trick = plays_text(obs["trick"], names) if obs["trick"] else tr("arsene.prompt.you_lead")
        lines.append(tr("arsene.prompt.your_turn", trick=trick))
        playable = {a.partition(":")[2] for a in legal}
        blocked = [c for c in hand if c not in playable]
        if blocked:
            lines.append(self.refusal(engine, seat, f"play:{blocked[0]}", names, tr))
        return Prompt("\n".join(lines), self._hand_buttons(hand, playable, obs))

    def greyed(self, engine: Engine, seat: int, names: list[str], tr: Lang) -> list[str]:
        """Why cards are greyed: a suit to follow, or the diamond to lay as the trump card."""
        legal = engine.legal_actions(seat)
        obs = engine.observation(seat)
        kind = legal[0].partition(":")[0] if legal and obs["phase"] in ("trump_choice", "play") else None
        if kind is None:
            return []
        playable = {a.partition(":")[2] for a in legal}
        greyed = [f"{kind}:{card}" for card in obs["hand"] if card not in playable]
        return self.refusals(engine, seat, greyed, names, tr)

    @staticmethod
    def _hand_buttons(
        hand: list[str], playable: set[str], obs: dict[str, Any], kind: str = "play"
    ) -> list[Choice]:
        """The hand as ``kind:<card>`` buttons; only ``playable`` cards are pressable. Trumps are green."""
        choices = []
        for card in hand:
            style = CARD_STYLE_TRUMP if obs["trumps"] and cards.suit_of(card) == "D" else "primary"
            choices.append(Choice(f"{kind}:{card}" if card in playable else None, label(card), style=style))
        return choices

    @staticmethod
    def _waiting(obs: dict[str, Any], names: list[str], tr: Lang) -> list[str]:
        pending = [tr(f"arsene.pending.{p['kind']}", player=names[p["seat"]]) for p in obs["pending"]]
        if pending:
            return pending
        return [tr("arsene.prompt.waiting", players=tr.join(names[s] for s in obs["to_act"]))]

    # ---- the public record ----------------------------------------------------------------------
    def record(self, events: list[Event], public: dict[str, Any], names: list[str], tr: Lang) -> list[str]:
        return record_lines(events, names, tr)

    def begins_deal(self, event: Event) -> bool:
        return event.code == "deal_started"

    def record_open(self, events: list[Event]) -> int:
        """A trick won waits for its winner to take or push it: the two make one line."""
        return int(bool(events) and events[-1].code == "trick_won")

    def summary_lines(self, summary: dict[str, Any], names: list[str], tr: Lang) -> list[str]:
        return summary_lines(summary, names, tr)
