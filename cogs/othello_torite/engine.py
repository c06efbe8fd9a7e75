"""Othello de Torite (RULINGS §5): Othello with red/blue suited discs and a trick-taking lead marker.

Seat 0 plays Black and holds the marker first, seat 1 plays White. The only action is
``place:<suit>:<square>`` (suit ``r`` or ``b``, square ``a1``..``h8``, a1 top-left). Passes are never
chosen by a player: when the seat due to play has no legal placement the engine passes for it
(event ``passed``) and moves on, so ``to_act()`` only ever names a seat that can place a disc.
"""

from __future__ import annotations

import random
from typing import Any

from bot.core.engine import Engine, Event, IllegalAction

from . import views
from .rules_board import (
    BLUE,
    COLOUR_LETTERS,
    FULL,
    RED,
    SQUARE_INDEX,
    SQUARE_NAMES,
    SUIT_LETTERS,
    SUIT_NAMES,
    flips,
    moves,
    moves2,
    names,
    square_bits,
)

DISCS_PER_SUIT = 15

PHASE_LEAD, PHASE_FOLLOW, PHASE_OVER = "lead", "follow", "over"
END_ALL_PLACED, END_BOTH_STUCK = "all_placed", "both_stuck"

_START_WHITE = (1 << SQUARE_INDEX["d4"]) | (1 << SQUARE_INDEX["e5"])
_START_BLACK = (1 << SQUARE_INDEX["d5"]) | (1 << SQUARE_INDEX["e4"])


def action_for(suit: int, square: str) -> str:
    return f"place:{SUIT_LETTERS[suit]}:{square}"


_ACTIONS = tuple(tuple(action_for(suit, name) for name in SQUARE_NAMES) for suit in (RED, BLUE))
_PARSED = {action: (suit, sq) for suit in (RED, BLUE) for sq, action in enumerate(_ACTIONS[suit])}


def parse_action(action: str) -> tuple[int, int] | None:
    """``"place:r:d3"`` -> (suit index, square index), or None if malformed."""
    parts = action.split(":")
    if len(parts) != 3 or parts[0] != "place" or parts[1] not in SUIT_LETTERS:
        return None
    sq = SQUARE_INDEX.get(parts[2])
    if sq is None:
        return None
    return SUIT_LETTERS.index(parts[1]), sq


class OthelloToriteEngine(Engine):
    game_id = "othello_torite"
    min_players = 2
    max_players = 2

    # ---- state --------------------------------------------------------------------------------
    def setup(self) -> None:
        self.discs = [_START_BLACK, _START_WHITE]  # colour bitboards, index = seat
        self.suits = [0, 0]  # red / blue bitboards (independent of colour)
        self.wild = _START_BLACK | _START_WHITE
        self.left = [[DISCS_PER_SUIT, DISCS_PER_SUIT], [DISCS_PER_SUIT, DISCS_PER_SUIT]]
        self.marker = 0
        self.phase = PHASE_LEAD
        self.turn: int | None = None
        self.led: int | None = None
        self.trick: list[dict[str, Any]] = []
        self.last_trick: dict[str, Any] | None = None
        self.trick_number = 1
        self.record: list[str] = []
        self.end_reason: str | None = None
        self.recent: list[dict[str, Any]] = []  # placements of the latest trick that had any
        self.recent_trick = 0
        self._moves: tuple[int, int] | None = None  # cached (red squares, blue squares) for self.turn
        # The opening position always gives Black a legal move (d3, c4, f5, e6 against the wild
        # centre), so this never passes; it is kept so that any start position is handled.
        self.setup_events = self._advance()

    def clone(self) -> OthelloToriteEngine:
        """A cheap independent copy, for computer players that search positions."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.discs = list(self.discs)
        other.suits = list(self.suits)
        other.left = [list(self.left[0]), list(self.left[1])]
        other.trick = list(self.trick)
        other.record = list(self.record)
        other.recent = list(self.recent)
        other.history = list(self.history)
        other.options = dict(self.options)
        return other

    def determinize(self, seat: int, rng: random.Random) -> OthelloToriteEngine:
        """Perfect information: the position itself (the seed and generator, never used in play,
        replaced like every game's)."""
        return self.blind(self.clone(), seat, rng)

    # ---- what the seats see (views.py) ---------------------------------------------------------
    def public_view(self) -> dict[str, Any]:
        return views.public_view(self)

    def observation(self, seat: int) -> dict[str, Any]:
        return views.observation(self, seat)

    def hidden_from(self, seat: int | None) -> set[str]:
        return set()  # perfect information

    def results(self) -> dict[str, Any]:
        return views.results(self)

    def record_text(self) -> str:
        """The game so far, one numbered group per trick: ``1. B:r:d3 W:b:c4 2. W:pass B:r:f5``."""
        return views.record_text(self)

    # ---- move generation --------------------------------------------------------------------
    def placements(self, seat: int, suit: int) -> int:
        """Bitboard of squares where ``seat`` may legally place a ``suit`` disc (ignoring follow)."""
        if self.left[seat][suit] == 0:
            return 0
        own, opp = self.discs[seat], self.discs[1 - seat]
        anchors = own & (self.suits[1 - suit] | self.wild)
        return moves(anchors, opp, ~(own | opp) & FULL)

    def flipped_by(self, seat: int, suit: int, sq: int) -> int:
        """Bitboard of the discs a ``suit`` placement at square index ``sq`` would flip."""
        anchors = self.discs[seat] & (self.suits[1 - suit] | self.wild)
        return flips(sq, anchors, self.discs[1 - seat])

    def placements_both(self, seat: int) -> tuple[int, int]:
        """(red squares, blue squares) where ``seat`` may place (ignoring follow), in one fill."""
        own, opp = self.discs[seat], self.discs[1 - seat]
        red_anchors = own & (self.suits[BLUE] | self.wild) if self.left[seat][RED] else 0
        blue_anchors = own & (self.suits[RED] | self.wild) if self.left[seat][BLUE] else 0
        if not (red_anchors or blue_anchors):
            return 0, 0
        return moves2(red_anchors, blue_anchors, opp, ~(own | opp) & FULL)

    def _allowed(self, seat: int) -> tuple[int, int]:
        """(red squares, blue squares) the seat may use now, with the follow rule applied."""
        red, blue = self.placements_both(seat)
        if self.phase == PHASE_FOLLOW and self.led is not None:
            if self.led == RED and red:
                blue = 0
            elif self.led == BLUE and blue:
                red = 0
        return red, blue

    def legal_moves(self) -> tuple[int, int]:
        """(red squares, blue squares) bitboards for the seat to act; (0, 0) at the end."""
        if self.turn is None:
            return 0, 0
        if self._moves is None:
            self._moves = self._allowed(self.turn)
        return self._moves

    # ---- contract -----------------------------------------------------------------------------
    def to_act(self) -> list[int]:
        return [] if self.turn is None else [self.turn]

    def legal_actions(self, seat: int) -> list[str]:
        if seat != self.turn:
            return []
        red, blue = self.legal_moves()
        reds, blues = _ACTIONS
        return [reds[sq] for sq in square_bits(red)] + [blues[sq] for sq in square_bits(blue)]

    def explain_illegal(self, seat: int, action: str) -> IllegalAction:
        parsed = parse_action(action)
        if parsed is None:
            return IllegalAction("bad_action", action=action)
        suit, sq = parsed
        bit = 1 << sq
        if self.left[seat][suit] == 0:
            return IllegalAction("no_discs_left", disc_suit=SUIT_NAMES[suit])
        if (self.discs[0] | self.discs[1]) & bit:
            return IllegalAction("occupied", square=SQUARE_NAMES[sq])
        if self.phase == PHASE_FOLLOW and self.led is not None and suit != self.led:
            if self.placements(seat, self.led):
                return IllegalAction("must_follow", disc_suit=SUIT_NAMES[self.led])
        if not self.flipped_by(seat, suit, sq):
            if flips(sq, self.discs[seat], self.discs[1 - seat]):
                return IllegalAction("same_suit_anchor", square=SQUARE_NAMES[sq], disc_suit=SUIT_NAMES[suit])
            return IllegalAction("no_flip", square=SQUARE_NAMES[sq])
        return IllegalAction("illegal_action", action=action)

    def _apply(self, seat: int, action: str) -> list[Event]:
        parsed = parse_action(action)
        assert parsed is not None
        return self.place(seat, *parsed)

    def apply_fast(self, seat: int, action: str) -> None:
        self._place(seat, *_PARSED[action], report=False)
        self.history.append((seat, action))

    def place(self, seat: int, suit: int, sq: int) -> list[Event]:
        """Place a disc (already known to be legal) and run the game on to the next decision."""
        return self._place(seat, suit, sq, report=True)

    def _place(self, seat: int, suit: int, sq: int, report: bool) -> list[Event]:
        """``report`` False (search) skips the placement's events; the state is the same."""
        bit = 1 << sq
        flipped = self.flipped_by(seat, suit, sq)
        self.discs[seat] |= bit | flipped
        self.discs[1 - seat] &= ~flipped
        self.suits[suit] |= bit
        self.left[seat][suit] -= 1
        self._moves = None
        role = PHASE_LEAD if self.phase == PHASE_LEAD else PHASE_FOLLOW
        count = flipped.bit_count()
        square = SQUARE_NAMES[sq]
        # "flipped" is kept as a bitboard; views turn it into square names (see views.py)
        entry = {"seat": seat, "role": role, "suit": SUIT_NAMES[suit], "square": square, "flipped": flipped, "count": count}
        self.trick.append(entry)
        if self.recent_trick != self.trick_number:
            self.recent = []
            self.recent_trick = self.trick_number
        self.recent.append(entry)
        events = []
        if report:
            # The trick's number rides along, so the record names it however its events are batched.
            data = {"seat": seat, "disc_suit": SUIT_NAMES[suit], "square": square, "flipped": names(flipped)}
            events.append(Event("placed", {**data, "count": count, "role": role, "trick": self.trick_number}))
            if self.left[seat][suit] == 0:
                exhausted = {"seat": seat, "disc_suit": SUIT_NAMES[suit], "trick": self.trick_number}
                events.append(Event("suit_exhausted", exhausted))
        if role == PHASE_LEAD:
            self.led = suit
            self.phase = PHASE_FOLLOW
        else:
            events += self._end_trick()
        events += self._advance()
        return events

    # ---- trick flow ---------------------------------------------------------------------------
    def _advance(self) -> list[Event]:
        """Pass automatically for every seat that cannot place, until someone can act or the end."""
        events: list[Event] = []
        self.turn = None
        self._moves = None
        while self.phase != PHASE_OVER:
            if not any(self.left[0]) and not any(self.left[1]):
                events += self._finish(END_ALL_PLACED)
                break
            seat = self.marker if self.phase == PHASE_LEAD else 1 - self.marker
            allowed = self._allowed(seat)
            if allowed[0] or allowed[1]:
                self.turn = seat
                self._moves = allowed
                break
            reason = "no_discs" if not any(self.left[seat]) else "no_placement"
            events.append(
                Event("passed", {"seat": seat, "role": self.phase, "reason": reason, "trick": self.trick_number})
            )
            self.trick.append({"seat": seat, "role": self.phase, "passed": True, "reason": reason})
            if self.phase == PHASE_LEAD:
                self.phase = PHASE_FOLLOW  # the follower may then place either suit
            elif self.trick[0].get("passed"):
                events += self._finish(END_BOTH_STUCK)
            else:
                events += self._end_trick()
        return events

    def _end_trick(self) -> list[Event]:
        """Both players have placed or passed: move the marker and open the next trick."""
        lead, follow = self.trick
        leader, follower = lead["seat"], follow["seat"]
        if lead.get("passed"):
            winner, code = follower, "marker_pass"
        elif follow.get("passed"):
            winner, code = leader, "marker_pass"
        elif follow["suit"] != lead["suit"]:
            winner, code = leader, "marker_off_suit"
        elif lead["count"] > follow["count"]:
            winner, code = leader, "marker_more_flips"
        elif lead["count"] == follow["count"]:
            winner, code = follower, "marker_tie"
        else:
            winner, code = follower, "marker_more_flips"
        self.marker = winner
        self._close_trick(winner, code)
        return [
            Event(
                code,
                {
                    "seat": winner,
                    "lead_count": lead.get("count", 0),
                    "follow_count": follow.get("count", 0),
                    "trick": self.trick_number - 1,
                },
            )
        ]

    def _close_trick(self, marker: int | None, reason: str | None) -> None:
        tokens = []
        for entry in self.trick:
            letter = COLOUR_LETTERS[entry["seat"]]
            if entry.get("passed"):
                tokens.append(f"{letter}:pass")
            else:
                tokens.append(f"{letter}:{entry['suit'][0]}:{entry['square']}")
        if tokens:
            self.record.append(f"{self.trick_number}. " + " ".join(tokens))
        self.last_trick = {
            "number": self.trick_number,
            "led_suit": SUIT_NAMES[self.led] if self.led is not None else None,
            "entries": self.trick,
            "marker": marker,
            "reason": reason,
        }
        self.trick = []
        self.trick_number += 1
        self.led = None
        self.phase = PHASE_LEAD

    def _finish(self, reason: str) -> list[Event]:
        if self.trick:
            self._close_trick(None, reason)
        self.phase = PHASE_OVER
        self.turn = None
        self.end_reason = reason
        black, white = self.scores()
        events = [Event("end_" + reason, {})]
        if black == white:
            events.append(Event("game_drawn", {"black": black, "white": white}))
        else:
            winner = 0 if black > white else 1
            events.append(Event("game_won", {"seat": winner, "black": black, "white": white}))
        return events

    # ---- the score and the record ------------------------------------------------------------
    def scores(self) -> list[int]:
        return [self.discs[0].bit_count(), self.discs[1].bit_count()]

    @classmethod
    def from_record(cls, text: str, seed: int = 0) -> OthelloToriteEngine:
        """Rebuild a game from ``record_text()``; passes are automatic and checked, not applied."""
        engine = cls(2, seed, {})
        passes_seen = 0
        for token in text.split():
            if token.endswith("."):
                continue
            parts = token.split(":")
            seat = COLOUR_LETTERS.index(parts[0])
            if parts[1:] == ["pass"]:
                passes_seen += 1
                continue
            engine.apply(seat, "place:" + ":".join(parts[1:]))
        passes_made = sum(1 for t in engine.record_text().split() if t.endswith(":pass"))
        if passes_made != passes_seen:
            raise IllegalAction("record_mismatch", passes=passes_seen)
        return engine

    def is_terminal(self) -> bool:
        return self.phase == PHASE_OVER


    @classmethod
    def sample_configs(cls) -> list[tuple[int, dict[str, Any]]]:
        return [(2, {})]
