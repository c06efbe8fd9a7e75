"""The search hooks of the Final Quest engine, as functions of a ``FinalQuestEngine``: a cheap copy,
a fast apply, the log as a seat saw it and a determinization.

A determinized state must agree with everything its seat has seen, including the past: the other
seats' swaps (which card went to the centre) and the asker-only rebuttals it did not see are
drawn too, so every record in the state stays consistent. The deduction keeps the worlds of each
stretch between swaps; the present world is drawn by weight, then each earlier one among the
worlds that lead to it (backward sampling).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from bot.core.cards import code
from bot.core.engine import copy_rng

if TYPE_CHECKING:
    from .deduction import World
    from .engine import FinalQuestEngine

# ``deduction`` reads the engine module's question table, so it is imported when first needed.


def bit(n: int) -> int:
    return 1 << (n - 1)


def numbers_of(mask: int) -> list[int]:
    return [n for n in range(1, 14) if mask & bit(n)]


def card(n: int) -> str:
    return code("D", n)


def swapped(world: World, seat: int, gave: int, took: int) -> World:
    """``world`` after ``seat`` gave the card ``gave`` (a bit) to the centre and took ``took``."""
    hands = list(world)
    hands[seat] = world[seat] & ~gave | took
    return hands[0], hands[1], hands[2], hands[3], gave


def draw(worlds: dict[World, float], rng: random.Random) -> World:
    """One world, by weight (the dict's order depends only on what the seat has seen)."""
    keys = list(worlds)
    return rng.choices(keys, [worlds[w] for w in keys])[0]


def earlier(
    worlds: dict[World, float], after: World, actor: int, took: int | None, rng: random.Random
) -> World:
    """The world before ``actor``'s swap that led to ``after``: the card now in the centre was
    given, and one of the actor's cards (``took`` when known) came from the centre."""
    given = after[4]
    options, weights = [], []
    for n in numbers_of(after[actor]):
        if took is not None and bit(n) != took:
            continue
        before = swapped(after, actor, bit(n), given)
        weight = worlds.get(before, 0.0)
        if weight:
            options.append(before)
            weights.append(weight)
    return rng.choices(options, weights)[0]


def clone(engine: FinalQuestEngine) -> FinalQuestEngine:
    return _copy(engine, copy_rng(engine.rng))


def _copy(engine: FinalQuestEngine, rng: random.Random) -> FinalQuestEngine:
    other = engine.copy_state()
    other.rng = rng
    other.hands = [list(h) for h in engine.hands]
    other.main_action = dict(engine.main_action) if engine.main_action is not None else None
    other.public_cards = [set(s) for s in engine.public_cards]
    other.public_seen = set(engine.public_seen)
    other.seen = [set(s) for s in engine.seen]
    other.swaps = list(engine.swaps)
    other.facts = list(engine.facts)
    other.private = [list(p) for p in engine.private]
    other.rebuttals_seen = [dict(r) for r in engine.rebuttals_seen]
    return other


def seen_history(engine: FinalQuestEngine, seat: int) -> list[tuple[int, str]]:
    """The log as ``seat`` saw it: another seat's swap keeps only its kind (the card went to the
    centre face down), and so does a rebuttal shown to the asker alone, unless ``seat`` asked."""
    private = engine.rebuttal_mode == "asker"  # REBUTTAL_ASKER: ``engine`` imports this module
    seen: list[tuple[int, str]] = []
    asker = None
    for s, action in engine.history:
        kind = action.partition(":")[0]
        if kind == "fq":
            asker = s
        secret = kind == "swap" or (kind == "rebut" and private and seat != asker)
        seen.append((s, kind + ":?") if secret and s != seat else (s, action))
    return seen


def determinize(engine: FinalQuestEngine, seat: int, rng: random.Random) -> FinalQuestEngine:
    """A state ``seat`` cannot tell from this one: hands, centre and the hidden past drawn from
    every deal consistent with the answers, rebuttals, swaps and shows it has seen."""
    from .deduction import history_for

    stretches = history_for(engine, seat)
    mine = {r["turn"]: r for r in engine.private[seat] if r["kind"] == "swap"}
    path = [draw(stretches[-1][0], rng)]
    for worlds, fact in reversed(stretches[:-1]):
        assert fact is not None
        own = mine.get(fact["turn"]) if fact["seat"] == seat else None
        took = bit(int(own["took"][1:])) if own else None
        path.append(earlier(worlds, path[-1], fact["seat"], took, rng))
    path.reverse()  # path[i]: the world during stretch i
    state = engine.blind(_copy(engine, engine.rng), seat, rng)  # the real generator is replaced there
    state.hands = [numbers_of(path[-1][s]) for s in range(4)]
    state.centre = numbers_of(path[-1][4])[0]
    _redraw_secrets(engine, state, seat, path, rng)
    return state


def _redraw_secrets(
    real: FinalQuestEngine, state: FinalQuestEngine, seat: int, path: list[World], rng: random.Random
) -> None:
    """Rewrite what other seats saw in secret (their swaps, asker-only rebuttals without ``seat``)
    to match the drawn past, in the private records, ``seen`` and ``rebuttals_seen`` (the action
    log is the one ``seat`` saw, ``seen_history``; nothing in play reads it)."""
    others = [s for s in range(4) if s != seat]
    for s in others:
        state.private[s] = []
        state.seen[s] = set(numbers_of(path[0][s]))
        state.rebuttals_seen[s] = {}
    known = {(r["turn"], r["kind"]): r for r in real.private[seat]}
    stretch = 0
    for fact in real.facts:
        turn, actor = fact["turn"], fact["seat"]
        if fact["kind"] == "swap":
            before, after = path[stretch], path[stretch + 1]
            stretch += 1
            if actor == seat:
                continue
            gave, took = numbers_of(after[4])[0], numbers_of(before[4])[0]
            state.private[actor].append(
                {"kind": "swap", "turn": turn, "gave": card(gave), "took": card(took)}
            )
            state.seen[actor].add(took)
        elif fact["kind"] == "final_quest" and fact.get("response") == "rebuttal" and fact["card"] is None:
            target = fact["target"]
            record: dict[str, Any] | None = known.get((turn, "rebuttal"))
            if record is None:
                options = [n for n in numbers_of(path[stretch][target]) if n not in fact["named"]]
                record = {"kind": "rebuttal", "turn": turn, "seat": actor, "target": target}
                record["card"] = card(rng.choice(options))
            n = int(record["card"][1:])
            for s in (actor, target):
                if s != seat:
                    state.private[s].append(dict(record))
            if actor != seat:
                state.seen[actor].add(n)
                state.rebuttals_seen[actor][n] = target
