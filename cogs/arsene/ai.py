"""Computer play for Arsène: a whole-position evaluation and a fast playout policy for the search.

Chips at the end of one deal are a poor guide: shops empty, the police wait at empty shops and
tokens buy one escape, over several deals. So a position is valued by playing the rest of the game
out abstractly: each later deal is a trick count per seat, drawn from how tricks fall in real
play (winners at random, half of the allowed pushes made), scored by the rules of
``rules_scoring`` on compact tuples. The value is the seat's share of first place over many such futures. The futures are the same for every position (common random numbers), so two positions
are compared on equal terms, and values are cached by position: a deal's searches keep meeting the
same few outcomes.

``hard`` differs from ``normal`` in more than budget (``PLAYOUTS``, ``FUTURES_AT``): its playouts
follow the count-aiming heuristic of ``policy`` rather than random moves, and its values average
four times the futures, so its extra rounds are not spent confirming a noisy value.
"""

from __future__ import annotations

import random
from functools import lru_cache

from bot.ai import TARGET_SHARE, deal
from bot.ai.registry import GameAI, register

from .engine import DUMMY, PHASE_PLAY, PHASE_PUSH, ArseneEngine
from .policy import policy, random_card
from .rules_scoring import SHOP_GROUPS, TOKEN_CAP

FUTURES = 48  # abstract continuations per position
TABLE_SIZE = 4096  # sampled trick counts per player count
MAX_DEALS = 30  # an abstract future that has not ended by then is judged on chips
GROUPS = tuple(SHOP_GROUPS[s] for s in range(1, 6))
# Costs on the reference machine (``benchmarks/ai_calibration.py --only arsene`` fits them), in µs:
DET_US = 85.0  # one determinization
MOVE_US = 7.0  # one simulated move, random
POLICY_MOVE_US = 14.0  # one simulated move of the heuristic policy (``policy.policy``)
PLAYOUT_US = 70.0  # the fixed part of one playout: a copy of the state, its value found in the cache
KEY_US = 2000.0  # one evaluation of a position not valued yet


# ---- how tricks fall -------------------------------------------------------------------------
def deal_tricks(
    rng: random.Random, n: int, tricks: list[int], dummy: int | None, left: int
) -> tuple[list[int], int | None]:
    """Finish a deal abstractly: ``left`` tricks, each won by a random seat, pushed half the time
    when the rules allow a push (to the dummy when its count matches, else the first seat
    clockwise with the winner's count)."""
    tricks = list(tricks)
    for _ in range(left):
        w = rng.randrange(n)
        count = tricks[w]
        target: int | str | None = None  # a seat, or DUMMY
        if count >= 1:
            if dummy is not None and dummy == count:
                target = DUMMY
            else:
                for step in range(1, n):
                    if tricks[(w + step) % n] == count:
                        target = (w + step) % n
                        break
        if target is None or rng.random() < 0.5:
            tricks[w] += 1
        elif isinstance(target, int):
            tricks[target] += 1
        elif dummy is not None:  # target is DUMMY, which only a deal with a dummy has
            dummy += 1
    return tricks, dummy


@lru_cache(maxsize=2)
def trick_table(n: int) -> tuple:
    rng = random.Random(f"arsene-tricks-{n}")
    dummy = 1 if n == 3 else None
    left = 10 if n == 3 else 11
    rows = []
    for _ in range(TABLE_SIZE):
        tricks, d = deal_tricks(rng, n, [0] * n, dummy, left)
        rows.append((grouped(tricks), d))
    return tuple(rows)


def grouped(tricks: list[int] | tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The seats by trick count, fewest tricks first: the order the shops are settled in."""
    return tuple((c, tuple(s for s, t in enumerate(tricks) if t == c)) for c in sorted(set(tricks)))


# ---- scoring on compact holdings ----------------------------------------------------------------
def settle(
    taken: list[int],
    chips: list[int],
    tokens: list[int],
    exempt: list[bool],
    pool: int,
    groups: tuple[tuple[int, tuple[int, ...]], ...],
    dummy: int | None,
    contest: bool,
) -> tuple[int, bool]:
    """``rules_scoring.score_deal`` on lists (``taken[i]``: groups gone from shop i+1), for the
    seats ``grouped`` by trick count. Mutates the lists; returns (token pool, whether anyone was
    caught). A void deal (every seat caught) changes nothing."""
    if all(1 <= c <= 5 and taken[c - 1] == 3 for c, _ in groups) and not any(
        tokens[s] >= TOKEN_CAP and not exempt[s] for _, seats in groups for s in seats
    ):
        return pool, False
    caught = False
    for count, seats in groups:
        if not 1 <= count <= 5:
            if count == 0 and contest and len(seats) >= 2:
                _exchange(chips, seats)
            continue
        shop = count - 1
        if taken[shop] == 3:
            for s in seats:
                if tokens[s] >= TOKEN_CAP and not exempt[s]:
                    tokens[s] -= TOKEN_CAP
                    pool += TOKEN_CAP
                    exempt[s] = True
                else:
                    chips[s] = 0
                    caught = True
            if contest and len(seats) >= 2:
                _exchange(chips, seats)
            continue
        if len(seats) + (dummy == count) < 2:
            chips[seats[0]] += GROUPS[shop][taken[shop]]
            taken[shop] += 1
        elif contest:
            if len(seats) >= 2:
                _exchange(chips, seats)
        else:
            for s in seats:
                if tokens[s] < TOKEN_CAP and not exempt[s] and pool > 0:
                    tokens[s] += 1
                    pool -= 1
    return pool, caught


def _exchange(chips: list[int], seats: tuple[int, ...]) -> None:
    before = [chips[s] for s in seats]
    for i in range(len(seats)):
        chips[seats[(i + 1) % len(seats)]] = before[i]


# ---- the evaluation ---------------------------------------------------------------------------
def evaluate(engine: ArseneEngine, seat: int) -> float:
    """The seat's share of first place over abstract futures of the whole game (0..1)."""
    if engine.over:
        chips = engine.holdings.chips
        best = max(chips)
        return 1 / chips.count(best) if chips[seat] == best else 0.0
    return future_values(position_key(engine))[seat]


def position_key(engine: ArseneEngine) -> tuple:
    """Everything the rest of the game depends on, abstractly: holdings, this deal's trick counts."""
    h = engine.holdings
    taken = tuple(len(SHOP_GROUPS[s]) - len(h.shops[s]) for s in range(1, 6))
    tricks = list(engine.tricks)
    dummy = (engine.dummy_tricks or 1) if engine.has_dummy else None
    if engine.phase in (PHASE_PLAY, PHASE_PUSH):
        left = engine.tricks_per_deal - engine.tricks_played
        if engine.phase == PHASE_PUSH:  # count the trick on offer as taken
            assert engine.winner is not None  # a push is offered by the trick's winner
            tricks[engine.winner] += 1
            left -= 1
    else:
        left = engine.tricks_per_deal
    return (
        engine.num_players,
        engine.advanced,
        engine.contest,
        taken,
        tuple(h.chips),
        tuple(h.tokens),
        tuple(h.exempt_used),
        h.pool,
        tuple(tricks),
        dummy,
        left,
    )


@lru_cache(maxsize=65536)
def future_values(key: tuple, futures: int = FUTURES) -> tuple[float, ...]:
    """Each seat's share of first place over ``futures`` abstract continuations of ``key``."""
    n, advanced, contest0, taken0, chips0, tokens0, exempt0, pool0, tricks0, dummy0, left0 = key
    table = trick_table(n)
    rng = random.Random(12345)  # the same futures for every position
    values = [0.0] * n
    for _ in range(futures):
        taken, chips, tokens, exempt, pool = list(taken0), list(chips0), list(tokens0), list(exempt0), pool0
        tricks, dummy = deal_tricks(rng, n, list(tricks0), dummy0, left0)
        groups, contest = grouped(tricks), contest0
        for _deal in range(MAX_DEALS):
            pool, caught = settle(taken, chips, tokens, exempt, pool, groups, dummy, contest)
            if caught or all(t == 3 for t in taken):
                break
            contest = advanced and 3 in taken
            groups, dummy = table[rng.randrange(TABLE_SIZE)]
        best = max(chips)
        share = 1 / chips.count(best)
        for s in range(n):
            if chips[s] == best:
                values[s] += share
    return tuple(v / futures for v in values)


# ---- playouts -----------------------------------------------------------------------------------
def playout(engine: ArseneEngine, seat: int, rng: random.Random) -> str:
    """A uniformly random legal move, without building every action string."""
    if engine.phase == PHASE_PLAY:
        return random_card(engine, seat, rng)
    if engine.phase == PHASE_PUSH:
        return "take" if rng.random() < 0.5 else f"push:{engine.push_target}"
    legal = engine.legal_actions(seat)
    return legal[rng.randrange(len(legal))]


#: What sets ``hard`` apart besides its budget. It plays the deal out with the heuristic of
#: ``policy`` (seats aiming at trick counts), and values each position over four times the
#: futures: with 48, a value's error (about ±0.07 share of first place) is fixed per position, so
#: more rounds only found the same errors more surely. Each alone gained little in paired games
#: against ``normal``; together first places rose from about 0.35 to 0.46 (4p, 40 games each).
PLAYOUTS = {"normal": playout, "hard": policy}
FUTURES_AT = {"normal": FUTURES, "hard": 4 * FUTURES}


def choose(
    engine: ArseneEngine, seat: int, level: str, budget_ms: int, rng: random.Random, clock: Clock | None = None
) -> str:
    """Determinized Monte-Carlo: every legal move is tried on the same determinizations (so they
    are compared on equal terms), each played out to the end of the deal and valued by
    ``evaluate``, finished games included (first place, as the benchmarks count it).

    The work is counted on a virtual clock, never read from a real one, so the same seed gives the
    same move on any machine: each determinization, simulated move and evaluation is charged what
    it costs on the reference machine, and each position valued for the first time in this
    decision is charged a full valuation (``KEY_US``) as if the cache were cold, so a decision at
    the start of a deal, or in a fresh worker, keeps to the budget too. Rounds go on while the
    clock is under ``TARGET_SHARE`` of the budget (at least one round)."""
    legal = engine.legal_actions(seat)
    if len(legal) == 1:
        return legal[0]
    if level == "easy" or budget_ms <= 0:
        return rng.choice(legal)
    clock = clock or Clock(budget_ms * 1000 * TARGET_SHARE)
    simulate = PLAYOUTS.get(level, playout)
    clock.move_us = MOVE_US if simulate is playout else POLICY_MOVE_US
    clock.futures = FUTURES_AT.get(level, FUTURES)
    totals = [0.0] * len(legal)
    deal = engine.deal_no
    while clock.rounds == 0 or clock.left():
        clock.rounds += 1
        base = engine.determinize(seat, rng)
        for i, action in enumerate(legal):
            state = base.clone() if i < len(legal) - 1 else base
            state.apply_fast(seat, action)
            moves = 1
            while not state.over and state.deal_no == deal:
                actor = state.to_act()[0]
                state.apply_fast(actor, simulate(state, actor, rng))
                moves += 1
            totals[i] += clock.value(state, seat, moves)
    return legal[max(range(len(legal)), key=totals.__getitem__)]


class Clock:
    """The virtual clock of one decision: what it did, and so what it cost on the reference machine."""

    __slots__ = ("budget", "rounds", "moves", "move_us", "futures", "evaluations", "seen", "dealt_from")

    def __init__(self, budget_us: float) -> None:
        self.budget = budget_us
        self.rounds = 0  # determinizations
        self.moves = 0
        self.move_us = MOVE_US
        self.futures = FUTURES
        self.evaluations = 0
        self.seen: set[tuple] = set()  # positions valued in this decision
        self.dealt_from = deal.groups_checked  # the dealer's exact fallback is charged too

    def spent(self) -> float:
        key_us = KEY_US * self.futures / FUTURES  # a valuation costs in proportion to its futures
        return (
            DET_US * self.rounds
            + self.move_us * self.moves
            + PLAYOUT_US * self.evaluations
            + key_us * len(self.seen)
            + deal.GROUP_US * (deal.groups_checked - self.dealt_from)
        )

    def left(self) -> bool:
        return self.spent() < self.budget

    def value(self, state: ArseneEngine, seat: int, moves: int) -> float:
        """``evaluate(state, seat)``, counting the moves that led there and the valuation."""
        self.moves += moves
        self.evaluations += 1
        if state.over:
            return evaluate(state, seat)
        key = position_key(state)
        self.seen.add(key)
        return future_values(key, self.futures)[seat]


for _n in (3, 4):  # built once here rather than in the first move
    trick_table(_n)
register(ArseneEngine.game_id, GameAI(evaluate=evaluate, playout=playout, player=choose))
