"""The Final Quest computer player: deduction, not search.

It keeps every deal consistent with what its seat has seen (``deduction``), and on its turn:
- calls the Final Quest at once when it knows a hand for certain, and otherwise weighs every
  structured question and every Final Quest "probe" (a wrong Final Quest still makes the target
  show a card) by what it tells its team: the information (mutual information, in bits) about the
  target's hand, plus the chance of winning at once. Information about the next opponent's hand is
  worth most, as the partner plays before that opponent's partner can use it; information about
  the partner or the previous opponent is first of use to the next opponent;
- swaps with the centre when the table has nearly found its own hand (``hard``);
- never asks a free question, never shows a card, answers only what the engine checks, and
  declines a free question put to it (it cannot read one, and a random answer would be a lie);
- refutes a wrong Final Quest with the card that leaves its hand the most open.
``easy`` asks random structured questions and calls the Final Quest only when certain.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict

from bot.ai.registry import GameAI, register

from .deduction import (
    HANDS,
    NO,
    SHOWING,
    SPECS,
    World,
    hand_odds,
    mask_of,
    public_hands,
    worlds_for,
    yes_hands,
)
from .engine import (
    NUM_SEATS,
    PHASE_ANSWER,
    PHASE_REBUTTAL,
    REBUTTAL_ASKER,
    FinalQuestEngine,
    askq_action,
    fq_action,
)
from .search import bit, numbers_of

WIN_BITS = 8.0  # a win now, in bits of information (a whole hand is about 7 bits)
CERTAIN = 1 - 1e-9
# How much information about a seat's hand is worth, by its place after the asker:
# the next opponent, the partner, the previous opponent.
TARGET_WEIGHT = {1: 1.0, 2: 0.35, 3: 0.55}
LOSS_BITS = WIN_BITS  # the next opponent winning, in the same units
DANGER_HANDS = 2  # hard: swap when the table narrows its hand to this many
CARDS = {m: tuple(numbers_of(m)) for m in range(1 << 13) if bin(m).count("1") <= 3}
LOG2 = {1: 0.0, 2: 1.0, 3: math.log2(3)}
NOT_HAND = {h: frozenset(HANDS) - {h} for h in HANDS}


def choose(engine: FinalQuestEngine, seat: int, level: str, budget_ms: int, rng: random.Random) -> str:
    """The action of ``seat``, which must be to act (the ``player`` of the registry)."""
    if engine.phase == PHASE_ANSWER:
        return "decline"  # only a free question waits for an answer: it cannot be read
    if engine.phase == PHASE_REBUTTAL:
        return rebuttal(engine, seat)
    if engine.main_action is not None:
        return "end"
    worlds = worlds_for(engine, seat)
    others = [(seat + step) % NUM_SEATS for step in (1, 2, 3)]
    odds = {t: hand_odds(worlds, t) for t in others}
    target, hand, p = max(((t, h, q) for t in others for h, q in odds[t].items()), key=lambda x: x[2])
    if p >= CERTAIN:
        return fq_action(target, numbers_of(hand))
    if level == "easy":
        t = rng.choice(others)
        question, params = rng.choice(SPECS)
        return askq_action(t, question, *params)
    if level == "hard" and in_danger(engine, seat):
        return swap(engine, seat, worlds)
    threat = Threat(engine, seat, odds[others[0]])
    private = engine.rebuttal_mode == REBUTTAL_ASKER
    best_value, best = -math.inf, ""
    for step, t in enumerate(others, start=1):
        weight = TARGET_WEIGHT[step]
        for question, params in SPECS:
            yes = yes_hands(question, params)
            p_yes = sum(odds[t].get(h, 0.0) for h in yes)
            value = weight * binary_entropy(p_yes)
            if value <= best_value:
                continue
            value -= LOSS_BITS * (p_yes * threat.after(t, yes) + (1 - p_yes) * threat.after(t, NO[yes]))
            if value > best_value + 1e-9:
                best_value, best = value, askq_action(t, question, *params)
        for named, win, shown, info in probes(odds[t]):
            value = win * WIN_BITS + (1.0 if private else weight) * info
            if value <= best_value:
                continue
            if private:
                value -= LOSS_BITS * (1 - win) * threat.after(t, NOT_HAND[named])
            else:
                value -= LOSS_BITS * sum(q * threat.after(t, SHOWING[bit(n)]) for n, q in shown.items())
            if value > best_value + 1e-9:
                best_value, best = value, fq_action(t, numbers_of(named))
    return best


class Threat:
    """How likely the next opponent is to name a hand right on its turn after a public fact.

    It knows its own hand (drawn from this seat's odds), the cards the table has seen in other
    hands, and the hands the public facts leave to each seat; it calls when at most two remain.
    """

    def __init__(self, engine: FinalQuestEngine, seat: int, next_odds: dict[int, float]) -> None:
        self.next = (seat + 1) % NUM_SEATS
        self.next_odds = next_odds
        facts = engine.public_facts()
        self.base: dict[int, list[int]] = {}
        for t in range(NUM_SEATS):
            known = 0
            for s in range(NUM_SEATS):
                if s != t:
                    known |= mask_of(engine.public_cards[s])
            self.base[t] = [h for h in public_hands(facts, t) if not h & known]
        self.cache: dict[tuple[int, int], float] = {}

    def after(self, target: int, hands: frozenset[int]) -> float:
        if target == self.next:
            return 0.0  # it learns nothing about its own hand
        key = (target, id(hands))
        if key not in self.cache:
            left = [h for h in self.base[target] if h in hands]
            risk = 0.0
            for own, p in self.next_odds.items():
                found = 0
                for h in left:
                    if not h & own:
                        found += 1
                        if found > 2:
                            break
                if 0 < found <= 2:
                    risk += p / found
            self.cache[key] = risk
        return self.cache[key]


def binary_entropy(p: float) -> float:
    if p <= 0.0 or p >= 1.0:
        return 0.0
    return -p * math.log2(p) - (1 - p) * math.log2(1 - p)


def probes(odds: dict[int, float]) -> list[tuple[int, float, dict[int, float], float]]:
    """Each Final Quest worth trying on a hand with these ``odds``: (named cards, chance it is
    right, chance of each refuting card if the target shows any unnamed card, information in bits
    that refutation gives)."""
    possible = 0
    for h in odds:
        possible |= h
    out = []
    for named in HANDS:
        if named & possible != named:
            continue
        win = odds.get(named, 0.0)
        shown: dict[int, float] = defaultdict(float)
        choice_bits = 0.0
        for h, p in odds.items():
            if h == named:
                continue
            cards = CARDS[h & ~named]
            for n in cards:
                shown[n] += p / len(cards)
            choice_bits += p * LOG2[len(cards)]
        outcome = -sum(q * math.log2(q) for q in (win, *shown.values()) if q > 0)
        out.append((named, win, shown, outcome - choice_bits))
    return out


def in_danger(engine: FinalQuestEngine, seat: int) -> bool:
    """Whether the table has narrowed this seat's hand to a few possibilities."""
    if len(engine.hands[seat]) != 3:
        return False
    return len(public_hands(engine.public_facts(), seat)) <= DANGER_HANDS


def swap(engine: FinalQuestEngine, seat: int, worlds: dict[World, float]) -> str:
    """Give the card the table is surest this seat holds."""
    possible = public_hands(engine.public_facts(), seat)
    count = {n: sum(1 for h in possible if h & bit(n)) for n in engine.hands[seat]}
    return f"swap:{max(engine.hands[seat], key=lambda n: (count[n], n))}"


def rebuttal(engine: FinalQuestEngine, seat: int) -> str:
    """The refuting card that leaves the most hands possible in the table's eyes."""
    options = engine.rebuttal_numbers()
    possible = public_hands(engine.public_facts(), seat)
    named = mask_of(engine.pending["named"]) if engine.pending else 0
    possible = frozenset(h for h in possible if h != named)

    def openness(n: int) -> tuple[int, int]:
        return sum(1 for h in possible if h & bit(n)), -n

    return f"rebut:{max(options, key=openness)}"


register(FinalQuestEngine.game_id, GameAI(player=choose))
