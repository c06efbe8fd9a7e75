"""Information-Set Monte-Carlo Tree Search (SO-ISMCTS, Cowling, Powley & Whitehouse 2012).

Each iteration draws a fresh determinization of the root (a full state consistent with what the
searching seat knows, from ``Engine.determinize``; ``choose_action`` hands over a determinization
as the root, never the game), walks one tree shared by all determinizations
choosing among the moves legal in *this* determinization (UCB with availability counts), adds one
node, then plays out. So the seat never reads hidden state, and its opponents' unseen cards vary
from iteration to iteration instead of being guessed once.

Several seats to act at once (secret simultaneous choices) are handled by decoupled UCT: each
acting seat picks from its own statistics at the node, ignoring the others' picks, and the joint
move leads to the child.

The budget is counted on a virtual clock (each simulated move and each iteration charged the CPU
time it takes on the reference machine, per game: ``GameAI.move_us`` and ``iteration_us``) rather
than read from a real one, so a search with the same seed makes the same choice on any machine and
under any load.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from bot.ai import deal
from bot.ai.registry import GameAI
from bot.core.engine import Engine

EXPLORATION = 0.7
MAX_PLAYOUT_STEPS = 20_000


class Node:
    """Statistics per acting seat: ``stats[seat][action] = [visits, value sum, availability]``."""

    __slots__ = ("stats", "children")

    def __init__(self) -> None:
        self.stats: dict[int, dict[str, list[float]]] = {}
        self.children: dict[object, Node] = {}


def rank_values(engine: Engine) -> list[float]:
    """A value in [0, 1] per seat from the final ranks: 1 first … 0 last; tied seats share places,
    and partners (``Engine.teams``) share their team's value."""
    ranks = engine.results()["ranks"]
    n = len(ranks)
    if n < 2:
        return [1.0] * n
    values = []
    for rank in ranks:
        place = rank + (ranks.count(rank) - 1) / 2
        values.append((n - place) / (n - 1))
    for team in engine.teams(n) or []:
        shared = sum(values[s] for s in team) / len(team)
        for s in team:
            values[s] = shared
    return values


class Search:
    """One decision of one seat: ``run()`` returns the most visited root move."""

    def __init__(self, root: Engine, seat: int, ai: GameAI[Any], rng: random.Random, budget_us: float):
        self.root = root
        self.seat = seat
        self.ai = ai
        self.rng = rng
        self.budget_us = budget_us
        self.tree = Node()
        self.iterations = 0
        self.moves = 0
        self.dealt = 0  # groups checked by the dealer's exact fallback (``bot.ai.deal``)
        self.deal = root.deal_number
        self.cut = ai.evaluate is not None

    def run(self) -> str:
        while self.spent() < self.budget_us:
            self.iterate()
        return self.best()

    def spent(self) -> float:
        ai = self.ai
        return ai.move_us * self.moves + ai.iteration_us * self.iterations + deal.GROUP_US * self.dealt

    def best(self) -> str:
        table = self.tree.stats[self.seat]
        return max(table, key=lambda a: (table[a][0], table[a][1] / max(table[a][0], 1)))

    # ---- one iteration -----------------------------------------------------------------------
    def iterate(self) -> None:
        self.iterations += 1
        before = deal.groups_checked
        state = self.root.determinize(self.seat, self.rng)
        self.dealt += deal.groups_checked - before
        node = self.tree
        path: list[tuple[list[float], int]] = []
        expanded = False
        while not expanded and not self.stop(state):
            seats = state.to_act()
            joint = []
            for s in seats:
                table = node.stats.get(s)
                if table is None:
                    table = node.stats[s] = {}
                action, new = self.select(table, state.legal_actions(s))
                expanded |= new
                path.append((table[action], s))
                joint.append(action)
            for s, action in zip(seats, joint, strict=True):
                state.apply_fast(s, action)
            self.moves += len(joint)
            key: object = joint[0] if len(joint) == 1 else tuple(joint)
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = Node()
            node = child
        values = self.playout(state)
        for entry, s in path:
            entry[0] += 1
            entry[1] += values[s]

    def select(self, table: dict[str, list[float]], legal: list[str]) -> tuple[str, bool]:
        """(action, whether it is new here): an untried legal move first, else the best UCB score."""
        untried = []
        for action in legal:
            entry = table.get(action)
            if entry is None:
                untried.append(action)
            else:
                entry[2] += 1
        if untried:
            action = untried[0] if len(untried) == 1 else self.rng.choice(untried)
            table[action] = [0, 0.0, 1]
            return action, True
        best, best_score = legal[0], -1.0
        for action in legal:
            visits, total, available = table[action]
            score = total / visits + EXPLORATION * math.sqrt(math.log(available) / visits)
            if score > best_score:
                best, best_score = action, score
        return best, False

    def stop(self, state: Engine) -> bool:
        return state.is_terminal() or (self.cut and state.deal_number != self.deal)

    def playout(self, state: Engine) -> list[float]:
        policy: Callable[[Engine, int, random.Random], str] | None = self.ai.playout
        rng = self.rng
        steps = 0
        while steps < MAX_PLAYOUT_STEPS and not self.stop(state):
            seat = state.to_act()[0]
            if policy is not None:
                action = policy(state, seat, rng)
            else:
                action = rng.choice(state.legal_actions(seat))
            state.apply_fast(seat, action)
            steps += 1
        self.moves += steps
        if state.is_terminal():
            return rank_values(state)
        assert self.ai.evaluate is not None or steps >= MAX_PLAYOUT_STEPS
        evaluate = self.ai.evaluate
        if evaluate is None:
            return [0.5] * state.num_players
        return [evaluate(state, s) for s in range(state.num_players)]
