"""How Othello de Torite looks: the board picture, the table embed, the DM menus and the record.

The table (embed and picture) is drawn from ``engine.public_view()`` only. The game has no hidden
information, but keeping to the public view means the table never depends on whose DM is open.
"""

from __future__ import annotations

import re
from typing import Any

from bot.core.engine import Engine, Event
from bot.core.games import Choice, GameUI, Menu, Prompt, TableView, seat_label, stopped
from bot.core.i18n import Lang
from cogs.othello_torite.engine import SUIT_NAMES, OthelloToriteEngine, action_for, parse_action
from cogs.othello_torite.image import render_board
from cogs.othello_torite.rules_board import SQUARE_INDEX

G = "othello_torite"
DISC = ("⚫", "⚪")
MARK = {"red": "🔴", "blue": "🔵"}
MARKER_CODES = ("marker_more_flips", "marker_tie", "marker_off_suit", "marker_pass")
END_CODES = ("end_all_placed", "end_both_stuck")
PART_CODES = ("placed", "passed", "suit_exhausted")  # the events that make up a trick's line


def suit_word(suit: str, tr: Lang) -> str:
    return tr(f"{G}.suit.{suit}")


def colour_word(public: dict[str, Any], seat: int, tr: Lang) -> str:
    return tr(f"{G}.colour.{public['colours'][seat]}")


def result_text(public: dict[str, Any], names: list[str], tr: Lang) -> str:
    black, white = public["scores"]
    if black == white:
        return tr(f"{G}.view.drawn", black=black, white=white)
    seat = 0 if black > white else 1
    return tr(f"{G}.view.won", disc=DISC[seat], player=names[seat], black=black, white=white)


def record_lines(record: str) -> str:
    """The game record with one trick per line, so it reads on a phone without scrolling sideways."""
    return re.sub(r" (?=\d+\. )", "\n", record)


def entry_text(entry: dict[str, Any], names: list[str], tr: Lang) -> str:
    """One placement or pass of a trick, from the public view's trick entries."""
    seat = entry["seat"]
    if entry.get("passed"):
        reason = tr(f"{G}.pass_reason.{entry['reason']}")
        return tr(f"{G}.part.passed", disc=DISC[seat], player=names[seat], reason=reason)
    return tr(
        f"{G}.part.placed",
        disc=DISC[seat],
        player=names[seat],
        mark=MARK[entry["suit"]],
        square=entry["square"],
        count=entry["count"],
    )


def marker_text(code: str, seat: int, lead: int, follow: int, names: list[str], tr: Lang) -> str:
    """Who took the marker and why (``code`` is one of the engine's ``marker_*`` events)."""
    return tr(
        f"{G}.event.{code}",
        player=names[seat],
        lead_count=lead,
        follow_count=follow,
        more=max(lead, follow),
        less=min(lead, follow),
    )


class OthelloToriteUI(GameUI):
    game_id = G
    engine = OthelloToriteEngine
    rules_sections = ("goal", "placing", "tricks", "marker", "end", "here")

    # ---- the public table ---------------------------------------------------------------------
    def table_view(self, public: dict[str, Any], names: list[str], tr: Lang) -> TableView:
        over = public["phase"] == "over" or stopped(public)
        title = (
            tr(f"{G}.view.game_over") if over else tr(f"{G}.view.trick_title", number=public["trick_number"])
        )
        view = TableView(title=title, image=render_board(public, None if not over else {}))
        if not over:
            view.mark(f"{G}.mark.turn")
            view.mark(f"{G}.mark.marker")
        view.mark(f"{G}.mark.suits")
        view.mark(f"{G}.mark.picture")
        if not over:
            view.mark(f"{G}.mark.hints")
        if stopped(public):
            public = {**public, "phase": "over"}  # nobody is to play any more
        lines = [self.seat_line(public, seat, names, tr) for seat in (0, 1)]
        if over:
            lines += ["", f"**{tr(f'{G}.view.record')}**", f"```\n{record_lines(public['record'])}\n```"]
            lines.append(tr(f"{G}.view.record_help"))
        else:
            view.fields.append(
                (tr(f"{G}.view.trick", number=public["trick_number"]), self.trick_text(public, names, tr))
            )
        last = public["last_trick"]
        if last:
            text = " · ".join(entry_text(e, names, tr) for e in last["entries"])
            if last["marker"] is not None:
                text += "\n→ " + self.outcome(last["reason"], last["marker"], last["entries"], names, tr)
            view.fields.append((tr(f"{G}.view.last_trick", number=last["number"]), text))
        view.description = "\n".join(lines)
        return view

    @staticmethod
    def seat_line(public: dict[str, Any], seat: int, names: list[str], tr: Lang) -> str:
        left = public["discs_left"][seat]
        holds = public["marker"] == seat and public["phase"] != "over"
        return tr(
            f"{G}.view.seat_line",
            turn=tr(f"{G}.view.turn_mark") if public["turn"] == seat and public["phase"] != "over" else "",
            disc=DISC[seat],
            player=seat_label(names, seat),
            colour=colour_word(public, seat, tr),
            count=public["scores"][seat],
            red=left["red"],
            blue=left["blue"],
            marker=tr(f"{G}.view.marker_mark") if holds else "",
        )

    @staticmethod
    def trick_text(public: dict[str, Any], names: list[str], tr: Lang) -> str:
        leader = public["marker"]
        follower = 1 - leader
        trick = public["trick"]
        lines = [entry_text(e, names, tr) for e in trick]
        led = public["led_suit"]

        def who(seat: int, n: str = "") -> dict[str, str]:
            return {f"disc{n}": DISC[seat], f"player{n}": names[seat]}

        if led:
            lines.insert(0, tr(f"{G}.view.led", mark=MARK[led], disc_suit=suit_word(led, tr)))
            lines.append(tr(f"{G}.view.follows", **who(follower), mark=MARK[led], disc_suit=suit_word(led, tr)))
        elif trick:  # the leader passed
            lines.append(tr(f"{G}.view.leader_passed", **who(leader), **who(follower, "2")))
        else:
            lines.append(tr(f"{G}.view.leads", **who(leader)))
        return "\n".join(lines)

    @staticmethod
    def outcome(code: str, seat: int, entries: list[dict[str, Any]], names: list[str], tr: Lang) -> str:
        counts = [e.get("count", 0) for e in entries] + [0, 0]
        return marker_text(code, seat, counts[0], counts[1], names, tr)

    def score_text(self, score: int, tr: Lang) -> str:
        return tr(f"{G}.view.discs", count=score)

    # ---- the private prompt -------------------------------------------------------------------
    def onlooker(self, engine: Engine, seat: int, names: list[str], tr: Lang) -> Prompt:
        """No hidden disc: the seat's colour, its discs on the board and left, and the marker."""
        obs = engine.observation(seat)
        left = obs["discs_left"][seat]
        lines = [tr(f"{G}.onlooker.status", player=names[seat], disc=DISC[seat], colour=colour_word(obs, seat, tr),
                    count=obs["scores"][seat], red=left["red"], blue=left["blue"])]
        if obs["phase"] != "over" and obs["marker"] == seat:
            lines.append(tr(f"{G}.prompt.marker_other", player=names[seat]))
        return Prompt("\n".join(lines))

    def prompt(self, engine: Engine, seat: int, names: list[str], tr: Lang) -> Prompt:
        assert isinstance(engine, OthelloToriteEngine)
        obs = engine.observation(seat)
        left = obs["discs_left"][seat]
        lines = [
            tr(
                f"{G}.prompt.status",
                disc=DISC[seat],
                colour=colour_word(obs, seat, tr),
                count=obs["scores"][seat],
                red=left["red"],
                blue=left["blue"],
            )
        ]
        mine = obs["turn"] == seat and obs["phase"] != "over"
        board = render_board(obs, hints=None if mine else {})  # only your own legal squares
        if obs["phase"] == "over":
            lines += [tr(f"{G}.prompt.game_over"), result_text(obs, names, tr)]
            return Prompt("\n".join(lines), image=board)
        marker = obs["marker"]
        if marker == seat:
            lines.append(tr(f"{G}.prompt.marker_you"))
        else:
            lines.append(tr(f"{G}.prompt.marker_other", player=names[marker]))
        if not mine:
            lines.append(tr(f"{G}.prompt.waiting", player=names[obs["turn"]]))
            return Prompt("\n".join(lines), image=board)
        lines += self.turn_lines(engine, seat, obs, names, tr)
        menus = []
        for suit, suit_name in enumerate(SUIT_NAMES):
            squares = obs["legal_squares"][suit_name]
            if not squares:
                reason = self.why_not(engine, seat, suit, tr)
                if reason:
                    lines.append(reason)
                continue
            choices = [
                Choice(
                    action_for(suit, sq),
                    tr(
                        f"{G}.prompt.option",
                        square=sq,
                        count=engine.flipped_by(seat, suit, SQUARE_INDEX[sq]).bit_count(),
                    ),
                )
                for sq in squares
            ]
            placeholder = tr(
                f"{G}.prompt.menu",
                mark=MARK[suit_name],
                disc_suit=suit_word(suit_name, tr),
                count=len(squares),
            )
            menus.append(Menu(placeholder, choices))
        lines.append(tr(f"{G}.prompt.board_marks"))
        return Prompt("\n".join(lines), menus=menus, image=board)

    @staticmethod
    def turn_lines(engine: Engine, seat: int, obs: dict[str, Any], names: list[str], tr: Lang) -> list[str]:
        number = obs["trick_number"]
        if obs["phase"] == "lead":
            return [tr(f"{G}.prompt.lead", number=number)]
        led = obs["led_suit"]
        leader = 1 - seat
        if led is None:
            return [tr(f"{G}.prompt.after_pass", number=number, player=names[leader])]
        lines = [
            tr(
                f"{G}.prompt.follow",
                number=number,
                player=names[leader],
                mark=MARK[led],
                disc_suit=suit_word(led, tr),
            )
        ]
        if obs["legal_squares"][led]:
            lines.append(tr(f"{G}.prompt.follow_must", mark=MARK[led], disc_suit=suit_word(led, tr)))
        else:
            other = SUIT_NAMES[1 - SUIT_NAMES.index(led)]
            lines.append(
                tr(
                    f"{G}.prompt.follow_cannot",
                    disc_suit=suit_word(led, tr),
                    mark=MARK[other],
                    other=suit_word(other, tr),
                )
            )
        return lines

    def greyed(self, engine: Engine, seat: int, names: list[str], tr: Lang) -> list[str]:
        """Why a suit has no menu: the suit led must be followed, no discs left, or nothing flips."""
        assert isinstance(engine, OthelloToriteEngine)
        if seat not in engine.to_act():
            return []  # waiting: nothing of theirs is refused, the turn lines say whose turn it is
        obs = engine.observation(seat)
        led = obs["led_suit"]
        reasons = []
        for suit, suit_name in enumerate(SUIT_NAMES):
            if obs["legal_squares"][suit_name]:
                continue
            reason = self.why_not(engine, seat, suit, tr)
            if reason is None and led is not None:
                reason = tr(f"{G}.error.must_follow", disc_suit=suit_word(led, tr))
            if reason:
                reasons.append(reason)
        return reasons

    @staticmethod
    def why_not(engine: OthelloToriteEngine, seat: int, suit: int, tr: Lang) -> str | None:
        """Why no square of ``suit`` is offered: out of discs or nothing flips (None: must follow,
        which the turn lines already say)."""
        if engine.left[seat][suit] == 0:
            return tr(f"{G}.error.no_discs_left", disc_suit=suit_word(SUIT_NAMES[suit], tr))
        if engine.placements(seat, suit):
            return None
        return tr(f"{G}.error.none_flip", disc_suit=suit_word(SUIT_NAMES[suit], tr))

    # ---- the public record --------------------------------------------------------------------
    def record(self, events: list[Event], public: dict[str, Any], names: list[str], tr: Lang) -> list[str]:
        """One line per trick (a trick still open when the events end gets its own line)."""
        lines: list[str] = []
        parts: list[str] = []
        number = None  # the open trick's number, as its events carry it
        for event in events:
            data = event.data
            seat = data.get("seat")
            if event.code in PART_CODES and number is None:
                number = data.get("trick")
            if event.code == "placed":
                entry = {
                    "seat": seat,
                    "suit": data["disc_suit"],
                    "square": data["square"],
                    "count": data["count"],
                }
                parts.append(entry_text(entry, names, tr))
            elif event.code == "passed":
                parts.append(entry_text({"seat": seat, "passed": True, "reason": data["reason"]}, names, tr))
            elif event.code == "suit_exhausted":
                word, who = suit_word(data["disc_suit"], tr), data["seat"]
                parts.append(tr(f"{G}.part.exhausted", disc=DISC[who], player=names[who], disc_suit=word))
            elif event.code in MARKER_CODES:
                counts = data["lead_count"], data["follow_count"]
                outcome = marker_text(event.code, data["seat"], *counts, names, tr)
                lines.append(
                    tr(f"{G}.log.trick_done", number=data["trick"], parts=" · ".join(parts), outcome=outcome)
                )
                parts, number = [], None
            elif event.code in END_CODES:
                if parts:
                    if number is None:  # events stored before they carried their trick's number
                        number = (
                            public["last_trick"]["number"] if public["last_trick"] else public["trick_number"]
                        )
                    lines.append(tr(f"{G}.log.trick", number=number, parts=" · ".join(parts)))
                    parts, number = [], None
                lines.append(tr(f"{G}.event.{event.code}"))
        if parts:
            number = public["trick_number"] if number is None else number
            lines.append(tr(f"{G}.log.trick", number=number, parts=" · ".join(parts)))
        return lines

    def record_open(self, events: list[Event]) -> int:
        """A trick's placements and passes make one line, drawn once the trick or the game ends."""
        open_, parts = 0, False
        for event in reversed(events):
            if event.code in MARKER_CODES or event.code in END_CODES:
                break
            open_ += 1
            parts = parts or event.code in PART_CODES
        return open_ if parts else 0


def square_label(action: str, tr: Lang) -> str:
    """Autocomplete label of a legal action: ``d3 · 🔴 red``."""
    parsed = parse_action(action)
    if parsed is None:
        return action
    suit, sq = parsed
    name = SUIT_NAMES[suit]
    return f"{action.split(':')[2]} · {MARK[name]} {suit_word(name, tr)}"


def action_of(suit: str, square: str) -> str:
    """The engine action for a slash command's suit (``red``/``blue``) and square."""
    return action_for(SUIT_NAMES.index(suit), square)
