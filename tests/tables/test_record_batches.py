"""The public record reads the same however the delivery worker batches the log, for every game.

A whole game is played (random legal moves, now and then a pause or a seat changing hands), its log
written as the table service writes it, one commit per move. The record is then drawn as the worker
draws it: after every commit, after random stretches of commits, with passes cut short after their
first message, or once at the end. Every way gives the same messages, byte for byte. (Arsène merged
a trick won and its taking into one line only when both reached the same pass, and Othello de
Torite split a trick in two when a pass fell inside it.)
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.core.engine import Engine, Event
from bot.core.games import GameUI
from bot.core.i18n import Lang
from bot.storage.store import Seat
from bot.tables.record_lines import draw, pack
from bot.tables.terms import was_seat
from cogs.arsene.engine import ArseneEngine
from cogs.arsene.render import ArseneUI
from cogs.donguri.engine import DonguriEngine
from cogs.donguri.render import DonguriUI
from cogs.final_quest.engine import FinalQuestEngine
from cogs.final_quest.render import FinalQuestUI
from cogs.othello_torite.engine import OthelloToriteEngine
from cogs.othello_torite.render import OthelloToriteUI
from cogs.saizen.engine import SaizenEngine
from cogs.saizen.render import SaizenUI

GAMES = [
    (ArseneEngine, ArseneUI()),
    (DonguriEngine, DonguriUI()),
    (FinalQuestEngine, FinalQuestUI()),
    (OthelloToriteEngine, OthelloToriteUI()),
    (SaizenEngine, SaizenUI()),
]
LIMIT = 1800
TR = Lang("en")


@dataclass
class Game:
    """A played game: its log rows as stored, and the seats and engine after each commit."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    commits: list[tuple[int, list[Seat], Engine]] = field(default_factory=list)  # (rows so far, seats, engine)


def play(cls: type[Engine], seed: int, notes: bool = True) -> Game:
    rng = random.Random(seed)
    n = rng.randint(cls.min_players, cls.max_players)
    engine = cls(n, seed, {})
    seats = [Seat(i, 100 + i, f"player{i}") for i in range(n)]
    game = Game()

    def commit(rows: list[tuple[str, str, dict[str, Any]]], deal: int) -> None:
        for kind, code, data in rows:
            game.rows.append({"seq": len(game.rows) + 1, "kind": kind, "code": code, "data": json.dumps(data), "deal": deal})
        game.commits.append((len(game.rows), [Seat(s.position, s.user_id, s.name, s.away) for s in seats], engine.clone()))

    while not engine.is_terminal():
        deal = engine.deal_number
        roll = rng.random() if notes else 1.0
        if roll < 0.02:
            commit([("note", "table_cmd.paused_note", {})], deal)
            continue
        if roll < 0.03:  # a seat changes hands, as ``/table replace`` or a timeout does
            position = rng.randrange(n)
            was = was_seat(seats[position])
            if rng.random() < 0.5:
                seats[position] = Seat(position, 900 + len(game.rows), f"newcomer{len(game.rows)}")
                commit([("note", "clock.seat_replaced", {"seat": position, "was": was})], deal)
            else:
                seats[position].away = not seats[position].away
                commit([("note", "clock.seat_taken_over", {"seat": position, "was": was})], deal)
            continue
        seat = rng.choice(engine.to_act())
        events = engine.apply(seat, rng.choice(engine.legal_actions(seat)))
        rows = [("event", e.code, e.data) for e in events]
        if roll < 0.06:  # a move a computer made for a player out of time
            rows.append(("note", "clock.computer_played", {"seat": seat}))
        if engine.is_terminal():
            rows.append(("final", "final", {}))
        commit(rows, deal)
    return game


def final_line(names: list[str]) -> str:
    return "🏁 " + " · ".join(names)


class Record:
    """The record's stored messages and position, brought forward pass by pass as the worker does."""

    def __init__(self, ui: GameUI) -> None:
        self.ui = ui
        self.messages: dict[int, dict[str, Any]] = {}
        self.recorded = 0

    def read(self, game: Game, upto: int, seats: list[Seat], engine: Engine) -> list[dict[str, Any]]:
        rows = [r for r in game.rows[:upto] if r["seq"] > self.recorded]
        units = draw(rows, self.ui, engine.public_view(), seats, TR, final_line)
        last = self.messages[max(self.messages)] if self.messages else None
        parts = pack(last, units, LIMIT)
        if units and parts:
            parts[-1].upto = units[-1].upto
        return units, parts

    def pass_(self, game: Game, commit: int, cut: bool = False) -> None:
        upto, seats, engine = game.commits[commit]
        units, parts = self.read(game, upto, seats, engine)
        if not parts:
            if units:
                self.recorded = units[-1].upto
            return
        for part in parts[:1] if cut else parts:
            self.messages[part.part] = {
                "part": part.part, "deal": part.deal, "lines": part.text, "closed": 0,
                "message_id": part.message_id or 10_000 + part.part,
            }
            if part.upto is not None:
                self.recorded = part.upto

    def texts(self) -> list[str]:
        return [self.messages[p]["lines"] for p in sorted(self.messages)]


def delivered(ui: GameUI, game: Game, when: str, rng: random.Random) -> list[str]:
    record = Record(ui)
    last = len(game.commits) - 1
    for commit in range(len(game.commits)):
        if when == "each" or (when == "random" and rng.random() < 0.3):
            record.pass_(game, commit)
        elif when == "cut" and rng.random() < 0.3:
            record.pass_(game, commit, cut=True)
    for _ in range(50):  # the passes after the end, until nothing is left (a cut pass leaves some)
        record.pass_(game, last)
    assert record.recorded == game.rows[-1]["seq"], "the whole log is recorded"
    return record.texts()


@pytest.mark.parametrize(("cls", "ui"), GAMES, ids=[cls.game_id for cls, _ in GAMES])
@pytest.mark.parametrize("seed", range(4))
def test_the_record_reads_the_same_however_its_passes_fall(cls, ui, seed):
    game = play(cls, seed)
    rng = random.Random(seed)
    at_once = delivered(ui, game, "end", rng)
    assert at_once and sum(len(t.splitlines()) for t in at_once) > 10
    assert all(len(text) <= LIMIT for text in at_once)
    assert delivered(ui, game, "each", rng) == at_once, "one pass per move"
    for _ in range(3):
        assert delivered(ui, game, "random", rng) == at_once, "passes over random stretches of moves"
        assert delivered(ui, game, "cut", rng) == at_once, "passes cut short after their first message"


@pytest.mark.parametrize(("cls", "ui"), GAMES, ids=[cls.game_id for cls, _ in GAMES])
def test_the_record_is_the_games_own_record_of_the_whole_log(cls, ui):
    """Drawn unit by unit, the lines are those the game draws from all its events at once: an
    Arsène trick won and its taking still make one line, an Othello trick one line."""
    game = play(cls, 7, notes=False)
    events = [Event(r["code"], json.loads(r["data"])) for r in game.rows if r["kind"] == "event"]
    _, seats, engine = game.commits[-1]
    names = [s.name for s in seats]
    whole = ui.record(events, engine.public_view(), names, TR) + [final_line(names)]
    shown = [line for text in delivered(ui, game, "each", random.Random(7)) for line in text.splitlines()]
    assert shown == whole


class Moves(GameUI):
    """A game whose record names who moved."""

    game_id = "moves"

    def record(self, events, public, names, tr):
        return [f"{names[e.data['seat']]} moved" for e in events]


def test_each_line_names_the_seats_as_they_were_when_it_was_logged():
    """A seat changing hands keeps, in its note, the seat as it was: lines before it name the
    player who made those moves, however late they are drawn (carol's seat went to alice)."""
    seats = [Seat(0, 10, "alice"), Seat(1, 11, "bob", away=True)]  # bob timed out for good, then left
    rows = [
        ("event", "moved", {"seat": 0}),
        ("event", "moved", {"seat": 1}),
        ("note", "clock.seat_taken_over", {"seat": 1, "was": was_seat(Seat(1, 11, "bob"))}),
        ("event", "moved", {"seat": 1}),
        ("note", "clock.seat_replaced", {"seat": 0, "was": was_seat(Seat(0, 12, "carol"))}),
        ("event", "moved", {"seat": 0}),
    ]
    log = [{"seq": i + 1, "kind": k, "code": c, "data": json.dumps(d), "deal": 1} for i, (k, c, d) in enumerate(rows)]
    units = draw(log, Moves(), {}, seats, TR, final_line)
    # The note says once that a computer plays bob's seat now; every line names the seat "bob".
    assert [line for unit in units for line in unit.lines] == [
        "carol moved",
        "bob moved",
        TR("clock.seat_taken_over", seat="bob"),
        "bob moved",
        "🔁 alice has taken over the seat.",
        "alice moved",
    ]
