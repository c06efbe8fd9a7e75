"""Arsène engine scenarios for three players: the dummy's choice, tricks and scoring."""

from __future__ import annotations

import json
import random

from cogs.arsene.engine import DUMMY, ArseneEngine
from tests.support.arsene_engine import (
    at_shops,
    contest_game,
    event,
    finish_deal,
    line,
    new_game,
    play_ready,
    play_trick,
    set_hands,
    through_trump_step,
)
from tests.support.engines import refused


# ---- three players and the dummy --------------------------------------------------------------
def test_dummy_choice_is_secret_and_simultaneous():
    e = new_game(3)
    picker = (e.dealer + 1) % 3
    e.apply(picker, "aside:0")
    e.apply(picker, e.legal_actions(picker)[0])
    assert e.phase == "dummy_choice" and e.to_act() == [0, 1, 2]
    assert [p["kind"] for p in e.public_view()["pending"]] == ["dummy_choice"] * 3
    first = e.hands[1][0]
    events = e.apply(1, f"dummy:{first}")
    assert events[0].code == "dummy_card_chosen" and events[0].data == {"seat": 1}
    assert e.to_act() == [0, 2]
    assert refused(e, 1, f"dummy:{e.hands[1][0]}").code == "not_your_turn"
    assert e.observation(1)["my_dummy_card"] == first and e.observation(0)["my_dummy_card"] is None
    assert first in e.hidden_from(0) and first in e.hidden_from(2) and first in e.hidden_from(None)
    assert first not in e.hidden_from(1)
    assert e.public_view()["players"][1]["dummy_card_given"] is True
    given = {1: first}
    for seat in (2, 0):
        given[seat] = e.hands[seat][-1]
        events = e.apply(seat, f"dummy:{given[seat]}")
    assert events[-1].code == "dummy_trick_formed"
    assert e.phase == "play" and e.dummy_tricks == 1 and e.public_view()["dummy"]["tricks"] == 1
    assert [len(h) for h in e.hands] == [10] * 3 and e.tricks_per_deal == 10
    assert e.to_act() == [picker]
    for seat in (0, 1, 2):
        hidden = e.hidden_from(seat)
        assert {c for s, c in given.items() if s != seat} <= hidden
    assert set(given.values()) <= e.hidden_from(None)
    public = json.dumps(e.public_view())
    assert not any(f'"{c}"' in public for c in given.values())


def test_three_player_deal_plays_ten_tricks():
    e = new_game(3, seed=3)
    through_trump_step(e)
    chooser = random.Random(1)
    deal = e.deal_number
    plays = 0
    while e.deal_number == deal and not e.is_terminal():
        (seat,) = e.to_act()
        action = chooser.choice(e.legal_actions(seat))
        plays += action.startswith("play:")
        events = e.apply(seat, action)
    assert plays == 30
    summary = event(events, "deal_scored")
    assert sum(p["tricks"] for p in summary["players"]) + summary["dummy"]["tricks"] == 11


def trick_on_offer(dummy_tricks: int, tricks: list[int], spades: tuple[str, str, str]) -> ArseneEngine:
    """Three players in play, the dummy with ``dummy_tricks`` tricks and the players with ``tricks``;
    each seat leads or follows with its spade (the highest wins the trick) and keeps a heart. The
    winner is to take the trick or push it."""
    e = play_ready(n=3)
    e.dummy_tricks = dummy_tricks
    e.tricks = list(tricks)
    set_hands(e, [[spade, heart] for spade, heart in zip(spades, ("H8", "H9", "H10"), strict=True)])
    play_trick(e, dict(enumerate(spades)))
    return e


def test_push_to_the_dummy_is_the_only_target():
    e = trick_on_offer(1, [1, 1, 0], ("S1", "S9", "S5"))
    assert e.legal_actions(0) == ["take", f"push:{DUMMY}"]
    assert refused(e, 0, "push:1").code == "push_only_dummy"
    events = e.apply(0, "push:dummy")
    assert event(events, "trick_pushed_dummy") == {"seat": 0}
    assert e.dummy_tricks == 2 and e.tricks == [1, 1, 0]
    assert e.to_act() == [1]  # the pusher's left neighbour leads


def test_push_to_dummy_from_last_seat_wraps_leader():
    e = trick_on_offer(2, [0, 0, 2], ("S5", "S9", "S1"))
    e.apply(2, "push:dummy")
    assert e.to_act() == [0]


def test_three_player_push_to_a_player_when_dummy_differs():
    e = trick_on_offer(2, [1, 0, 1], ("S1", "S9", "S5"))
    assert e.legal_actions(0) == ["take", "push:2"]
    e.apply(0, "push:2")
    assert e.to_act() == [2]


def test_dummy_clash_gives_the_player_a_token_and_the_dummy_nothing():
    e = new_game(3)
    events = finish_deal(e, [2, 8, 0], dummy=1)  # sum 11: dummy 1 + 10 tricks
    assert line(events, 0)["chips_taken"] == 1  # dummy at shop 1, seat 0 alone at shop 2
    events = finish_deal(e, [2, 7, 0], dummy=2)
    assert line(events, 0)["clash"] is True and line(events, 0)["with_dummy"] is True
    assert line(events, 0)["chips_taken"] == 0 and line(events, 0)["token_gained"] is True
    assert event(events, "deal_scored")["dummy"] == {"tricks": 2, "shop": 2, "clash": True, "police": False}
    assert e.holdings.tokens == [1, 0, 0] and e.holdings.shops[2] == [2, 3] and e.holdings.pool == 7
    e.holdings.tokens = [2, 0, 0]
    events = finish_deal(e, [2, 7, 0], dummy=2)
    assert e.holdings.tokens == [2, 0, 0] and line(events, 0)["token_gained"] is False  # cap 2


def test_dummy_never_takes_chips():
    e = new_game(3)
    events = finish_deal(e, [0, 8, 0], dummy=3)  # the dummy alone at shop 3
    assert e.holdings.shops[3] == [1, 3, 5] and e.holdings.chips == [0, 0, 0]
    assert event(events, "deal_scored")["dummy"]["clash"] is False


def test_dummy_alone_at_an_empty_shop_ends_nothing():
    e = at_shops([1], [0, 4, 0])
    events = finish_deal(e, [3, 7, 0], dummy=1)
    assert event(events, "deal_scored")["dummy"]["police"] is True
    assert not e.is_terminal() and e.holdings.chips == [1, 4, 0]


def test_player_with_dummy_at_an_empty_shop_is_caught():
    e = at_shops([2], [3, 4, 0])
    events = finish_deal(e, [2, 7, 0], dummy=2)
    assert line(events, 0)["police"] == "caught" and line(events, 0)["token_gained"] is False
    assert e.is_terminal() and e.holdings.chips == [0, 4, 0]


def test_three_player_void_deal():
    e = at_shops((1, 2, 5), [1, 2, 3])
    events = finish_deal(e, [1, 2, 5], dummy=3)
    assert event(events, "deal_scored")["void"] is True
    assert e.holdings.chips == [1, 2, 3] and not e.is_terminal()


def test_contest_player_alone_with_the_dummy_gets_nothing():
    e = contest_game([3, 1, 0], tokens=[1, 0, 0], n=3)
    events = finish_deal(e, [2, 7, 0], dummy=2)
    assert line(events, 0)["clash"] is True and line(events, 0)["exchange_to"] is None
    assert e.holdings.chips == [3, 1, 0] and e.holdings.tokens == [1, 0, 0]
    assert e.holdings.shops[2] == [1, 2, 3]


def test_contest_two_players_with_the_dummy_swap_with_each_other():
    e = contest_game([3, 1, 6], n=3)
    events = finish_deal(e, [3, 3, 2], dummy=3)
    assert e.holdings.chips == [1, 3, 7]
    assert line(events, 0)["exchange_to"] == 1 and line(events, 1)["exchange_to"] == 0
