"""How Final Quest looks: the table embed and picture, the private prompt, the public record.

The table (embed and picture) is drawn from ``engine.public_view()`` only, so a hand, the centre
card or an asker-only rebuttal card can never reach the channel. A seat's own cards, the centre
card it left, and rebuttal cards shown to it alone come from ``engine.observation(seat)`` and
appear only in that seat's prompt (its DM or the ephemeral "My hand / Play" answer).
"""

from __future__ import annotations

from typing import Any

from bot.core.cards import rank_of
from bot.core.engine import Engine, Event
from bot.core.games import Choice, GameUI, Prompt, TableView, seat_label, stopped
from bot.core.i18n import Lang
from bot.core.results import MEDALS, Row
from cogs.final_quest.engine import (
    PHASE_ANSWER,
    PHASE_OVER,
    PHASE_REBUTTAL,
    REBUTTAL_ASKER,
    TEAM_SEATS,
    TEAMS,
    FinalQuestEngine,
)
from cogs.final_quest.image import render_table
from cogs.final_quest.texts import (
    TEAM_KEYS,
    TEAM_MARK,
    G,
    answer_word,
    fact_line,
    num,
    nums,
    own_words,
    private_line,
    question_text,
    result_line,
)

COLOURS = (0x2F7D4F, 0x4285F4, 0xF57C00)  # running, team A won, team B won
FIELD_MAX = 1024  # characters of an embed field


def hand_marks(hand: list[str], shown: set[str], tr: Lang) -> list[str]:
    """The hand's numbers, each card the table knows marked in words: a bare ``*`` inside the
    bold hand line paired up with the next one as Markdown and vanished."""
    return [tr(f"{G}.prompt.known_card", card=num(c)) if c in shown else num(c) for c in hand]


def answer_choices(tr: Lang) -> list[Choice]:
    """YES, NO, and a way to decline a question that YES or NO cannot answer: the ruling lets it
    lapse, and without the button a person would have to let the clock run out."""
    return [
        Choice("answer:yes", tr(f"{G}.action.answer_yes"), style="success"),
        Choice("answer:no", tr(f"{G}.action.answer_no"), style="danger"),
        Choice("decline", tr(f"{G}.action.decline"), style="secondary"),
    ]


class FinalQuestUI(GameUI):
    game_id = G
    engine = FinalQuestEngine
    channel_mode = "channel"
    rules_sections = ("goal", "turn", "final_quest", "speaking", "here", "options")

    def format_params(self, params: dict[str, Any], names: list[str]) -> dict[str, Any]:
        out = super().format_params(params, names)
        if isinstance(params.get("card"), str):
            out["card"] = num(params["card"])
        for key in ("cards", "options"):  # no language here: numbers apart, as cards are elsewhere
            if isinstance(params.get(key), list):
                out[key] = " ".join(str(c) if isinstance(c, int) else num(c) for c in params[key])
        return out

    def result_rows(self, result: dict[str, Any], names: list[str], tr: Lang) -> list[Row]:
        """One line per team: the winning pair first; a draw is one line."""
        if result.get("outcome") is None:  # a clock ended the table: places by seat
            return super().result_rows(result, names, tr)
        if result["outcome"] != "win":
            return [Row("", tr(f"{G}.result.draw"))]
        rows = []
        for team in sorted((0, 1), key=lambda t: t != result["winner_team"]):
            won = team == result["winner_team"]
            a, b = (f"**{names[s]}**" if won else names[s] for s in TEAM_SEATS[team])
            team_name = tr(f"{G}.team.{TEAM_KEYS[team]}")
            text = f"{TEAM_MARK[team]} {team_name}: {tr(f'{G}.view.pair', a=a, b=b)}"
            rows.append(Row(MEDALS[0] if won else MEDALS[1], text))
        return rows

    def end_lines(self, result: dict[str, Any], seat: int, names: list[str], tr: Lang) -> list[str]:
        """In a player's DM: whether their team won (the result block under it names the pairs)."""
        if result.get("outcome") is None:  # a clock ended the table: places by seat
            return super().end_lines(result, seat, names, tr)
        rows = self.result_rows(result, names, tr)
        if result["outcome"] != "win":
            return [rows[0].who]
        team = TEAMS[seat]
        key = "dm_won" if team == result["winner_team"] else "dm_lost"
        return [tr(f"{G}.result.{key}", team=f"{TEAM_MARK[team]} {tr(f'{G}.team.{TEAM_KEYS[team]}')}")]

    # ---- who may speak, who may press ---------------------------------------------------------
    def speakers(self, public: dict[str, Any]) -> set[int] | None:
        """Only the turn player talks in the channel (also while the asked seat answers)."""
        return set() if public["phase"] == PHASE_OVER else {public["turn_seat"]}

    def timeout_action(self, engine: Engine, seat: int) -> str | None:
        """A move for an absent player that reveals nothing by accident: end the turn once its
        action is done, else a truthful checked question or the first refuting card; a free
        question it was asked lapses (nobody answers it for the player)."""
        legal = engine.legal_actions(seat)
        for prefix in ("end", "askq:", "rebut:", "decline"):
            found = [a for a in legal if a.startswith(prefix)]
            if found:
                return found[0]
        return None

    def public_choices(self, public: dict[str, Any], names: list[str], tr: Lang) -> list[Choice]:
        """YES / NO on the table message; the engine refuses everyone but the asked seat."""
        if public["phase"] != PHASE_ANSWER:
            return []
        return answer_choices(tr)

    # ---- the public table ---------------------------------------------------------------------
    def table_view(self, public: dict[str, Any], names: list[str], tr: Lang) -> TableView:
        if stopped(public):
            public = {**public, "phase": PHASE_OVER}  # nobody is to play any more
        over = public["phase"] == PHASE_OVER
        cap = public["round_cap"]
        if over:
            title = tr(f"{G}.phase.over")
        elif cap:
            title = tr(f"{G}.view.title_cap", turn=public["turn"], round=public["round"], cap=cap)
        else:
            title = tr(f"{G}.view.title", turn=public["turn"], round=public["round"])
        colour = COLOURS[1 + public["winner_team"]] if public["winner_team"] is not None else COLOURS[0]
        view = TableView(title=title, colour=colour, image=render_table(public, names))
        view.description = "\n".join(self.status_lines(public, names, tr))
        for team, seats in enumerate(TEAM_SEATS):
            lines = [self.seat_line(public, seat, names, tr) for seat in seats]
            view.fields.append((f"{TEAM_MARK[team]} {tr(f'{G}.team.{TEAM_KEYS[team]}')}", "\n".join(lines)))
        facts = [fact_line(f, names, tr, public.get("said")) for f in public["facts"]]
        while len("\n".join(facts)) > FIELD_MAX:  # the newest facts matter most
            facts.pop(0)
        view.fields.append(
            (tr(f"{G}.facts", turn=public["facts_from_turn"]), "\n".join(facts) or tr(f"{G}.nothing_known"))
        )
        if public["shown_ever"]:
            view.fields.append((tr(f"{G}.view.shown_ever"), nums(public["shown_ever"], tr)))
        if over and public.get("final_hands"):
            hands = [
                tr(f"{G}.view.final_hand", mark=TEAM_MARK[TEAMS[s]], player=names[s], cards=nums(h, tr))
                for s, h in enumerate(public["final_hands"])
            ]
            hands.append(tr(f"{G}.view.final_centre", card=num(public["final_centre"])))
            view.fields.append((tr(f"{G}.view.final_hands"), "\n".join(hands)))
        if not over:
            view.mark(f"{G}.mark.turn")
        if public["winners"]:
            view.mark(f"{G}.mark.winner")
        if public["facts"]:
            view.mark(f"{G}.mark.fact_turn")
        view.mark(f"{G}.mark.picture")
        footer = [tr(f"{G}.option.rebuttal_{public['rebuttal_mode']}_short")]
        footer.append(tr(f"{G}.view.footer_talk") if not over else tr(f"{G}.view.footer_unlocked"))
        view.footer = " · ".join(footer)
        return view

    @staticmethod
    def status_lines(public: dict[str, Any], names: list[str], tr: Lang) -> list[str]:
        if public["phase"] == PHASE_OVER:
            lines = []  # who won is the platform's result block, just above
            hit = public["main_action"]
            if public["outcome"] == "win" and hit:
                lines.append(
                    tr(
                        f"{G}.view.winning_quest",
                        player=names[public["turn_seat"]],
                        target=names[hit["target"]],
                        cards=nums(hit["named"], tr),
                    )
                )
            return lines
        turn = names[public["turn_seat"]]
        lines = [tr(f"{G}.phase.turn", player=turn)]
        pending = public["pending"]
        asking = False  # the open question, shown once: not again as this turn's action
        if public["phase"] == PHASE_ANSWER:
            if public.get("talk") and pending.get("question") == "free":
                question = tr(f"{G}.phase.question", player=names[pending["asker"]], question=public["talk"])
                lines.append(question)
                asking = True
            lines.append(tr(f"{G}.phase.answer", target=names[pending["seat"]]))
        elif public["phase"] == PHASE_REBUTTAL:
            lines.append(tr(f"{G}.phase.rebuttal", target=names[pending["seat"]]))
        action = public["main_action"]
        if asking:
            pass
        elif action is None:
            lines.append(tr(f"{G}.main_action.none"))
        else:
            lines.append(FinalQuestUI.main_action_line(action, names, tr, public.get("said")))
        return lines

    @staticmethod
    def main_action_line(
        action: dict[str, Any], names: list[str], tr: Lang, said: dict[int, str] | None = None
    ) -> str:
        kind = action["kind"]
        if kind == "swap":
            return tr(f"{G}.main_action.swap")
        target = names[action["target"]]
        words = own_words(action, said or {}) if kind == "ask" else None
        if kind == "final_quest":
            text = tr(f"{G}.main_action.final_quest", target=target, cards=nums(action["named"], tr))
        elif words is not None:
            text = tr(f"{G}.main_action.question", target=target, question=words)
        elif kind == "ask":
            text = tr(f"{G}.main_action.ask", target=target)
        else:
            text = tr(f"{G}.main_action.question", target=target, question=question_text(action, tr))
        if "answer" in action:
            answer = tr(f"{G}.main_action.answered", answer=answer_word(action["answer"], tr))
            text = tr(f"{G}.main_action.with_answer", action=text, answer=answer)
        return text

    @staticmethod
    def seat_line(public: dict[str, Any], seat: int, names: list[str], tr: Lang) -> str:
        marks = ""
        if public["phase"] != PHASE_OVER and public["turn_seat"] == seat:
            marks = "▶ "
        elif seat in public["winners"]:
            marks = "🏆 "
        shown = public["public_cards"][seat]
        parts = [tr(f"{G}.view.cards", count=public["hand_counts"][seat])]
        if shown:
            parts.append(tr(f"{G}.view.known", cards=nums(shown, tr)))
        if public["swaps"][seat]:
            parts.append(tr(f"{G}.swaps", count=public["swaps"][seat]))
        player = seat_label(names, seat)
        return tr(f"{G}.view.seat_line", marks=marks, n=seat + 1, player=player, info=" · ".join(parts))

    # ---- the private prompt -------------------------------------------------------------------
    def onlooker(self, engine: Engine, seat: int, names: list[str], tr: Lang) -> Prompt:
        """The hand (the cards the table knows starred), and the rebuttal cards shown to the seat alone."""
        obs = engine.observation(seat)
        shown = set(obs["public_cards"][seat])
        view = self.held(engine, seat, obs["hand"], hand_marks(obs["hand"], shown, tr), names, tr)
        if shown:
            view.text += " " + tr(f"{G}.prompt.shown_mark")
        if obs["rebuttals_seen"]:
            seen = tr.join(tr(f"{G}.prompt.secret_card", card=num(c), player=names[s]) for c, s in obs["rebuttals_seen"].items())
            view.text += "\n" + tr(f"{G}.onlooker.secret_cards", player=names[seat], cards=seen)
        return view

    def prompt(self, engine: Engine, seat: int, names: list[str], tr: Lang) -> Prompt:
        assert isinstance(engine, FinalQuestEngine)
        obs = engine.observation(seat)
        lines = [self.hand_line(obs, tr)]
        lines.append(
            tr(
                f"{G}.prompt.seat",
                n=seat + 1,
                mark=TEAM_MARK[obs["team"]],
                team=tr(f"{G}.team.{TEAM_KEYS[obs['team']]}"),
                partner=names[obs["partner"]],
            )
        )
        if obs["centre_card"]:
            lines.append(tr(f"{G}.centre_known", card=num(obs["centre_card"])))
        if obs["rebuttals_seen"]:
            seen = tr.join(
                tr(f"{G}.prompt.secret_card", card=num(c), player=names[s])
                for c, s in obs["rebuttals_seen"].items()
            )
            lines.append(tr(f"{G}.prompt.secret_cards", cards=seen))
        private = [private_line(item, seat, names, tr) for item in obs["private"]]
        if private:
            lines.append(f"**{tr(f'{G}.private')}**")
            lines += [f"• {p}" for p in private]
        lines.append("")
        choices: list[Choice] = []
        phase, pending = obs["phase"], obs["pending"]
        if phase == PHASE_OVER:
            lines.append(result_line(obs, names, tr))
        elif phase == PHASE_ANSWER and pending["seat"] == seat:
            lines.append(tr(f"{G}.prompt.asked", player=names[pending["asker"]]))
            choices = answer_choices(tr)
        elif phase == PHASE_REBUTTAL and pending["seat"] == seat:
            lines.append(self.rebuttal_text(obs, names, tr))
            choices = [
                Choice(f"rebut:{rank_of(c)}", tr(f"{G}.action.rebut", card=num(c)))
                for c in obs["rebuttal_options"]
            ]
            choices.append(Choice("reveal", tr(f"{G}.action.reveal"), style="danger"))
        elif obs["turn_seat"] == seat and phase not in (PHASE_ANSWER, PHASE_REBUTTAL):
            lines += self.turn_lines(engine, seat, obs, names, tr)
            choices = self.turn_choices(engine, seat, obs, tr)
        else:
            lines += self.waiting_lines(obs, seat, names, tr)
        return Prompt("\n".join(lines).strip(), choices)

    def greyed(self, engine: Engine, seat: int, names: list[str], tr: Lang) -> list[str]:
        """After the turn's action the swaps are greyed; a card everyone knows cannot be shown again."""
        obs = engine.observation(seat)
        if obs["turn_seat"] != seat or obs["phase"] in (PHASE_ANSWER, PHASE_REBUTTAL):
            return []
        legal = set(engine.legal_actions(seat))
        actions = [f"{verb}:{rank_of(card)}" for verb in ("swap", "show") for card in obs["hand"]]
        reasons = self.refusals(engine, seat, [action for action in actions if action not in legal], names, tr)
        if "end" not in legal:
            reasons.append(tr(f"{G}.error.act_first"))
        return reasons

    @staticmethod
    def hand_line(obs: dict[str, Any], tr: Lang) -> str:
        shown = set(obs["public_cards"][obs["seat"]])
        line = tr(f"{G}.hand", cards=" · ".join(hand_marks(obs["hand"], shown, tr)))
        if shown:
            line += " " + tr(f"{G}.prompt.shown_mark")
        return line

    @staticmethod
    def rebuttal_text(obs: dict[str, Any], names: list[str], tr: Lang) -> str:
        pending = obs["pending"]
        asker = names[pending["asker"]]
        key = "rebut_asker" if obs["rebuttal_mode"] == REBUTTAL_ASKER else "rebut_public"
        return tr(f"{G}.prompt.{key}", player=asker, cards=nums(pending["named"], tr))

    @staticmethod
    def turn_lines(engine: Engine, seat: int, obs: dict[str, Any], names: list[str], tr: Lang) -> list[str]:
        action = obs["main_action"]
        if action is None:
            return [tr(f"{G}.prompt.your_turn")]
        lines = [tr(f"{G}.prompt.acted", action=FinalQuestUI.main_action_line(action, names, tr))]
        reason = engine.explain_illegal(seat, f"swap:{rank_of(obs['hand'][0])}")
        lines.append(tr(f"{G}.error.{reason.code}"))
        return lines

    @staticmethod
    def turn_choices(engine: Engine, seat: int, obs: dict[str, Any], tr: Lang) -> list[Choice]:
        legal = set(engine.legal_actions(seat))
        choices = []
        for verb in ("swap", "show"):
            for card in obs["hand"]:
                action = f"{verb}:{rank_of(card)}"
                label = tr(f"{G}.action.{verb}_card", card=num(card))
                choices.append(
                    Choice(
                        action if action in legal else None,
                        label,
                        style="secondary" if verb == "show" else "primary",
                    )
                )
        choices.append(Choice("end" if "end" in legal else None, tr(f"{G}.action.end"), style="success"))
        return choices

    @staticmethod
    def waiting_lines(obs: dict[str, Any], seat: int, names: list[str], tr: Lang) -> list[str]:
        pending = obs["pending"]
        turn = names[obs["turn_seat"]]
        if not pending:
            return [tr(f"{G}.prompt.waiting", player=turn)]
        kind = "wait_answer" if pending["kind"] == "answer" else "wait_rebuttal"
        if obs["turn_seat"] == seat:
            kind += "_you"
        return [tr(f"{G}.prompt.{kind}", target=names[pending["seat"]], player=turn)]

    # ---- the public record --------------------------------------------------------------------
    def record(self, events: list[Event], public: dict[str, Any], names: list[str], tr: Lang) -> list[str]:
        lines = []
        for event in events:
            data = event.data
            params: dict[str, Any] = {
                k: v for k, v in data.items() if k not in ("seat", "target", "card", "cards", "answer")
            }
            if "seat" in data:
                params["player"] = names[data["seat"]]
            if "target" in data:
                params["target"] = names[data["target"]]
            if "card" in data:
                params["card"] = num(data["card"])
            if "cards" in data:
                params["cards"] = nums(data["cards"], tr)
            if "answer" in data:
                params["answer"] = answer_word(data["answer"], tr)
            if "k" in data:
                params["count"] = data["k"]  # "at least 1 card", "at least 2 cards"
            text = tr(f"{G}.event.{event.code}", **params)
            lines.append(f"**{text}**" if event.code in ("final_quest_correct", "round_cap_draw") else text)
        return lines
