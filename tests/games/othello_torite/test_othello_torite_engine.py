"""Othello de Torite engine scenarios (RULINGS §5 and the seed).

Squares use standard Othello notation: columns a-h left to right, rows 1-8 top to bottom (a1 is the
top-left corner). Seat 0 is Black, seat 1 is White.
"""

from __future__ import annotations

import json
import random

import pytest

from bot.core.engine import IllegalAction
from cogs.othello_torite.engine import OthelloToriteEngine
from cogs.othello_torite.rules_board import SQUARE_INDEX, SQUARE_NAMES

BLACK, WHITE = 0, 1


def position(discs: dict[str, str], left=((15, 15), (15, 15)), marker: int = BLACK):
    """A fresh engine whose board is exactly ``discs`` at the start of a trick led by ``marker``.

    ``discs`` maps squares to a colour letter (B/W) plus a suit letter (r = red, b = blue, w = wild),
    e.g. ``{"b1": "Wr", "c1": "Bw"}``. ``left`` gives (red, blue) discs in hand per seat. Returns the
    engine and the events of the automatic passes (if any) before the first seat to act.
    """
    engine = OthelloToriteEngine(2, 7)
    engine.discs = [0, 0]
    engine.suits = [0, 0]
    engine.wild = 0
    for square, code in discs.items():
        bit = 1 << SQUARE_INDEX[square]
        engine.discs["BW".index(code[0])] |= bit
        if code[1] == "w":
            engine.wild |= bit
        else:
            engine.suits["rb".index(code[1])] |= bit
    engine.left = [list(left[0]), list(left[1])]
    engine.marker = marker
    engine.phase = "lead"
    engine.led = None
    engine.trick = []
    events = engine._advance()
    return engine, events


def codes(events) -> list[str]:
    return [e.code for e in events]


def square(engine: OthelloToriteEngine, name: str):
    col, row = "abcdefgh".index(name[0]), int(name[1]) - 1
    return engine.public_view()["board"][row][col]


def refused(engine: OthelloToriteEngine, seat: int, action: str) -> IllegalAction:
    before = json.dumps(engine.public_view(), sort_keys=True)
    with pytest.raises(IllegalAction) as info:
        engine.apply(seat, action)
    assert json.dumps(engine.public_view(), sort_keys=True) == before
    return info.value


# ---- set-up ----------------------------------------------------------------------------------


def test_start_position_wild_centre_full_hands_black_leads():
    engine = OthelloToriteEngine(2, 123)
    view = engine.public_view()
    assert square(engine, "d4") == {"colour": "white", "suit": "wild"}
    assert square(engine, "e5") == {"colour": "white", "suit": "wild"}
    assert square(engine, "d5") == {"colour": "black", "suit": "wild"}
    assert square(engine, "e4") == {"colour": "black", "suit": "wild"}
    assert view["board"][0][0] is None and sum(c is not None for row in view["board"] for c in row) == 4
    assert view["discs_left"] == [{"red": 15, "blue": 15}, {"red": 15, "blue": 15}]
    assert view["marker"] == BLACK and view["turn"] == BLACK and view["phase"] == "lead"
    assert engine.to_act() == [BLACK]
    # Black always has a legal first move: the four Othello openings, in either suit (wild anchors).
    assert sorted(engine.legal_actions(BLACK)) == sorted(
        f"place:{s}:{sq}" for s in "rb" for sq in ("c4", "d3", "e6", "f5")
    )
    assert engine.legal_actions(WHITE) == []
    assert engine.hidden_from(None) == set() and engine.hidden_from(WHITE) == set()


# ---- the suit condition per line ---------------------------------------------------------------


def test_same_suit_anchor_does_not_flip():
    engine, _ = position({"b1": "Wr", "c1": "Br", "h8": "Wb"})
    assert engine.legal_actions(BLACK) == ["place:b:a1"]
    err = refused(engine, BLACK, "place:r:a1")
    assert err.code == "same_suit_anchor" and err.params == {"square": "a1", "disc_suit": "red"}
    events = engine.apply(BLACK, "place:b:a1")
    assert events[0].code == "placed"
    assert events[0].data["flipped"] == ["b1"] and events[0].data["count"] == 1


def test_wild_anchor_flips_for_either_suit():
    engine, _ = position({"b1": "Wr", "c1": "Bw", "h8": "Wb"})
    assert sorted(engine.legal_actions(BLACK)) == ["place:b:a1", "place:r:a1"]
    engine.apply(BLACK, "place:r:a1")
    assert square(engine, "b1") == {"colour": "black", "suit": "red"}


def test_mixed_lines_only_qualifying_lines_flip_and_counts_add_up():
    discs = {
        "b1": "Wr", "c1": "Br",  # east: anchor red
        "a2": "Wb", "a3": "Wb", "a4": "Bb",  # south: anchor blue
        "b2": "Wr", "c3": "Bw",  # south-east: anchor wild
        "h8": "Wb",
    }  # fmt: skip
    engine, _ = position(discs)
    red = engine.apply(BLACK, "place:r:a1")[0].data
    assert red["flipped"] == ["a2", "b2", "a3"] and red["count"] == 3
    assert square(engine, "b1") == {"colour": "white", "suit": "red"}  # same-suit line untouched
    # flipped discs change colour, never suit
    assert square(engine, "a2") == {"colour": "black", "suit": "blue"}
    assert square(engine, "b2") == {"colour": "black", "suit": "red"}

    engine, _ = position(discs)
    blue = engine.apply(BLACK, "place:b:a1")[0].data
    assert blue["flipped"] == ["b1", "b2"] and blue["count"] == 2
    assert square(engine, "a2")["colour"] == "white" and square(engine, "a3")["colour"] == "white"


def test_far_end_is_the_first_own_disc_nothing_beyond_is_looked_at():
    # a1 (red) -> b1 c1 white, d1 black red (same suit: the line fails), e1 black blue is not reached.
    engine, _ = position({"b1": "Wb", "c1": "Wb", "d1": "Br", "e1": "Bb", "h8": "Wb"})
    assert "place:r:a1" not in engine.legal_actions(BLACK)
    assert refused(engine, BLACK, "place:r:a1").code == "same_suit_anchor"
    data = engine.apply(BLACK, "place:b:a1")[0].data
    assert data["flipped"] == ["b1", "c1"]


def test_placement_must_flip_and_square_must_be_empty():
    engine = OthelloToriteEngine(2, 1)
    assert refused(engine, BLACK, "place:r:a1").code == "no_flip"
    assert refused(engine, BLACK, "place:r:d4").code == "occupied"
    for bad in ("pass", "place:g:d3", "place:r:i9", "place:r", "play:r:d3"):
        assert refused(engine, BLACK, bad).code == "bad_action"
    assert refused(engine, WHITE, "place:r:d3").code == "not_your_turn"


# ---- following -------------------------------------------------------------------------------


def test_follower_must_follow_the_led_suit():
    engine = OthelloToriteEngine(2, 1)
    events = engine.apply(BLACK, "place:r:d3")
    assert events[0].data == {
        "seat": BLACK, "disc_suit": "red", "square": "d3", "flipped": ["d4"], "count": 1, "role": "lead",
    }  # fmt: skip
    view = engine.public_view()
    assert view["led_suit"] == "red" and view["turn"] == WHITE and view["phase"] == "follow"
    assert view["legal_squares"] == {"red": ["c3", "e3", "c5"], "blue": []}
    assert engine.legal_actions(WHITE) == ["place:r:c3", "place:r:e3", "place:r:c5"]
    err = refused(engine, WHITE, "place:b:c3")
    assert err.code == "must_follow" and err.params == {"disc_suit": "red"}


def test_follow_impossible_other_suit_and_leader_keeps_marker_whatever_the_flips():
    # Black leads red h8 (flips g8). White's only line is anchored on a red disc: no red placement,
    # so White may place blue, flipping 2 > 1, but the lead was not followed: Black keeps the marker.
    engine, _ = position({"g8": "Wr", "f8": "Bb", "b1": "Bb", "c1": "Bb", "d1": "Wr"})
    engine.apply(BLACK, "place:r:h8")
    assert engine.to_act() == [WHITE]
    assert engine.legal_actions(WHITE) == ["place:b:a1"]
    events = engine.apply(WHITE, "place:b:a1")
    assert codes(events)[:2] == ["placed", "marker_off_suit"]
    assert events[1].data["seat"] == BLACK
    assert events[1].data["lead_count"] == 1 and events[1].data["follow_count"] == 2
    # Black leads trick 2 (and, with no white disc in reach, has to pass; so does White: the end)
    assert codes(events)[2:] == ["passed", "passed", "end_both_stuck", "game_won"]
    assert events[2].data == {"seat": BLACK, "role": "lead", "reason": "no_placement"}
    assert engine.record_text() == "1. B:r:h8 W:b:a1 2. B:pass W:pass"


def test_follower_out_of_the_led_suit_plays_the_other():
    engine, _ = position({"d4": "Ww", "e5": "Ww", "d5": "Bw", "e4": "Bw"}, left=((15, 15), (0, 15)))
    engine.apply(BLACK, "place:r:d3")
    assert engine.legal_actions(WHITE) == ["place:b:c3", "place:b:e3", "place:b:c5"]
    assert refused(engine, WHITE, "place:r:c3").code == "no_discs_left"


# ---- the marker ------------------------------------------------------------------------------

CENTRE = {"d4": "Ww", "e5": "Ww", "d5": "Bw", "e4": "Bw"}  # keeps both players able to move
LEAD_ONE = {"f8": "Bb", "g8": "Wr"}  # Black red h8 flips 1
LEAD_TWO = {"e8": "Bb", "f8": "Wr", "g8": "Wr"}  # Black red h8 flips 2
FOLLOW_ONE = {"b1": "Bb", "c1": "Wb"}  # White red a1 flips 1
FOLLOW_TWO = {"b1": "Bb", "c1": "Bb", "d1": "Wb"}  # White red a1 flips 2


@pytest.mark.parametrize(
    "lead,follow,code,holder",
    [
        (LEAD_TWO, FOLLOW_ONE, "marker_more_flips", BLACK),
        (LEAD_ONE, FOLLOW_TWO, "marker_more_flips", WHITE),
        (LEAD_ONE, FOLLOW_ONE, "marker_tie", WHITE),  # a tie goes to the follower
    ],
)
def test_marker_when_the_suit_was_followed(lead, follow, code, holder):
    engine, _ = position({**CENTRE, **lead, **follow})
    lead_flips = engine.apply(BLACK, "place:r:h8")[0].data["flipped"]
    events = engine.apply(WHITE, "place:r:a1")
    assert codes(events) == ["placed", code]
    assert events[1].data == {
        "seat": holder, "lead_count": len(lead_flips), "follow_count": events[0].data["count"], "trick": 1,
    }  # fmt: skip
    view = engine.public_view()
    assert view["marker"] == holder and view["turn"] == holder and view["trick_number"] == 2
    assert view["phase"] == "lead" and view["trick"] == []
    assert view["highlight"] == {
        "trick": 1, "placed": ["h8", "a1"], "flipped": lead_flips + events[0].data["flipped"],
    }  # fmt: skip
    assert view["last_trick"]["marker"] == holder and view["last_trick"]["reason"] == code
    if holder == WHITE:  # White placed last and leads the next trick: two placements in a row
        assert engine.legal_actions(WHITE) and engine.legal_actions(BLACK) == []


# ---- passes ----------------------------------------------------------------------------------


def test_stuck_leader_passes_automatically_and_the_follower_takes_the_marker():
    # Black's only discs sit against the edge: no placement. White has f1 (blue) and h6 (blue).
    engine, events = position({"g1": "Bb", "h1": "Wr", "h7": "Bb", "h8": "Wr"})
    assert codes(events) == ["passed"]
    assert events[0].data == {"seat": BLACK, "role": "lead", "reason": "no_placement"}
    assert engine.to_act() == [WHITE] and engine.legal_actions(BLACK) == []
    view = engine.public_view()
    assert view["trick"] == [{"seat": BLACK, "role": "lead", "passed": True, "reason": "no_placement"}]
    assert view["led_suit"] is None
    assert sorted(engine.legal_actions(WHITE)) == ["place:b:f1", "place:b:h6"]
    events = engine.apply(WHITE, "place:b:f1")
    assert codes(events) == ["placed", "marker_pass"] and events[1].data["seat"] == WHITE
    assert engine.public_view()["marker"] == WHITE
    assert engine.to_act() == [WHITE]  # plays again, now as the leader
    assert engine.legal_actions(WHITE) == ["place:b:h6"]
    assert engine.record_text() == "1. B:pass W:b:f1"


def test_stuck_follower_passes_and_leader_keeps_marker_then_both_stuck_ends():
    engine, events = position({"g1": "Wr", "h1": "Bb", "h7": "Wr", "h8": "Bb"})
    assert events == [] and sorted(engine.legal_actions(BLACK)) == ["place:r:f1", "place:r:h6"]
    events = engine.apply(BLACK, "place:r:f1")
    assert codes(events) == ["placed", "passed", "marker_pass"]
    assert events[1].data == {"seat": WHITE, "role": "follow", "reason": "no_placement"}
    assert events[2].data["seat"] == BLACK
    assert engine.to_act() == [BLACK]
    events = engine.apply(BLACK, "place:r:h6")
    # White has no disc left on the board: White passes, Black leads again and is stuck too.
    assert codes(events) == [
        "placed",
        "passed",
        "marker_pass",
        "passed",
        "passed",
        "end_both_stuck",
        "game_won",
    ]
    assert [e.data["seat"] for e in events if e.code == "passed"] == [WHITE, BLACK, WHITE]
    assert engine.is_terminal() and engine.to_act() == []
    assert events[-1].data == {"seat": BLACK, "black": 6, "white": 0}
    res = engine.results()
    assert res["ranks"] == [1, 2] and res["scores"] == [6, 0] and res["winner"] == BLACK
    assert res["end_reason"] == "both_stuck"
    assert res["record"] == "1. B:r:f1 W:pass 2. B:r:h6 W:pass 3. B:pass W:pass"
    # the board image still highlights the last placement after the closing passes
    assert engine.public_view()["highlight"] == {"trick": 2, "placed": ["h6"], "flipped": ["h7"]}
    assert refused(engine, BLACK, "place:r:a1").code == "game_over"


def test_player_without_discs_passes():
    engine, events = position({"d4": "Ww", "e5": "Ww", "d5": "Bw", "e4": "Bw"}, left=((0, 0), (3, 3)))
    assert codes(events) == ["passed"] and events[0].data["reason"] == "no_discs"
    assert engine.to_act() == [WHITE] and len(engine.legal_actions(WHITE)) == 8  # either suit


def test_no_pass_action_while_a_placement_exists():
    engine = OthelloToriteEngine(2, 5)
    rng = random.Random(5)
    while not engine.is_terminal():
        seat = engine.to_act()[0]
        legal = engine.legal_actions(seat)
        assert legal and all(a.startswith("place:") for a in legal)
        engine.apply(seat, rng.choice(legal))


# ---- suits running out ---------------------------------------------------------------------------


def test_suit_exhaustion_only_the_other_suit_remains():
    engine, _ = position({"d4": "Ww", "e5": "Ww", "d5": "Bw", "e4": "Bw"}, left=((1, 2), (15, 15)))
    events = engine.apply(BLACK, "place:r:d3")
    assert codes(events) == ["placed", "suit_exhausted"]
    assert events[1].data == {"seat": BLACK, "disc_suit": "red"}
    assert engine.public_view()["discs_left"][BLACK] == {"red": 0, "blue": 2}
    engine.apply(WHITE, "place:r:c3")  # 1 flip against 1: tie, White leads
    engine.apply(WHITE, engine.legal_actions(WHITE)[0])  # a red lead
    assert engine.public_view()["led_suit"] == "red"
    legal = engine.legal_actions(BLACK)
    assert legal and all(a.startswith("place:b:") for a in legal)
    assert refused(engine, BLACK, "place:r:" + legal[0].split(":")[2]).code == "no_discs_left"


# ---- the end -------------------------------------------------------------------------------------


def test_all_discs_placed_ends_the_game_and_equal_counts_draw():
    engine, _ = position({"d4": "Ww", "e5": "Ww", "d5": "Bw", "e4": "Bw"}, left=((0, 1), (0, 1)))
    engine.apply(BLACK, "place:b:d3")
    events = engine.apply(WHITE, "place:b:c5")
    assert codes(events) == ["placed", "suit_exhausted", "marker_tie", "end_all_placed", "game_drawn"]
    assert events[-1].data == {"black": 3, "white": 3}
    res = engine.results()
    assert res["ranks"] == [1, 1] and res["scores"] == [3, 3] and res["winner"] is None
    assert res["end_reason"] == "all_placed" and engine.public_view()["phase"] == "over"


def test_last_disc_of_the_leader_ends_at_once_when_the_follower_has_none():
    engine, _ = position({"d4": "Ww", "e5": "Ww", "d5": "Bw", "e4": "Bw"}, left=((0, 1), (0, 0)))
    events = engine.apply(BLACK, "place:b:d3")
    assert codes(events) == ["placed", "suit_exhausted", "end_all_placed", "game_won"]
    assert events[-1].data == {"seat": BLACK, "black": 4, "white": 1}
    assert engine.results()["ranks"] == [1, 2]


def test_winner_is_the_colour_with_more_discs():
    for seed in range(20):
        engine = OthelloToriteEngine(2, seed)
        rng = random.Random(seed)
        while not engine.is_terminal():
            seat = engine.to_act()[0]
            engine.apply(seat, rng.choice(engine.legal_actions(seat)))
        board = engine.public_view()["board"]
        black = sum(1 for row in board for c in row if c and c["colour"] == "black")
        white = sum(1 for row in board for c in row if c and c["colour"] == "white")
        res = engine.results()
        assert res["scores"] == [black, white]
        expected = [1, 1] if black == white else ([1, 2] if black > white else [2, 1])
        assert res["ranks"] == expected


# ---- record and move generation ------------------------------------------------------------------


def random_game(seed: int) -> OthelloToriteEngine:
    engine = OthelloToriteEngine(2, seed)
    rng = random.Random(seed)
    while not engine.is_terminal():
        seat = engine.to_act()[0]
        engine.apply(seat, rng.choice(engine.legal_actions(seat)))
    return engine


def test_record_replays_the_game_including_automatic_passes():
    games = [random_game(seed) for seed in range(200)]
    with_pass = next(g for g in games if ":pass" in g.record_text())
    for engine in (games[0], with_pass):
        text = engine.results()["record"]
        assert text.startswith("1. B:")
        again = OthelloToriteEngine.from_record(text)
        assert again.public_view() == engine.public_view()
        assert again.results() == engine.results()
    tampered = with_pass.record_text().replace(":pass", "", 1)
    with pytest.raises(IllegalAction):
        OthelloToriteEngine.from_record(tampered)


def naive_legal(engine: OthelloToriteEngine, seat: int, suit: int) -> dict[str, list[str]]:
    """Square -> flipped squares, walking the board square by square (no bitboards)."""
    own, opp = engine.discs[seat], engine.discs[1 - seat]
    other = engine.suits[1 - suit] | engine.wild
    out = {}
    if engine.left[seat][suit] == 0:
        return out
    for sq in range(64):
        if (own | opp) >> sq & 1:
            continue
        col, row = sq % 8, sq // 8
        flipped = []
        for dc in (-1, 0, 1):
            for dr in (-1, 0, 1):
                if dc == dr == 0:
                    continue
                run, c, r = [], col + dc, row + dr
                while 0 <= c < 8 and 0 <= r < 8 and opp >> (r * 8 + c) & 1:
                    run.append(r * 8 + c)
                    c, r = c + dc, r + dr
                if run and 0 <= c < 8 and 0 <= r < 8 and own >> (r * 8 + c) & 1 and other >> (r * 8 + c) & 1:
                    flipped += run
        if flipped:
            out[SQUARE_NAMES[sq]] = sorted(SQUARE_NAMES[i] for i in flipped)
    return out


def test_bitboard_move_generation_matches_a_naive_board_walk():
    rng = random.Random(99)
    checked = 0
    for seed in range(15):
        engine = OthelloToriteEngine(2, seed)
        while not engine.is_terminal():
            for seat in (BLACK, WHITE):
                for suit in (0, 1):
                    expected = naive_legal(engine, seat, suit)
                    got = engine.placements(seat, suit)
                    assert sorted(SQUARE_NAMES[i] for i in range(64) if got >> i & 1) == sorted(expected)
                    for name, flipped in expected.items():
                        bits = engine.flipped_by(seat, suit, SQUARE_INDEX[name])
                        assert sorted(SQUARE_NAMES[i] for i in range(64) if bits >> i & 1) == flipped
                    checked += 1
                assert engine.placements_both(seat) == (
                    engine.placements(seat, 0),
                    engine.placements(seat, 1),
                )
            seat = engine.to_act()[0]
            engine.apply(seat, rng.choice(engine.legal_actions(seat)))
    assert checked > 1000


def test_clone_is_independent():
    engine = OthelloToriteEngine(2, 3)
    copy = engine.clone()
    copy.apply(BLACK, "place:r:d3")
    assert engine.public_view()["turn"] == BLACK and engine.history == []
    assert square(engine, "d3") is None and square(copy, "d3") == {"colour": "black", "suit": "red"}
