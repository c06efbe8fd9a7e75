"""Computer players never peek: not at the other hands, not through the seed and the log.

What a computer player is handed is ``determinize(seat, rng)`` of the game. A copy that kept the
real seed and log would give the real deal back to anyone replaying them, and every deal to come.
So: a replay of the copy's seed and log gives neither the real hands nor the real next deal; two
games the seat cannot tell apart (built by ``tests.support.lookalikes``, never by ``determinize``)
give the same copy, down to its seed, generator and log; and every computer player, including a
cheat that rebuilds the game from the copy, chooses the same move in both.
"""

from __future__ import annotations

import functools
import json
import random
import zlib

import pytest

import bot.ai as ai
from bot.ai import registry
from bot.ai.registry import GameAI
from bot.ai.search import Search
from bot.core.engine import Engine
from tests.support.engines import engine_classes, random_positions
from tests.support.lookalikes import RULES, lookalike, others_view


def hides_something(cls: type[Engine], n: int, opts: dict) -> bool:
    return bool(cls(n, 0, opts).hidden_from(0))


CASES = [
    pytest.param(cls, n, opts, id=f"{cls.game_id}-{n}p-{json.dumps(opts, sort_keys=True)}")
    for cls in engine_classes()
    for n, opts in cls.sample_configs()
    if hides_something(cls, n, opts)
]


def rebuild(copy: Engine) -> Engine:
    """The game that the copy's options, seed and log make, as far as its log is accepted."""
    game = type(copy)(copy.num_players, copy.seed, copy.options)
    for seat, action in copy.history:
        try:
            game.apply(seat, action)
        except Exception:
            break
    return game


DEAL_MOVES = 300  # more than any deal of any game takes


def next_deal(engine: Engine, rng: random.Random) -> list | None:
    """Every seat's hand when the next deal has been dealt, playing on at random (None: no next deal)."""
    game, deal = engine.clone(), engine.deal_number
    for _ in range(DEAL_MOVES):
        if game.is_terminal() or game.deal_number != deal:
            break
        seat = rng.choice(game.to_act())
        game.apply_fast(seat, rng.choice(game.legal_actions(seat)))
    if game.is_terminal() or game.deal_number == deal:
        return None
    return [game.observation(s).get("hand") for s in range(game.num_players)]


def deals_from_its_generator(engine: Engine) -> bool:
    """Whether the next deal comes out of the game's generator (not only from the cards in play)."""
    other = engine.clone()
    other.rng = random.Random(0)
    return next_deal(engine, random.Random(1)) not in (None, next_deal(other, random.Random(1)))


@pytest.mark.parametrize("cls,n,opts", CASES)
def test_a_replay_of_the_copy_does_not_deal_the_real_hands(cls, n, opts):
    """The copy's seed deals other cards, and its log replayed from that seed, as far as it is
    accepted, never holds the other seats' real hands."""
    for k, engine in enumerate(random_positions(cls, n, opts, 12, seed=700 + n)):
        seat = k % n
        copy = engine.determinize(seat, random.Random(k))
        first = cls(n, copy.seed, copy.options)
        assert others_view(first, seat) != others_view(cls(n, engine.seed, engine.options), seat)
        game = rebuild(copy)
        real = cls.replay(n, engine.seed, engine.options, engine.history[: len(game.history)])
        assert others_view(game, seat) != others_view(real, seat)
        assert copy.history == engine.seen_history(seat)


@pytest.mark.parametrize("cls,n,opts", CASES)
def test_the_deals_to_come_are_not_the_real_ones(cls, n, opts):
    """Where the real game goes on to a deal drawn from its generator, the copy played on deals
    other hands, and so does the game rebuilt from the copy's seed and log."""
    checked = 0
    for k, engine in enumerate(random_positions(cls, n, opts, 12, seed=800 + n)):
        if not deals_from_its_generator(engine):
            continue
        checked += 1
        seat = k % n
        real = next_deal(engine, random.Random(k))
        copy = engine.determinize(seat, random.Random(k))
        dealt = next_deal(copy, random.Random(k))
        assert dealt is not None and all(a != b for a, b in zip(dealt, real, strict=True))
        game = rebuild(copy)
        if len(game.history) == len(engine.history):
            assert next_deal(game, random.Random(k)) != real
    if cls.game_id in ("donguri", "arsene"):
        assert checked >= 4
    else:
        assert checked == 0, "a game that deals again: count it above"


def quiet_positions(cls: type[Engine], n: int, opts: dict, count: int, seed: int):
    """Positions of random games in which nobody shows a card or its hand unless it must (random
    Final Quest players show so much that little stays hidden)."""

    def quiet(legal: list[str]) -> list[str]:
        return [a for a in legal if not a.startswith(("show:", "reveal", "ask:"))] or legal

    return random_positions(cls, n, opts, count, seed, moves=quiet)


@functools.cache
def pairs(cls: type[Engine], count: int, seed: int) -> list[tuple[Engine, Engine, int]]:
    """``count`` (game, lookalike, seat) triples, the seat being the one to act with a choice, from
    every variant with the most players in turn. A game of perfect information looks like itself
    played from another seed. Built once for all the players tried on them."""
    return list(_pairs(cls, count, seed))


def _pairs(cls: type[Engine], count: int, seed: int):
    most = max(n for n, _ in cls.sample_configs())
    variants = [(n, opts) for n, opts in cls.sample_configs() if n == most]
    sources = [quiet_positions(cls, n, opts, 1000, seed=seed + i) for i, (n, opts) in enumerate(variants)]
    made = 0
    for k in range(12 * count):
        engine = next(sources[k % len(sources)])
        seat = engine.to_act()[0]
        if len(engine.legal_actions(seat)) < 2:
            continue
        if cls.game_id in RULES:
            twin = lookalike(engine, seat, random.Random(k))
        else:
            assert not any(engine.hidden_from(s) for s in range(most)), "teach tests.support.lookalikes the game"
            twin = cls.replay(most, engine.seed + 1, engine.options, engine.history)
        if twin is not None:
            yield engine, twin, seat
            made += 1
            if made == count:
                return
    raise AssertionError(f"only {made} lookalikes of {cls.game_id} found")


HIDDEN = [cls for cls in engine_classes() if cls.game_id in RULES]


def everything(engine: Engine) -> dict:
    """Every field of a game, generators by their state: all a player handed it could read (but
    the caches of what the other fields say)."""
    fields = {k: v for k, v in vars(engine).items() if not k.endswith("_cache")}
    return {k: v.getstate() if isinstance(v, random.Random) else v for k, v in fields.items()}


@pytest.mark.parametrize("cls", HIDDEN, ids=lambda c: c.game_id)
def test_lookalikes_give_the_same_copy_down_to_its_seed_and_log(cls):
    for engine, twin, seat in pairs(cls, 12, seed=900):
        for draw in range(2):
            a = engine.determinize(seat, random.Random(draw))
            b = twin.determinize(seat, random.Random(draw))
            assert everything(a) == everything(b)
            # nor may the log as another seat saw it, which the game keeps at hand, come along
            for game in (engine, twin):
                game.seen_history((seat + 1 + draw) % game.num_players)


# ---- players -----------------------------------------------------------------------------------
def reading(view: Engine, seat: int, level: str, budget_ms: int, rng: random.Random) -> str:
    """A cheat: lets the other hands of what it is handed decide."""
    legal = view.legal_actions(seat)
    return legal[zlib.crc32(others_view(view, seat).encode()) % len(legal)]


def peeking(view: Engine, seat: int, level: str, budget_ms: int, rng: random.Random) -> str:
    """A cheat: rebuilds the game from the copy's seed and log and lets the other hands decide."""
    game = rebuild(view.determinize(seat, rng))
    legal = view.legal_actions(seat)
    return legal[zlib.crc32(others_view(game, seat).encode()) % len(legal)]


def searching(honest: GameAI):
    """A cheat: the game's own player (or the search) on the rebuilt game with every hand in sight,
    when the rebuild reaches the position; else on the copy, as an honest player does."""

    def choose(view: Engine, seat: int, level: str, budget_ms: int, rng: random.Random) -> str:
        copy = view.determinize(seat, rng)
        game = rebuild(copy)
        if len(game.history) == len(copy.history) and game.legal_actions(seat) == view.legal_actions(seat):
            game.determinize = lambda s, r: game.clone()  # type: ignore[method-assign]
            copy = game
        if honest.player is not None:
            return honest.player(copy, seat, level, budget_ms, rng)
        return Search(copy, seat, honest, rng, budget_ms * 1000 * ai.TARGET_SHARE).run()

    return choose


PLAYERS = [*ai.LEVELS, "reading", "peeking", "searching"]


@pytest.mark.parametrize("player", PLAYERS)
@pytest.mark.parametrize("cls", engine_classes(), ids=lambda c: c.game_id)
def test_a_computer_chooses_the_same_in_games_its_seat_cannot_tell_apart(cls, player, monkeypatch):
    """Same seed, different hidden cards and another seed: the same move, for every level, and for
    cheats that read the other hands of what they are handed (a determinization, never the game),
    or rebuild the game from its seed and log."""
    honest = ai.get(cls.game_id)
    if cls not in HIDDEN and player not in ai.LEVELS:
        pytest.skip("perfect information: nothing to peek at")
    level = player if player in ai.LEVELS else "normal"
    if player in ("reading", "peeking"):
        cheat = reading if player == "reading" else peeking
        monkeypatch.setitem(registry._REGISTRY, cls.game_id, GameAI(player=cheat))
    elif player == "searching":
        if honest.player is not None and cls.game_id == "final_quest":
            pytest.skip("Final Quest's player deduces from the record and never searches")
        monkeypatch.setitem(registry._REGISTRY, cls.game_id, GameAI(player=searching(honest)))
    for k, (engine, twin, seat) in enumerate(pairs(cls, 16, seed=500)):
        first = ai.choose_action(engine, seat, level, budget_ms=15, seed=k)
        assert first in engine.legal_actions(seat)
        assert ai.choose_action(twin, seat, level, budget_ms=15, seed=k) == first, k
