"""Bitboard helpers and disc names for Othello de Torite (pure, no state).

A board is a set of 64-bit ints. Bit ``row * 8 + col`` is the square whose name is
``"abcdefgh"[col] + str(row + 1)``: a1 is the top-left corner, columns a-h run left to right and rows
1-8 run top to bottom, as in standard Othello notation.

The suit rule: a line of opponent discs flips only when the disc just placed and the first own disc
at the far end have different suits; a wild disc at the far end always qualifies. So for a red
placement the "anchors" are the player's discs that are blue or wild, for a blue placement those
that are red or wild. Because the run between a candidate square and its anchor is made only of
opponent discs, the anchor found by the fill below is always the *first* own disc on that line, so
the flood-fill move generator applies the rule exactly.
"""

from __future__ import annotations

# The discs: two suits (indices RED, BLUE), the wild starting discs, and the players' colours by seat.
RED, BLUE = 0, 1
SUIT_LETTERS = ("r", "b")
SUIT_NAMES = ("red", "blue")
WILD = "wild"
COLOURS = ("black", "white")
COLOUR_LETTERS = ("B", "W")

FULL = (1 << 64) - 1
FILE_A = 0x0101010101010101
FILE_H = FILE_A << 7
NOT_A = FULL ^ FILE_A
NOT_H = FULL ^ FILE_H

FILES = "abcdefgh"
SQUARE_NAMES = [FILES[i % 8] + str(i // 8 + 1) for i in range(64)]
SQUARE_INDEX = {name: i for i, name in enumerate(SQUARE_NAMES)}

# (shift, mask applied after the shift); positive = left shift (towards higher bits).
DIRECTIONS = (
    (1, NOT_A),  # east (towards h)
    (-1, NOT_H),  # west
    (8, FULL),  # south (towards row 8)
    (-8, FULL),  # north
    (9, NOT_A),  # south-east
    (7, NOT_H),  # south-west
    (-7, NOT_A),  # north-east
    (-9, NOT_H),  # north-west
)
_DELTAS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1))


def _rays() -> list[tuple[tuple[int, ...], ...]]:
    rays = []
    for sq in range(64):
        col, row = sq % 8, sq // 8
        per_sq = []
        for dc, dr in _DELTAS:
            ray = []
            c, r = col + dc, row + dr
            while 0 <= c < 8 and 0 <= r < 8:
                ray.append(1 << (r * 8 + c))
                c, r = c + dc, r + dr
            if len(ray) >= 2:  # a ray needs room for one flipped disc and an anchor
                per_sq.append(tuple(ray))
        rays.append(tuple(per_sq))
    return rays


RAYS = _rays()


def square_bits(mask: int) -> list[int]:
    """Indices of the set bits, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def names(mask: int) -> list[str]:
    """Square names of the set bits, in board order (a1, b1, ... h8)."""
    return [SQUARE_NAMES[i] for i in square_bits(mask)]


def moves(anchors: int, opp: int, empty: int) -> int:
    """Empty squares from which a line of opponent discs reaches one of ``anchors`` (dumb7fill)."""
    return _fill(anchors, opp, empty, DIRECTIONS)


def _fill(anchors: int, opp: int, empty: int, directions: tuple[tuple[int, int], ...]) -> int:
    result = 0
    for shift, mask in directions:
        om = opp & mask
        if shift > 0:
            x = (anchors << shift) & om
            x |= (x << shift) & om
            x |= (x << shift) & om
            x |= (x << shift) & om
            x |= (x << shift) & om
            x |= (x << shift) & om
            result |= (x << shift) & mask & empty
        else:
            s = -shift
            x = (anchors >> s) & om
            x |= (x >> s) & om
            x |= (x >> s) & om
            x |= (x >> s) & om
            x |= (x >> s) & om
            x |= (x >> s) & om
            result |= (x >> s) & mask & empty
    return result


# Both suits at once: the red placement's anchors in bits 0-63, the blue one's in bits 80-143 of
# one Python int. The 16 zero bits between the halves (wider than any shift) are cleared by every
# mask, so nothing leaks from one half to the other and one fill does both generations.
_HI = 80
_LO_MASK = FULL
_DIRECTIONS2 = tuple((shift, mask | (mask << _HI)) for shift, mask in DIRECTIONS)


def moves2(anchors_a: int, anchors_b: int, opp: int, empty: int) -> tuple[int, int]:
    """``(moves(anchors_a, opp, empty), moves(anchors_b, opp, empty))`` in a single fill."""
    anchors = anchors_a | (anchors_b << _HI)
    result = _fill(anchors, opp | (opp << _HI), empty | (empty << _HI), _DIRECTIONS2)
    return result & _LO_MASK, result >> _HI


def flips(sq: int, anchors: int, opp: int) -> int:
    """Discs flipped by placing at ``sq``: lines whose first own disc is one of ``anchors``."""
    flipped = 0
    for ray in RAYS[sq]:
        run = 0
        for bit in ray:
            if bit & opp:
                run |= bit
            else:
                if run and bit & anchors:
                    flipped |= run
                break  # an empty square or a non-qualifying own disc ends the line
    return flipped
