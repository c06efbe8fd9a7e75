"""How Saizen looks: the rule cards (picture plus text), tricks with their playoffs, the chip step,
hand passing in the record, and each seat's private prompt with the reason for every greyed card."""

from __future__ import annotations

from typing import Any

from bot.core import cards
from bot.core.engine import Engine, Event
from bot.core.games import Choice, GameUI, Menu, Prompt, TableView, seat_label, stopped
from bot.core.i18n import Lang
from bot.core.options import Option
from bot.tables.choices import MAX_BUTTONS
from cogs.saizen.engine import (
    OPTION_LAYOUT,
    PHASE_CHIPS,
    PHASE_OVER,
    PHASE_PLAYOFF,
    SaizenEngine,
)
from cogs.saizen.image import rule_cards_png
from cogs.saizen.rules_core import SIDES, SWITCHES, is_joker, parse_layout

SUITS = cards.SUITS
SUIT = cards.SUIT_SYMBOLS
LOCKED = "🔒"
TRICK_ENDS = ("trick_won", "trick_no_winner")


def side_tag(tr: Lang, side: str) -> str:
    return tr(f"saizen.side_tag.{side}")


def number_label(num: int | str) -> str:
    return "🃏" if num == "joker" else cards.RANK_NAMES.get(int(num), str(num))


def hand_text(hand: list[str]) -> str:
    groups = [[cards.label(c) for c in hand if c[0] == suit] for suit in SUITS + "J"]
    return " · ".join(" ".join(group) for group in groups if group) or "—"


def rule_lines(tr: Lang, rule_cards: dict[str, Any], led: str | None = None) -> str:
    """The text fallback of the picture: the side in force of every switch, 🔒 once its chip moved."""
    lines = []
    for suit in SUITS:
        sides = " · ".join(
            side_tag(tr, rule_cards[suit][sw]["side"])
            + (f" {LOCKED}" if rule_cards[suit][sw]["moved"] else "")
            for sw in SWITCHES
        )
        lines.append(f"**{SUIT[suit]} {sides}** ◀" if suit == led else f"{SUIT[suit]} {sides}")
    return "\n".join(lines)


def led_text(tr: Lang, trick: dict[str, Any]) -> str:
    key = "joker_led" if trick["joker_lead"] else "led"
    return tr(f"saizen.trick.{key}", suit=SUIT[trick["led_suit"]])


def plays_text(tr: Lang, plays: list[dict[str, Any]], names: list[str]) -> str:
    out = []
    for play in plays:
        text = tr("saizen.event.card_played", card=cards.label(play["card"]), player=names[play["seat"]])
        out.append(text if play.get("follows", True) else f"~~{text}~~")
    return " · ".join(out)


def trick_text(tr: Lang, trick: dict[str, Any], names: list[str]) -> str:
    """The cards of a trick in order, then each playoff with its cards and who ran out of cards."""
    parts = [plays_text(tr, trick["plays"], names)]
    for playoff in trick["playoffs"]:
        head = tr(
            "saizen.event.playoff_started",
            number=number_label(playoff["number"]),
            players=tr.join(names[s] for s in playoff["seats"]),
        )
        body = [plays_text(tr, playoff["plays"], names)] if playoff["plays"] else []
        body += [tr("saizen.event.playoff_out_of_cards", player=names[s]) for s in playoff["out_of_cards"]]
        parts.append(f"{head}: {' · '.join(body)}" if body else head)
    return " ".join(parts)


def trick_line(tr: Lang, record: dict[str, Any], names: list[str]) -> str:
    """A finished trick (an engine trick record with ``winner`` and ``number``)."""
    winner = record["winner"]
    return tr(
        "saizen.event.trick_won" if winner is not None else "saizen.event.trick_no_winner",
        trick=record["number"],
        led=led_text(tr, record),
        plays=trick_text(tr, record, names),
        player=names[record["leader"] if winner is None else winner],
    )


def fit(choices: list[Choice], placeholder: str) -> tuple[list[Choice], list[Menu]]:
    """Keep a prompt within the platform's buttons: drop greyed ones first, then overflow to a select."""
    if len(choices) <= MAX_BUTTONS:
        return choices, []
    playable = [c for c in choices if c.action is not None]
    if len(playable) <= MAX_BUTTONS:
        return playable, []
    return playable[:MAX_BUTTONS], [Menu(placeholder, playable[MAX_BUTTONS:])]


class SaizenUI(GameUI):
    game_id = "saizen"
    engine = SaizenEngine
    rules_sections = ("goal", "cards", "chips", "play", "playoff", "jokers", "rounds")

    def option_label(self, option: Option, value: Any, tr: Lang) -> str:
        """The starting layout drawn as the rule cards show it: "♠︎ 小 low, MAY follow · ♥ 決勝 playoff"."""
        if option.name != OPTION_LAYOUT:
            return super().option_label(option, value, tr)
        second = parse_layout(value)
        layout = " · ".join(
            f"{SUIT[s]} "
            + tr.join((side_tag(tr, SIDES[sw][1]) for sw in SWITCHES if (s, sw) in second), conjunction=False)
            for s in SUITS
            if any((s, sw) in second for sw in SWITCHES)
        )
        return layout or tr(f"{option.key}.standard")

    # ---- the public table ------------------------------------------------------------------
    def table_view(self, public: dict[str, Any], names: list[str], tr: Lang) -> TableView:
        trick, phase = public["trick"], public["phase"]
        led = trick["led_suit"] if trick else None
        round_title = tr("saizen.round_title", round=public["round"], rounds=public["rounds"])
        over = phase == PHASE_OVER or stopped(public)
        if over:
            title = tr("saizen.phase.over")
        elif phase == PHASE_CHIPS:
            title = f"{round_title} · {tr('saizen.phase.chips')}"
        else:
            title = f"{round_title} · {tr('saizen.trick_title', trick=trick['number'])}"
            if phase == PHASE_PLAYOFF:
                title += f" · {tr('saizen.phase.playoff')}"
        view = TableView(title=title, image=rule_cards_png(public["rule_cards"], led))
        view.fields.append((tr("saizen.rule_cards"), rule_lines(tr, public["rule_cards"], led)))
        if phase == PHASE_CHIPS:
            order = " → ".join(
                f"**{names[s]}**" if i == 0 else names[s] for i, s in enumerate(public["chip_order"])
            )
            view.fields.append(
                (tr("saizen.chip_step"), tr("saizen.chip_order", order=order, left=public["chips_left"]))
            )
        if trick and trick["plays"]:
            text = f"{led_text(tr, trick)}: {trick_text(tr, trick, names)}"
            if phase == PHASE_PLAYOFF:
                players = tr.join(names[s] for s in trick["playoff_seats"])
                text += "\n" + tr("saizen.trick.playoff_waiting", players=players)
            view.fields.append((tr("saizen.current_trick"), text))
        if public["last_trick"]:
            view.fields.append((tr("saizen.last_trick"), trick_line(tr, public["last_trick"], names)))
        view.fields.append((tr("saizen.players"), self.seat_lines(public, names, tr, over)))
        for key in self.marks(public, over):
            view.mark(key)
        return view

    @staticmethod
    def marks(public: dict[str, Any], over: bool) -> list[str]:
        """The marks the table shows: each side in force somewhere, 🔒, ◀, ~~off-suit~~, ⚔, ▶."""
        rule_cards, trick, last = public["rule_cards"], public["trick"], public["last_trick"]
        keys = ["saizen.mark.turn"] if public["to_act"] and not over else []
        if trick and trick["plays"]:
            keys.append("saizen.mark.led")
        keys += [
            f"saizen.mark.side.{side}"
            for switch in SWITCHES
            for side in SIDES[switch]
            if any(rule_cards[suit][switch]["side"] == side for suit in SUITS)
        ]
        if any(rule_cards[suit][sw]["moved"] for suit in SUITS for sw in SWITCHES):
            keys.append("saizen.mark.locked")
        shown = [t for t in (trick if trick and trick["plays"] else None, last) if t]
        plays = [p for t in shown for p in t["plays"]]
        plays += [p for t in shown for playoff in t["playoffs"] for p in playoff["plays"]]
        if any(not p.get("follows", True) for p in plays):
            keys.append("saizen.mark.off_suit")
        if any(t["playoffs"] for t in shown):
            keys.append("saizen.mark.playoff")
        return [*keys, "saizen.mark.rounds", "saizen.mark.picture"]

    @staticmethod
    def seat_lines(public: dict[str, Any], names: list[str], tr: Lang, over: bool = False) -> str:
        lines = []
        for seat in range(len(names)):
            lines.append(
                tr(
                    "saizen.seat_line",
                    marks="▶ " if seat in public["to_act"] and not over else "",
                    player=seat_label(names, seat),
                    cards=tr("saizen.count.cards", count=public["hand_counts"][seat]),
                    rounds=" / ".join(str(r[seat]) for r in public["round_tricks"]),
                    points=public["scores"][seat],
                )
            )
        return "\n".join(lines)

    def score_text(self, score: int, tr: Lang) -> str:
        return tr("saizen.count.tricks", count=score)

    # ---- a seat's prompt ---------------------------------------------------------------------
    def onlooker(self, engine: Engine, seat: int, names: list[str], tr: Lang) -> Prompt:
        hand = engine.observation(seat)["hand"]
        return self.held(engine, seat, hand, [cards.label(c) for c in hand], names, tr)

    def prompt(self, engine: Engine, seat: int, names: list[str], tr: Lang) -> Prompt:
        obs = engine.observation(seat)
        legal = engine.legal_actions(seat)
        hand, phase, trick = obs["hand"], obs["phase"], obs["trick"]
        lines = [tr("saizen.prompt.hand", count=len(hand), cards=hand_text(hand))]
        if obs["round"] > 1 and phase != PHASE_OVER:
            lines.append(tr("saizen.prompt.received", player=names[(seat + 1) % obs["num_players"]]))
        choices, menus = self.card_choices(hand, legal, tr)
        if phase == PHASE_OVER:
            tricks = tr("saizen.count.tricks", count=obs["scores"][seat])
            lines.append(tr("saizen.prompt.game_over", tricks=tricks))
        elif phase == PHASE_CHIPS and obs["chip_turn"] == seat:
            lines += [tr("saizen.prompt.your_chip", round=obs["round"]), rule_lines(tr, obs["rule_cards"])]
            choices, menus = self.chip_choices(legal, obs["rule_cards"], tr)
        elif phase == PHASE_CHIPS:
            lines.append(tr("saizen.prompt.waiting_chip", player=names[obs["chip_turn"]]))
        elif seat in obs["to_act"]:
            lines.append(self.turn_text(trick, phase, names, tr))
            if not trick["plays"] and any(is_joker(card) for card in hand):
                lines.append(tr("saizen.prompt.lead_joker"))
            reasons = self.blocked_reasons(engine, seat, hand, legal, names, tr)
            lines += [tr("saizen.prompt.blocked", reason=reason) for reason in reasons]
        else:
            lines.append(tr("saizen.prompt.waiting", player=tr.join(names[s] for s in obs["to_act"])))
        if phase != PHASE_OVER and not (phase == PHASE_CHIPS and obs["chip_turn"] == seat):
            led = trick["led_suit"] if trick and trick["plays"] else None
            lines += [tr("saizen.prompt.rule_cards"), rule_lines(tr, obs["rule_cards"], led)]
        if phase != PHASE_OVER:
            round_tricks = obs["round_tricks"][-1][seat]
            lines.append(tr("saizen.prompt.tricks", round=round_tricks, total=obs["scores"][seat]))
        return Prompt("\n".join(lines), choices, menus)

    @staticmethod
    def turn_text(trick: dict[str, Any], phase: str, names: list[str], tr: Lang) -> str:
        if not trick["plays"]:
            return tr("saizen.prompt.your_lead", trick=trick["number"])
        so_far = f"{led_text(tr, trick)}: {trick_text(tr, trick, names)}"
        key = "playoff_turn" if phase == PHASE_PLAYOFF else "your_turn"
        return tr(f"saizen.prompt.{key}", trick=so_far)  # the rule cards follow, the led one marked

    def greyed(self, engine: Engine, seat: int, names: list[str], tr: Lang) -> list[str]:
        obs = engine.observation(seat)
        if obs["phase"] in (PHASE_CHIPS, PHASE_OVER) or seat not in engine.to_act():
            return []  # waiting is not a refusal of each card ("you cannot do that now (play:S7)")
        return self.blocked_reasons(engine, seat, obs["hand"], engine.legal_actions(seat), names, tr)

    def blocked_reasons(
        self, engine: Engine, seat: int, hand: list[str], legal: list[str], names: list[str], tr: Lang
    ) -> list[str]:
        """Why the greyed cards are greyed, from the engine's own explanation (each reason once)."""
        playable = {action.split(":")[1] for action in legal}
        return self.refusals(engine, seat, [f"play:{card}" for card in hand if card not in playable], names, tr)

    @staticmethod
    def card_choices(hand: list[str], legal: list[str], tr: Lang) -> tuple[list[Choice], list[Menu]]:
        """One button per card (greyed when not playable); a joker lead becomes "🃏 as ♠" … choices.

        The two jokers are interchangeable, so a lead offers the suits of one joker only.
        """
        allowed = set(legal)
        choices = []
        named_joker = False
        for card in hand:
            named = [a for a in legal if a.startswith(f"play:{card}:")]
            if named and named_joker:
                continue
            if named:
                named_joker = True
                choices += [Choice(a, tr("saizen.prompt.joker_as", suit=SUIT[a[-1]])) for a in named]
            else:
                action = f"play:{card}"
                choices.append(Choice(action if action in allowed else None, cards.label(card)))
        return fit(choices, tr("saizen.prompt.more_cards"))

    @staticmethod
    def chip_choices(
        legal: list[str], rule_cards: dict[str, Any], tr: Lang
    ) -> tuple[list[Choice], list[Menu]]:
        """Pass, then every chip still movable ("♠ 大 high → 小 low"); all of them as a select if too many."""
        chips = []
        for action in legal:
            if not action.startswith("chip:"):
                continue
            _, suit, switch = action.split(":")
            old = rule_cards[suit][switch]["side"]
            new = next(side for side in SIDES[switch] if side != old)
            label = tr(
                "saizen.prompt.chip_button", suit=SUIT[suit], old=side_tag(tr, old), new=side_tag(tr, new)
            )
            chips.append(Choice(action, label))
        passing = Choice("pass", tr("saizen.action.pass"), style="secondary")
        if 1 + len(chips) <= MAX_BUTTONS:
            return [passing, *chips], []
        return [passing], [Menu(tr("saizen.prompt.chip_menu"), chips)]

    # ---- the public record -------------------------------------------------------------------
    def record(self, events: list[Event], public: dict[str, Any], names: list[str], tr: Lang) -> list[str]:
        lines: list[str] = []
        passes: list[str] = []
        records = trick_records(events, public)
        for index, event in enumerate(events):
            code, data = event.code, event.data
            if code == "game_ended":
                passes = []  # the sets pass after the last round too, but nothing follows: say nothing
            elif code != "hand_passed" and passes:
                lines.append(tr("saizen.event.hands_passed", passes=" · ".join(passes)))
                passes = []
            if code in TRICK_ENDS:
                lines.append(self.finished_trick(tr, event, records.get(index), names))
            elif code == "hand_passed":
                cards_passed = tr("saizen.count.cards", count=data["count"])
                player, target = names[data["seat"]], names[data["target"]]
                passes.append(tr(code_key(code), player=player, target=target, cards=cards_passed))
            elif code == "round_ended":
                tricks = " · ".join(f"{names[s]} {n}" for s, n in enumerate(data["tricks"]))
                lines.append(tr(code_key(code), round=data["round"], tricks=tricks))
            elif code == "game_ended":
                scores = " · ".join(
                    f"{name} {' + '.join(str(r[s]) for r in public['round_tricks'])} = {public['scores'][s]}"
                    for s, name in enumerate(names)
                )
                lines.append(tr(code_key(code), scores=scores))
            elif code == "chip_moved":
                lines.append(
                    tr(
                        code_key(code),
                        player=names[data["seat"]],
                        suit=SUIT[data["suit"]],
                        switch=tr(f"saizen.switch_name.{data['switch']}"),
                        side=side_tag(tr, data["side"]),
                    )
                )
            elif code in ("round_started", "chip_passed"):
                lines.append(tr(code_key(code), round=data.get("round"), player=names[data["seat"]]))
            elif code == "chips_exhausted":
                lines.append(tr(code_key(code), round=data["round"]))
        if passes:
            lines.append(tr("saizen.event.hands_passed", passes=" · ".join(passes)))
        return lines

    def record_open(self, events: list[Event]) -> int:
        """The hands passed at a round's end make one line, drawn once the next event comes. So does
        a trick event stored before tricks carried their record: the round's end may bring it."""
        open_ = 0
        for event in reversed(events):
            if event.code != "hand_passed" and not (event.code in TRICK_ENDS and not event.data.get("record")):
                break
            open_ += 1
        return open_

    @staticmethod
    def finished_trick(tr: Lang, event: Event, record: dict[str, Any] | None, names: list[str]) -> str:
        if record is not None:
            return trick_line(tr, record, names)
        won = event.code == "trick_won"
        return tr(
            "saizen.event.trick_short",
            trick=event.data["trick"],
            cards=" ".join(cards.label(c) for c in event.data.get("cards", [])) or "…",
            result=f"**{names[event.data['seat']]}**" if won else tr("saizen.trick.no_winner"),
        )


def code_key(code: str) -> str:
    return f"saizen.event.{code}"


def trick_records(events: list[Event], public: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """Event index of each finished trick -> that trick's full record (plays with seats, playoffs).

    A trick event carries its record. Events stored before it did carry only the cards, and a
    trick's cards may have come in earlier batches of events, so for them the record comes from
    the ``round_ended`` event that follows a round's last trick, or else from the table's
    ``last_trick``; failing both, the line falls back to the cards.
    """
    found: dict[int, dict[str, Any]] = {}
    pending = None
    for index, event in enumerate(events):
        if event.code in TRICK_ENDS and event.data.get("record"):
            found[index] = event.data["record"]
            pending = None
        elif event.code in TRICK_ENDS:
            pending = index
        elif event.code == "round_ended" and pending is not None and event.data.get("last_trick"):
            found[pending] = event.data["last_trick"]
            pending = None
    last = public["last_trick"]
    if pending is not None and last and last["number"] == events[pending].data["trick"]:
        found[pending] = last
    return found
