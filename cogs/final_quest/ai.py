"""The Final Quest computer player: deduction, not search.

It keeps every deal consistent with what its seat has seen (``deduction``), and on its turn:
- calls the Final Quest at once when it knows a hand for certain, and otherwise weighs every
  structured question and every Final Quest "probe" (a wrong Final Quest still makes the target
  show a card) by what it tells its team: the information (mutual information, in bits) about the
  target's hand, plus the chance of winning at once. Information about the next opponent's hand is
  worth most, as the partner plays before that opponent's partner can use it; information about
  the partner or the previous opponent is first of use to the next opponent;
- swaps with the centre when the next opponent could likely name its own hand (``hard``);
- never asks a free question, never shows a card, answers only what the engine checks, and
  declines a free question put to it (it cannot read one, and a random answer would be a lie);
- refutes a wrong Final Quest with the card that leaves its hand the most open.
``easy`` asks random structured questions and calls the Final Quest only when certain.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from typing import Any

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
REACH = 12  # hard: guesses less likely than 1 in this many are not feared
BLUFF = 0.05  # hard: how likely a Final Quest names a card of the asker's own
SWAP_RISK = 0.3  # hard: swap when the next opponent would name this seat's hand this often
PROBES = 24  # Final Quests weighed per target at most (each costs a pass over the target's hands)
CARDS = {m: tuple(numbers_of(m)) for m in range(1 << 13) if bin(m).count("1") <= 3}
LOG2 = {1: 0.0, 2: 1.0, 3: math.log2(3)}
NOT_HAND = {h: frozenset(HANDS) - {h} for h in HANDS}
for _question in SPECS:  # the answer tables, built once here rather than in the first move
    yes_hands(*_question)


def choose(engine: FinalQuestEngine, seat: int, level: str, budget_ms: int, rng: random.Random) -> str:
    """The action of ``seat``, which must be to act (the ``player`` of the registry)."""
    if engine.phase == PHASE_ANSWER:
        return "decline"  # only a free question waits for an answer: it cannot be read
    if engine.phase == PHASE_REBUTTAL:
        return rebuttal(engine, seat)
    if engine.main_action is not None:
        return "end"
    worlds = worlds_for(engine, seat)
    if level == "hard":
        worlds = read_final_quests(worlds, engine.public_facts(), seat)
    others = [(seat + step) % NUM_SEATS for step in (1, 2, 3)]
    odds = {t: hand_odds(worlds, t) for t in others}
    target, hand, p = max(((t, h, q) for t in others for h, q in odds[t].items()), key=lambda x: x[2])
    if p >= CERTAIN:
        return fq_action(target, numbers_of(hand))
    if level == "easy":
        t = rng.choice(others)
        question, params = rng.choice(SPECS)
        return askq_action(t, question, *params)
    threat = Threat(engine, seat, odds[others[0]], hard=level == "hard")
    if level == "hard" and threat.now(seat) >= SWAP_RISK > p:
        return swap(engine, seat)
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
        openness = openness_of(frozenset(threat.base[t])) if level == "hard" else None
        for named, win, shown, info in probes(odds[t], openness):
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
    """How likely the next opponent is to name a hand right on its turn, after a public fact.

    It knows its own hand (drawn from this seat's odds), the cards the table has seen in other
    hands, and the hands the public facts leave to each seat. ``normal`` fears only the hand the
    fact is about, and only once two or fewer remain; ``hard`` fears its best guess among every
    hand it could name (this seat's too), however many remain (down to 1 in ``REACH``).
    """

    def __init__(self, engine: FinalQuestEngine, seat: int, next_odds: dict[int, float], hard: bool) -> None:
        self.next = (seat + 1) % NUM_SEATS
        self.next_odds = next_odds
        self.reach = REACH if hard else 2
        facts = engine.public_facts()
        self.base: dict[int, list[int]] = {}
        for t in range(NUM_SEATS):
            known = 0
            for s in range(NUM_SEATS):
                if s != t:
                    known |= mask_of(engine.public_cards[s])
            self.base[t] = [h for h in public_hands(facts, t) if not h & known]
        targets = [t for t in range(NUM_SEATS) if t != self.next]
        # the best chance elsewhere, for each hand of the next opponent and each target a fact is about
        self.elsewhere = {
            t: {
                own: max([self.chance(self.base[x], own) for x in targets if x != t] or [0.0])
                for own in next_odds
            }
            if hard
            else dict.fromkeys(next_odds, 0.0)
            for t in targets
        }
        self.cache: dict[tuple[int, int], float] = {}

    def chance(self, hands: list[int], own: int) -> float:
        """1 / the number of ``hands`` the next opponent, holding ``own``, cannot rule out."""
        found = 0
        for h in hands:
            if not h & own:
                found += 1
                if found > self.reach:
                    return 0.0
        return 1 / found if found else 0.0

    def now(self, seat: int) -> float:
        """The chance the next opponent names ``seat``'s hand on its turn, as things stand."""
        return sum(p * self.chance(self.base[seat], own) for own, p in self.next_odds.items())

    def after(self, target: int, hands: frozenset[int]) -> float:
        if target == self.next:
            return 0.0  # it learns nothing about its own hand
        key = (target, id(hands))
        if key not in self.cache:
            left = [h for h in self.base[target] if h in hands]
            elsewhere = self.elsewhere[target]
            self.cache[key] = sum(
                p * max(self.chance(left, own), elsewhere[own]) for own, p in self.next_odds.items()
            )
        return self.cache[key]


def read_final_quests(
    worlds: dict[World, float], facts: list[dict[str, Any]], seat: int
) -> dict[World, float]:
    """A player rarely names its own cards in a Final Quest: worlds where one did (since its last
    swap) become much less likely, never impossible (a bluff stays possible)."""
    named = [0] * NUM_SEATS
    for fact in facts:
        actor = fact["seat"]
        if fact["kind"] == "swap":
            named[actor] = 0
        elif fact["kind"] == "final_quest" and actor != seat:
            named[actor] |= mask_of(fact["named"])
    if not any(named):
        return worlds
    return {w: p * BLUFF ** sum(1 for s in range(NUM_SEATS) if w[s] & named[s]) for w, p in worlds.items()}


def binary_entropy(p: float) -> float:
    if p <= 0.0 or p >= 1.0:
        return 0.0
    return -p * math.log2(p) - (1 - p) * math.log2(1 - p)


def probes(
    odds: dict[int, float], openness: dict[int, int] | None = None
) -> list[tuple[int, float, dict[int, float], float]]:
    """Each Final Quest worth trying on a hand with these ``odds``: (named cards, chance it is
    right, chance of each refuting card, information in bits that refutation gives).

    The target shows any unnamed card alike, or (``openness`` given: how many hands the table
    still allows with each card) refutes as this player does: with the card that tells least.
    """
    possible = 0
    for h in odds:
        possible |= h
    named_hands = [named for named in HANDS if named & possible == named]
    if len(named_hands) > PROBES:  # the likeliest: early on, they all tell about as much
        named_hands = sorted(named_hands, key=lambda h: (-odds.get(h, 0.0), h))[:PROBES]
    out = []
    for named in named_hands:
        win = odds.get(named, 0.0)
        shown: dict[int, float] = defaultdict(float)
        choice_bits = 0.0
        for h, p in odds.items():
            if h == named:
                continue
            cards = CARDS[h & ~named]
            if openness is not None:
                shown[max(cards, key=lambda n: (openness[n], -n))] += p
                continue
            for n in cards:
                shown[n] += p / len(cards)
            choice_bits += p * LOG2[len(cards)]
        outcome = -sum(q * math.log2(q) for q in (win, *shown.values()) if q > 0)
        out.append((named, win, shown, outcome - choice_bits))
    return out


def openness_of(hands: frozenset[int]) -> dict[int, int]:
    """For each card, how many of ``hands`` hold it: the refutation that tells least is the card
    most of the hands the table still allows hold."""
    return {n: sum(1 for h in hands if h & bit(n)) for n in range(1, 14)}


def swap(engine: FinalQuestEngine, seat: int) -> str:
    """Give the card the table is surest this seat holds."""
    possible = public_hands(engine.public_facts(), seat)
    count = {n: sum(1 for h in possible if h & bit(n)) for n in engine.hands[seat]}
    return f"swap:{max(engine.hands[seat], key=lambda n: (count[n], n))}"


def rebuttal(engine: FinalQuestEngine, seat: int) -> str:
    """The refuting card that leaves the most hands possible in the table's eyes."""
    named = mask_of(engine.pending["named"]) if engine.pending else 0
    allowed = openness_of(public_hands(engine.public_facts(), seat) - {named})
    return f"rebut:{max(engine.rebuttal_numbers(), key=lambda n: (allowed[n], -n))}"


register(FinalQuestEngine.game_id, GameAI(player=choose))
