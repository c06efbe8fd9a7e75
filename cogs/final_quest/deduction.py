"""What one Final Quest seat can deduce: every deal consistent with what it has seen.

A world is the four hands and the centre card, as 13-bit masks. The seat starts from every deal of
the ten cards it did not hold, then replays the record in order: answers and rebuttals keep the
worlds that agree, a show keeps the worlds where the card is in that hand, and a swap by another
seat splits each world three ways (which card went to the centre is that seat's secret, each
equally likely). Its own swaps and the asker-only rebuttals it received come from its private
record. Free questions are skipped: their words stay in Discord, so nothing checks them.

Everything here reads only ``public_facts()``, the seat's ``private_facts`` and its own hand.
"""

from __future__ import annotations

from collections import defaultdict
from functools import cache, lru_cache
from itertools import combinations
from typing import TYPE_CHECKING, Any

from .engine import NUM_SEATS, NUMBERS, QUESTIONS, question_answer
from .search import bit, numbers_of, swapped

if TYPE_CHECKING:
    from .engine import FinalQuestEngine

World = tuple[int, int, int, int, int]  # hand masks of seats 0..3, then the centre card's bit
FULL = (1 << 13) - 1


def mask_of(numbers: list[int] | tuple[int, ...] | set[int]) -> int:
    m = 0
    for n in numbers:
        m |= bit(n)
    return m


HANDS = tuple(mask_of(c) for c in combinations(NUMBERS, 3))


def question_specs() -> list[tuple[str, tuple[int, ...]]]:
    """Every structured question as (name, parameters), in the engine's order."""
    specs: list[tuple[str, tuple[int, ...]]] = []
    for q, spec in QUESTIONS.items():
        combos: list[tuple[int, ...]] = [()]
        for _name, values in spec:
            combos = [c + (v,) for c in combos for v in values]
        specs += [(q, c) for c in combos]
    return specs


SPECS = question_specs()


@cache
def yes_hands(question: str, params: tuple[int, ...]) -> frozenset[int]:
    """The hand masks for which the question's true answer is YES."""
    names = [name for name, _values in QUESTIONS[question]]
    kwargs = dict(zip(names, params, strict=True))
    return frozenset(h for h in HANDS if question_answer(numbers_of(h), question, kwargs))


class _Complements(dict[frozenset[int], frozenset[int]]):
    """``NO[yes]``: the hands answering NO, from the set answering YES."""

    def __missing__(self, yes: frozenset[int]) -> frozenset[int]:
        self[yes] = frozenset(HANDS) - yes
        return self[yes]


NO = _Complements()
SHOWING = {bit(n): frozenset(h for h in HANDS if h & bit(n)) for n in NUMBERS}  # hands holding n


def card_number(code: str) -> int:
    return int(code[1:])


def _deals(seat: int, hand: int, allowed: dict[int, frozenset[int]]) -> dict[World, float]:
    """Every deal of the other ten cards (``hand`` being the seat's) that ``allowed`` admits.

    Cached: a game's early turns keep starting from the same deals. Callers never change it."""
    return _cached_deals(seat, hand, tuple(sorted(allowed.items())))


@lru_cache(maxsize=32)
def _cached_deals(
    seat: int, hand: int, narrowed: tuple[tuple[int, frozenset[int]], ...]
) -> dict[World, float]:
    allowed = dict(narrowed)
    rest = FULL & ~hand
    o1, o2, o3 = (s for s in range(NUM_SEATS) if s != seat)
    every = frozenset(HANDS)
    first, second, third = (allowed.get(s, every) for s in (o1, o2, o3))
    worlds: dict[World, float] = {}
    hands = [0] * NUM_SEATS
    hands[seat] = hand
    for a in first:
        if a & rest != a:
            continue
        left_a = rest & ~a
        for b in second:
            if b & left_a != b:
                continue
            left_b = left_a & ~b
            for n in NUMBERS:
                centre = bit(n)
                if not left_b & centre or (c := left_b & ~centre) not in third:
                    continue
                hands[o1], hands[o2], hands[o3] = a, b, c
                worlds[(hands[0], hands[1], hands[2], hands[3], centre)] = 1.0
    return worlds


def _filter(worlds: dict[World, float], allowed: dict[int, frozenset[int]]) -> dict[World, float]:
    for s, hands in allowed.items():
        worlds = {w: p for w, p in worlds.items() if w[s] in hands}
    return worlds


def _swap(worlds: dict[World, float], seat: int) -> dict[World, float]:
    """Another seat gave one of its three cards to the centre and took the centre card."""
    out: dict[World, float] = defaultdict(float)
    for w, p in worlds.items():
        hand, centre = w[seat], w[4]
        for n in numbers_of(hand):
            out[swapped(w, seat, bit(n), centre)] += p / 3
    return dict(out)


def initial_hand(engine: FinalQuestEngine, seat: int) -> int:
    """The seat's hand at the deal: its hand now with its own swaps undone, latest first."""
    hand = mask_of(engine.hands[seat])
    for record in reversed(engine.private_facts(seat)):
        if record["kind"] == "swap":
            hand = hand & ~bit(card_number(record["took"])) | bit(card_number(record["gave"]))
    return hand


def worlds_for(engine: FinalQuestEngine, seat: int) -> dict[World, float]:
    """Every world consistent with what ``seat`` has seen, with its weight (not normalised)."""
    return history_for(engine, seat)[-1][0]


def history_for(
    engine: FinalQuestEngine, seat: int
) -> list[tuple[dict[World, float], dict[str, Any] | None]]:
    """The worlds of each stretch between swaps, each with the swap fact that ended it (None for
    the present one): what a backward pass needs to draw a whole consistent past."""
    mine = {r["turn"]: r for r in engine.private_facts(seat) if r.get("seat", seat) == seat}
    return replay(seat, initial_hand(engine, seat), engine.public_facts(), mine)


def replay(
    seat: int, hand: int, facts: list[dict[str, Any]], mine: dict[int, dict[str, Any]]
) -> list[tuple[dict[World, float], dict[str, Any] | None]]:
    """Filter the deals of ``hand`` through the public ``facts``; ``mine``: the seat's own swaps
    and the asker-only rebuttals it received, by turn.

    Between two swaps every fact narrows one hand, so the facts are gathered per hand (the hands
    each seat may hold) and applied in one pass; a swap then moves every world on.
    """
    stretches: list[tuple[dict[World, float], dict[str, Any] | None]] = []
    worlds: dict[World, float] | None = None
    allowed: dict[int, frozenset[int]] = {}

    def settle() -> dict[World, float]:
        return _deals(seat, hand, allowed) if worlds is None else _filter(worlds, allowed)

    for fact in facts:
        if fact["kind"] == "swap":
            worlds, allowed = settle(), {}
            stretches.append((worlds, fact))
            record = mine.get(fact["turn"]) if fact["seat"] == seat else None
            if record is None:
                worlds = _swap(worlds, fact["seat"])
            else:
                gave, took = bit(card_number(record["gave"])), bit(card_number(record["took"]))
                worlds = {swapped(w, seat, gave, took): p for w, p in worlds.items() if w[4] == took}
            continue
        narrowed = narrowing(fact, seat, mine)
        if narrowed is not None:
            target, hands = narrowed
            allowed[target] = allowed[target] & hands if target in allowed else hands
    stretches.append((settle(), None))
    return stretches


def narrowing(
    fact: dict[str, Any], seat: int | None, mine: dict[int, dict[str, Any]]
) -> tuple[int, frozenset[int]] | None:
    """(the seat whose hand a fact is about, the hands it leaves possible), or None.

    ``seat`` (None: a spectator) and its asker-only rebuttals ``mine`` tell what it saw.
    """
    kind, actor = fact["kind"], fact["seat"]
    if kind == "show":
        return actor, SHOWING[bit(card_number(fact["card"]))]
    if kind == "question":
        if fact["question"] == "free":
            return None
        params = tuple(fact[name] for name, _values in QUESTIONS[fact["question"]])
        yes = yes_hands(fact["question"], params)
        return fact["target"], yes if fact["answer"] == "yes" else NO[yes]
    if kind != "final_quest":
        return None
    named = mask_of(fact["named"])
    response = fact.get("response")
    if response == "reveal":
        return fact["target"], frozenset({mask_of([card_number(c) for c in fact["cards"]])})
    if response != "rebuttal":
        return None
    card = fact.get("card")
    if card is None and actor == seat and fact["turn"] in mine:
        card = mine[fact["turn"]]["card"]
    if card is None:
        return fact["target"], frozenset(h for h in HANDS if h != named)
    return fact["target"], SHOWING[bit(card_number(card))]


def public_hands(facts: list[dict[str, Any]], seat: int) -> frozenset[int]:
    """The hands a spectator thinks ``seat`` may hold, from the facts since its last swap."""
    hands = frozenset(HANDS)
    for fact in facts:
        if fact["kind"] == "swap" and fact["seat"] == seat:
            hands = frozenset(HANDS)
        narrowed = narrowing(fact, None, {})
        if narrowed is not None and narrowed[0] == seat:
            hands &= narrowed[1]
    return hands


def hand_odds(worlds: dict[World, float], target: int) -> dict[int, float]:
    """The probability of each hand of ``target``."""
    odds: dict[int, float] = defaultdict(float)
    total = 0.0
    for w, p in worlds.items():
        odds[w[target]] += p
        total += p
    return {h: p / total for h, p in odds.items()}
