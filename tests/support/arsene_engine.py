"""Scenario helpers shared by the Arsène engine test files: games set up at a chosen point, tricks
played and deals finished through ``apply``."""

from __future__ import annotations

from collections.abc import Iterable

from cogs.arsene.engine import ArseneEngine, sort_key


def new_game(n: int = 4, seed: int = 7, advanced: bool = False) -> ArseneEngine:
    return ArseneEngine(n, seed, {"advanced": advanced})


def through_trump_step(e: ArseneEngine) -> None:
    """Play the aside pick, the trump step and (3 players) the dummy choice with the first legal action."""
    while e.phase != "play":
        seat = e.to_act()[0]
        e.apply(seat, e.legal_actions(seat)[0])


def set_hands(e: ArseneEngine, hands: list[list[str]]) -> None:
    """Test helper: overwrite every hand (kept sorted like the engine does)."""
    e.hands = [sorted(h, key=sort_key) for h in hands]


def give_hand(e: ArseneEngine, seat: int, hand: list[str]) -> None:
    """Test helper: give ``seat`` exactly ``hand`` and refill the other hands and the aside cards
    with the displaced cards, so every card of the deck stays in exactly one place."""
    rest = [c for h in e.hands for c in h] + e.aside
    rest = [c for c in rest if c not in hand]
    sizes = [len(h) for h in e.hands]
    e.hands[seat] = sorted(hand, key=sort_key)
    for other in range(e.num_players):
        if other != seat:
            e.hands[other] = sorted(rest[: sizes[other]], key=sort_key)
            rest = rest[sizes[other] :]
    e.aside = rest[: len(e.aside)]


def play_trick(e: ArseneEngine, cards: dict[int, str]) -> list:
    """Play one card per seat in turn order; returns every event."""
    events = []
    for _ in range(e.num_players):
        (seat,) = e.to_act()
        events += e.apply(seat, f"play:{cards[seat]}")
    return events


def finish_deal(e: ArseneEngine, final: list[int], dummy: int | None = None) -> list:
    """Test helper: jump to the last trick of the deal so that it ends with ``final`` tricks per seat
    (and ``dummy`` for the dummy), play it through ``apply`` (the winner takes it) and return the events.

    The winner is the first seat with at least one trick; it leads ♠A, the others play low spades.
    """
    if e.phase in ("aside_pick", "trump_choice", "dummy_choice"):
        through_trump_step(e)
    winner = next(s for s, t in enumerate(final) if t >= 1)
    e.tricks = list(final)
    e.tricks[winner] -= 1
    if dummy is not None:
        e.dummy_tricks = dummy
    low = iter(["S5", "S6", "S7", "S8"])
    set_hands(e, [["S1"] if s == winner else [next(low)] for s in range(e.num_players)])
    e.trick = []
    e.leader = winner
    e.phase = "play"
    events = play_trick(e, {s: e.hands[s][0] for s in range(e.num_players)})
    if e.phase == "push":
        events += e.apply(winner, "take")
    return events


def event(events: list, code: str) -> dict:
    found = [ev.data for ev in events if ev.code == code]
    assert found, f"no {code} event in {[ev.code for ev in events]}"
    return found[-1]


def line(events: list, seat: int) -> dict:
    return event(events, "deal_scored")["players"][seat]


def play_ready(n: int = 4, trumps: bool = True, advanced: bool = False, seed: int = 7) -> ArseneEngine:
    e = new_game(n, seed, advanced)
    through_trump_step(e)
    e.trumps = trumps
    e.leader = 0
    return e


def empty_shop(e: ArseneEngine, shop: int) -> None:
    e.holdings.shops[shop] = []


def at_shops(
    empty: Iterable[int],
    chips: list[int],
    tokens: list[int] | None = None,
    pool: int | None = None,
    advanced: bool = False,
) -> ArseneEngine:
    """A game of ``len(chips)`` players whose shops ``empty`` have no chips left, the players holding
    ``chips`` and ``tokens`` (``pool`` tokens left in the pool)."""
    e = new_game(len(chips), advanced=advanced)
    for shop in empty:
        empty_shop(e, shop)
    e.holdings.chips = list(chips)
    if tokens is not None:
        e.holdings.tokens = list(tokens)
    if pool is not None:
        e.holdings.pool = pool
    return e


def contest_game(chips: list[int], tokens: list[int] | None = None, n: int = 4) -> ArseneEngine:
    assert len(chips) == n
    e = at_shops([5], chips, tokens or None, 8 - sum(tokens) if tokens else None, advanced=True)
    e.contest = True  # as if dealt after shop 5 emptied
    return e
