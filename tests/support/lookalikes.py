"""Games a seat cannot tell apart, built by the tests' own code and never by the engines' ``determinize``.

A computer player must choose the same move in two such games, and ``determinize`` must turn them
into the same copy. Building the second game with ``determinize`` itself would prove nothing: a
copy keeps whatever ``determinize`` lets through (a seed, a log) and so would the lookalike. Here a
lookalike is a real game of the rules: its cards are dealt again by a permutation of the cards the
seat has never seen (within a kind, so every void and every known suit still holds), at the moment
they were last dealt; the moves since are played again with the rules checked (a secret card given
is renamed by the same permutation); and the seat's observation, legal moves and whose turn it is
must agree at every step. It gets a seed and a generator of its own, as a game dealt that way would.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable

from bot.core.engine import Engine, IllegalAction
from cogs.arsene.rules_core import SORT_KEYS

Swap = Callable[[str], str]


def _rig_donguri(game, swap: Swap) -> None:
    game.hands = [game._sorted([swap(c) for c in hand]) for hand in game.hands]


def _rig_arsene(game, swap: Swap) -> None:
    game.hands = [sorted((swap(c) for c in hand), key=SORT_KEYS.__getitem__) for hand in game.hands]
    game.aside = [swap(c) for c in game.aside]


def _rig_saizen(game, swap: Swap) -> None:
    game.hands = [[swap(c) for c in hand] for hand in game.hands]


def _number(card: str) -> int:
    return int(card[1:])


def _rig_final_quest(game, swap: Swap) -> None:
    game.hands = [sorted(_number(swap(f"D{n}")) for n in hand) for hand in game.hands]
    game.centre = _number(swap(f"D{game.centre}"))
    game.seen = [set(hand) for hand in game.hands]


def _arsene_kind(card: str) -> str:
    """A void in diamonds rules out the trump markers (diamond 2–10) apart from the face cards."""
    return "N" if card[0] == "D" and 2 <= _number(card) <= 10 else card[0]


# game id: (how its cards are dealt again, what a card may be swapped with, whether later deals
# are dealt afresh (else every card was dealt at the start and only passes from hand to hand))
RULES: dict[str, tuple[Callable[[Engine, Swap], None], Callable[[str], str], bool]] = {
    "donguri": (_rig_donguri, lambda c: c[0], True),
    "arsene": (_rig_arsene, _arsene_kind, True),
    "saizen": (_rig_saizen, lambda c: c[0], False),
    "final_quest": (_rig_final_quest, lambda c: "D", False),
}


def seat_view(engine: Engine, seat: int) -> str:
    return json.dumps(
        [engine.observation(seat), engine.legal_actions(seat), engine.to_act(), engine.public_view()],
        sort_keys=True,
    )


def others_view(engine: Engine, seat: int) -> str:
    return json.dumps([engine.observation(s) for s in range(engine.num_players) if s != seat], sort_keys=True)


def deal_start(engine: Engine, redeals: bool) -> int:
    """How many moves of the log were made before the cards now in play were dealt."""
    if not redeals:
        return 0
    probe = type(engine)(engine.num_players, engine.seed, engine.options)
    start = 0
    for i, (s, action) in enumerate(engine.history):
        before = probe.deal_number
        probe.apply(s, action)
        if probe.deal_number != before:
            start = i + 1
    return start


def lookalike(engine: Engine, seat: int, rng: random.Random, tries: int = 40) -> Engine | None:
    """A game of the rules that ``seat`` cannot tell from ``engine`` but whose hidden cards differ,
    with another seed; None when none of ``tries`` permutations gave one (or nothing is hidden)."""
    cls, n = type(engine), engine.num_players
    rule = RULES.get(cls.game_id)
    if rule is None:
        return None
    rig, kind, redeals = rule
    start = deal_start(engine, redeals)
    moves = engine.history[start:]
    real = [cls.replay(n, engine.seed, engine.options, engine.history[:start])]
    for s, action in moves:  # the real game, move by move since the deal
        real.append(real[-1].clone())
        real[-1].apply(s, action)
    views = [seat_view(game, seat) for game in real]
    known = set()
    for game, (_seat, action) in zip(real, [*moves, (None, "")], strict=True):
        known.update(game.observation(seat).get("hand", []))
        if action.startswith("play:"):
            known.add(action.split(":")[1])
    unseen = sorted(c for c in engine.hidden_from(seat) if c not in known)
    for swap in _permutations(unseen, kind, rng, tries):
        twin = _replayed(real[0], moves, swap, rig, views, seat)
        if twin is not None and others_view(twin, seat) != others_view(engine, seat):
            twin.seed = rng.getrandbits(63)
            twin.rng = random.Random(twin.seed)
            return twin
    return None


def _permutations(cards: list[str], kind: Callable[[str], str], rng: random.Random, tries: int):
    """Up to ``tries`` renamings of ``cards``: first all shuffled within their kind, then every swap
    of two cards of a kind, in random order (the fewer cards move, the likelier the record holds)."""
    groups: dict[str, list[str]] = {}
    for card in cards:
        groups.setdefault(kind(card), []).append(card)
    groups = {k: g for k, g in groups.items() if len(g) > 1}
    if not groups:
        return
    whole = {}
    for group in groups.values():
        shuffled = list(group)
        rng.shuffle(shuffled)
        whole.update(zip(group, shuffled, strict=True))
    yield whole
    swaps = [(a, b) for group in groups.values() for i, a in enumerate(group) for b in group[i + 1 :]]
    rng.shuffle(swaps)
    for a, b in swaps[: tries - 1]:
        yield {a: b, b: a}


def _replayed(start: Engine, moves, swap: dict, rig, views: list[str], seat: int) -> Engine | None:
    """The moves since the deal played again on the deal renamed by ``swap``, or None as soon as a
    move is refused or the seat would see anything differently."""
    twin = start.clone()
    rig(twin, lambda c: swap.get(c, c))
    if seat_view(twin, seat) != views[0]:
        return None
    for step, (s, action) in enumerate(moves, start=1):
        head, _, card = action.partition(":")
        number = f"D{card}" if twin.game_id == "final_quest" else card
        if number in swap:  # a card nobody showed ``seat``: a secret move (given face down, swapped)
            renamed = swap[number]
            action = f"{head}:{renamed[1:] if twin.game_id == 'final_quest' else renamed}"
        try:
            twin.apply(s, action)
        except IllegalAction:
            return None
        if seat_view(twin, seat) != views[step]:
            return None
    return twin
