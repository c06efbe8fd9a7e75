"""Othello de Torite engine scenarios (RULINGS §5 and the seed): set-up, the suit condition,
following and the marker; passes, the end and the record are in test_othello_torite_engine_end.py.

Squares use standard Othello notation: columns a-h left to right, rows 1-8 top to bottom (a1 is the
top-left corner). Seat 0 is Black, seat 1 is White.
"""

from __future__ import annotations

import pytest

from cogs.othello_torite.engine import OthelloToriteEngine
from tests.support.engines import codes
from tests.support.othello_torite_engine import BLACK, WHITE, position, refused, square

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
        "trick": 1,
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
    assert events[2].data == {"seat": BLACK, "role": "lead", "reason": "no_placement", "trick": 2}
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
