"""The search hooks of the Final Quest engine: a cheap copy and a determinization.

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
        before = list(after)
        before[actor] = after[actor] & ~bit(n) | given
        before[4] = bit(n)
        weight = worlds.get(tuple(before), 0.0)  # type: ignore[arg-type]
        if weight:
            options.append(tuple(before))
            weights.append(weight)
    return rng.choices(options, weights)[0]  # type: ignore[return-value]


class FinalQuestSearch:
    """Mixed into ``FinalQuestEngine``."""

    def clone(self: FinalQuestEngine) -> FinalQuestEngine:
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        return self._copy(rng)

    def _copy(self: FinalQuestEngine, rng: random.Random) -> FinalQuestEngine:
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.rng = rng
        other.options = dict(self.options)
        other.history = list(self.history)
        other.hands = [list(h) for h in self.hands]
        other.main_action = dict(self.main_action) if self.main_action is not None else None
        other.public_cards = [set(s) for s in self.public_cards]
        other.public_seen = set(self.public_seen)
        other.seen = [set(s) for s in self.seen]
        other.swaps = list(self.swaps)
        other.facts = list(self.facts)
        other.private = [list(p) for p in self.private]
        other.rebuttals_seen = [dict(r) for r in self.rebuttals_seen]
        return other

    def apply_fast(self: FinalQuestEngine, seat: int, action: str) -> None:
        """Final Quests (most of a random game's moves) without building events."""
        if action[1] == "q":  # fq:<target>:<a>.<b>.<c>
            self._name_hand(seat, int(action[3]), [int(x) for x in action[5:].split(".")])
        else:
            self._apply(seat, action)
        self.history.append((seat, action))

    def seen_history(self: FinalQuestEngine, seat: int) -> list[tuple[int, str]]:
        """The log as ``seat`` saw it: another seat's swap keeps only its kind (the card went to the
        centre face down), and so does a rebuttal shown to the asker alone, unless ``seat`` asked."""
        private = self.rebuttal_mode == "asker"  # REBUTTAL_ASKER: ``engine`` imports this module
        seen: list[tuple[int, str]] = []
        asker = None
        for s, action in self.history:
            kind = action.partition(":")[0]
            if kind == "fq":
                asker = s
            secret = kind == "swap" or (kind == "rebut" and private and seat != asker)
            seen.append((s, kind + ":?") if secret and s != seat else (s, action))
        return seen

    def determinize(self: FinalQuestEngine, seat: int, rng: random.Random) -> FinalQuestEngine:
        """A state ``seat`` cannot tell from this one: hands, centre and the hidden past drawn from
        every deal consistent with the answers, rebuttals, swaps and shows it has seen."""
        from .deduction import history_for

        stretches = history_for(self, seat)
        mine = {r["turn"]: r for r in self.private[seat] if r["kind"] == "swap"}
        path = [draw(stretches[-1][0], rng)]
        for worlds, fact in reversed(stretches[:-1]):
            assert fact is not None
            own = mine.get(fact["turn"]) if fact["seat"] == seat else None
            took = bit(int(own["took"][1:])) if own else None
            path.append(earlier(worlds, path[-1], fact["seat"], took, rng))
        path.reverse()  # path[i]: the world during stretch i
        state = self.blind(self._copy(self.rng), seat, rng)  # the real generator is replaced there
        state.hands = [numbers_of(path[-1][s]) for s in range(4)]
        state.centre = numbers_of(path[-1][4])[0]
        _redraw_secrets(self, state, seat, path, rng)
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
