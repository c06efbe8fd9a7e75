"""Othello de Torite engine scenarios for automatic passes, suits running out, the end of a game and its
record, and the move generator checked against a naive board walk."""

from __future__ import annotations

import random

import pytest

from bot.core.engine import IllegalAction
from cogs.othello_torite.engine import OthelloToriteEngine
from cogs.othello_torite.rules_board import SQUARE_INDEX, SQUARE_NAMES
from tests.support.engines import codes
from tests.support.othello_torite_engine import BLACK, WHITE, position, refused, square

# ---- passes ----------------------------------------------------------------------------------


def test_stuck_leader_passes_automatically_and_the_follower_takes_the_marker():
    # Black's only discs sit against the edge: no placement. White has f1 (blue) and h6 (blue).
    engine, events = position({"g1": "Bb", "h1": "Wr", "h7": "Bb", "h8": "Wr"})
    assert codes(events) == ["passed"]
    assert events[0].data == {"seat": BLACK, "role": "lead", "reason": "no_placement", "trick": 1}
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
    assert events[1].data == {"seat": WHITE, "role": "follow", "reason": "no_placement", "trick": 1}
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
    assert events[1].data == {"seat": BLACK, "disc_suit": "red", "trick": 1}
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
