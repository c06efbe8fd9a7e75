"""A cheap heuristic playout policy for Arsène: every seat plays towards a trick count.

What a deal decides is each seat's trick COUNT (t in 1..5 robs shop t; a shared count is a clash,
an empty shop means the police), not who wins which trick. Uniformly random playouts ignore this,
so a search built on them sees neither its own later play nor its opponents' as purposeful and
misjudges every move. Here each seat aims at the count worth most to it that it can still reach
(``target``), tries to win tricks while below it and ducks once there, and takes a won trick only
when that does not overshoot (else pushes it, when the rules allow). A small share of moves stays
random, so the playouts still cover what a real opponent might do.
"""

from __future__ import annotations

import random

from .engine import PHASE_PLAY, PHASE_PUSH, PLAY_ACTIONS, STRENGTH, ArseneEngine
from .rules_scoring import TOKEN_CAP

EPSILON = 0.3  # share of random moves: real opponents are no heuristic (0.1 did worse in search)
CLOSER = 0.3  # per extra trick needed: a nearer count is easier to hit
POLICE = -10.0  # a count that visits an empty shop with chips to lose
SHARED_WITH_DUMMY = 0.2  # a token, no chips


def count_value(engine: ArseneEngine, seat: int, count: int) -> float:
    """What ending the deal on ``count`` tricks is worth to ``seat``, others aside: the next chip
    group of shop ``count``; the police at an empty shop (nothing if two tokens buy the escape);
    nothing for 0 or 6+ tricks; little when the dummy (three players) already sits there."""
    if not 1 <= count <= 5:
        return 0.0
    h = engine.holdings
    groups = h.shops[count]
    if not groups:
        if h.tokens[seat] >= TOKEN_CAP and not h.exempt_used[seat]:
            return -0.5
        return POLICE if h.chips[seat] else -0.5
    if engine.has_dummy and engine.dummy_tricks == count:
        return SHARED_WITH_DUMMY
    return float(groups[0])


def target(engine: ArseneEngine, seat: int, left: int) -> int:
    """The trick count ``seat`` aims at: the best value among the counts it can still reach with
    ``left`` tricks to play, a nearer count preferred on small differences."""
    have = engine.tricks[seat]
    best, best_value = have, count_value(engine, seat, have)
    for count in range(have + 1, min(have + left, 6) + 1):
        value = count_value(engine, seat, count) - CLOSER * (count - have)
        if value > best_value:
            best, best_value = count, value
    return best


def tricks_left(engine: ArseneEngine) -> int:
    return engine.tricks_per_deal - engine.tricks_played


def wants_tricks(engine: ArseneEngine, seat: int) -> bool:
    """Whether ``seat`` is below its target with the current trick still to be won."""
    return engine.tricks[seat] < target(engine, seat, tricks_left(engine))


def policy(engine: ArseneEngine, seat: int, rng: random.Random) -> str:
    """The playout move of ``seat``: mostly the heuristic, sometimes a random legal move."""
    if engine.phase == PHASE_PLAY:
        if rng.random() < EPSILON:
            return random_card(engine, seat, rng)
        return PLAY_ACTIONS[card_to_play(engine, seat, wants_tricks(engine, seat))]
    if engine.phase == PHASE_PUSH:
        if rng.random() < EPSILON:
            return "take" if rng.random() < 0.5 else f"push:{engine.push_target}"
        return push_choice(engine, seat)
    legal = engine.legal_actions(seat)
    return legal[rng.randrange(len(legal))]


def push_choice(engine: ArseneEngine, seat: int) -> str:
    """Take the trick when one more trick does not pass the target; otherwise push it (the
    receiver then climbs, which also breaks a count it shared with the winner)."""
    left = tricks_left(engine)  # the trick on offer is still counted as unplayed
    if engine.tricks[seat] < target(engine, seat, left):
        return "take"
    return f"push:{engine.push_target}" if engine.push_target is not None else "take"


def random_card(engine: ArseneEngine, seat: int, rng: random.Random) -> str:
    """A uniformly random card the seat may play (following suit when it can)."""
    hand = engine.hands[seat]
    if engine.trick:
        led = engine.trick[0][1][0]
        follow = [c for c in hand if c[0] == led]
        if follow:
            return PLAY_ACTIONS[follow[rng.randrange(len(follow))]]
    return PLAY_ACTIONS[hand[rng.randrange(len(hand))]]


def card_to_play(engine: ArseneEngine, seat: int, want: bool) -> str:
    """The card: when wanting the trick, the cheapest card that wins it so far (the highest when
    others still play after), else a throw-away; when ducking, the highest card that loses, else
    the lowest. Leading: high to win, low to duck, trumps kept back when ducking."""
    hand = engine.hands[seat]
    trumps = bool(engine.trumps)
    trick = engine.trick
    if not trick:
        if want:
            return max(hand, key=lambda c: (STRENGTH[c], trumps and c[0] == "D"))
        return min(hand, key=lambda c: (trumps and c[0] == "D", STRENGTH[c]))
    led = trick[0][1][0]
    best_tier, best_rank = 0, 0
    for _, c in trick:
        tier = 2 if trumps and c[0] == "D" else 1 if c[0] == led else 0
        if tier > best_tier or (tier == best_tier and STRENGTH[c] > best_rank):
            best_tier, best_rank = tier, STRENGTH[c]
    follow = [c for c in hand if c[0] == led]
    cards = follow or hand
    winners: list[str] = []
    losers: list[str] = []
    for c in cards:
        tier = 2 if trumps and c[0] == "D" else 1 if c[0] == led else 0
        (winners if tier > best_tier or (tier == best_tier and STRENGTH[c] > best_rank) else losers).append(c)
    last = len(trick) == engine.num_players - 1
    if want:
        if winners:
            pick = min if last else max
            return pick(winners, key=STRENGTH.__getitem__)
        return min(losers, key=lambda c: (trumps and c[0] == "D", STRENGTH[c]))
    if losers:
        return max(losers, key=lambda c: (not (trumps and c[0] == "D"), STRENGTH[c]))
    return (max if last else min)(winners, key=STRENGTH.__getitem__)
