"""Arsène, new edition: engine scenarios from the seed and RULINGS §1 (set-up, the trump step,
tricks, hidden information); scoring and the dummy have their own files."""

from __future__ import annotations

import json
import random
import tomllib
from pathlib import Path

import pytest

from bot.core.engine import IllegalAction
from cogs.arsene.engine import ArseneEngine, deck_for
from tests.support.arsene_engine import (
    event,
    give_hand,
    new_game,
    play_ready,
    play_trick,
    set_hands,
    through_trump_step,
)
from tests.support.engines import refused

LOCALE = Path(__file__).resolve().parents[3] / "cogs" / "arsene" / "locales" / "en.toml"


# ---- setup --------------------------------------------------------------------------------------
def test_setup_four_players():
    e = new_game(4)
    assert e.deal_number == 1
    shops = {s["shop"]: s["groups"] for s in e.public_view()["shops"]}
    assert shops == {1: [1, 1, 1], 2: [1, 2, 3], 3: [1, 3, 5], 4: [1, 2, 3], 5: [1, 1, 1]}
    assert sum(sum(g) for g in shops.values()) == 27
    assert e.public_view()["token_pool"] == 8
    assert [len(h) for h in e.hands] == [11] * 4 and len(e.aside) == 3
    cards = [c for h in e.hands for c in h] + e.aside
    assert len(cards) == len(set(cards)) == 47
    assert not {"D1", "D2", "D3", "D4", "D5"} & set(cards)
    assert e.phase == "aside_pick" and e.to_act() == [(e.dealer + 1) % 4]


def test_setup_three_players_reduced_deck():
    e = new_game(3)
    deck = deck_for(3)
    assert len(deck) == 36
    removed = {"D6", "D7"} | {f"{s}{r}" for s in "SHC" for r in (2, 3, 4)}
    assert not removed & set(deck)
    cards = [c for h in e.hands for c in h] + e.aside
    assert sorted(cards) == sorted(deck) and [len(h) for h in e.hands] == [11] * 3
    assert e.public_view()["dummy"] == {"tricks": 0, "cards_given": 0}


def test_bad_options_are_refused():
    with pytest.raises(IllegalAction) as info:
        ArseneEngine(4, 1, {"advanced": "yes"})
    assert info.value.code == "bad_option"
    with pytest.raises(IllegalAction):
        ArseneEngine(4, 1, {"speed": 3})
    with pytest.raises(IllegalAction):
        ArseneEngine(5, 1, {})
    assert ArseneEngine(4, 1).options == {"advanced": False}


# ---- the trump step -----------------------------------------------------------------------------
def test_aside_pick_is_blind_and_hidden():
    e = new_game(4)
    picker = (e.dealer + 1) % 4
    assert e.legal_actions(picker) == ["aside:0", "aside:1", "aside:2"]
    other = (picker + 1) % 4
    assert refused(e, other, "aside:0").code == "not_your_turn"
    assert e.public_view()["pending"] == [{"kind": "aside_pick", "seat": picker}]
    for seat in [None, 0, 1, 2, 3]:
        assert set(e.aside) <= e.hidden_from(seat)  # nobody sees the face-down cards, the picker neither
    taken, rest = e.aside[1], [e.aside[0], e.aside[2]]
    events = e.apply(picker, "aside:1")
    assert events[0].code == "aside_taken" and "card" not in events[0].data
    assert taken in e.hands[picker] and len(e.hands[picker]) == 12
    assert e.observation(picker)["picked_card"] == taken
    assert e.observation(other)["picked_card"] is None
    assert taken in e.hidden_from(other) and taken not in e.hidden_from(picker)
    for seat in [None, 0, 1, 2, 3]:
        assert set(rest) <= e.hidden_from(seat)
    assert e.phase == "trump_choice" and e.public_view()["pending"] == [
        {"kind": "trump_choice", "seat": picker}
    ]


def at_trump_step(aside: int, hand: list[str]) -> tuple[ArseneEngine, int]:
    """A four-player game at its trump step: the picker (the dealer's left neighbour) has set aside
    card ``aside`` and holds ``hand``. Returns the game and the picker."""
    e = new_game(4)
    picker = (e.dealer + 1) % 4
    e.apply(picker, f"aside:{aside}")
    give_hand(e, picker, hand)
    return e, picker


def test_non_face_diamond_must_be_laid_face_up():
    hand = ["D9", "D12", "D13", "S1", "S13", "H5", "H6", "C2", "C3", "C4", "C5", "C6"]
    e, picker = at_trump_step(0, hand)
    assert e.legal_actions(picker) == ["trump:D9"]
    assert refused(e, picker, "show:S1").code == "must_lay_diamond"
    err = refused(e, picker, "trump:D12")
    assert err.code == "must_lay_diamond" and err.params["cards"] == ["D9"]
    assert refused(e, picker, "trump:D8").code == "not_in_hand"
    events = e.apply(picker, "trump:D9")
    assert events[0].code == "trump_laid" and events[0].data == {"seat": picker, "card": "D9"}
    view = e.public_view()
    assert view["trumps"] is True and view["trump_card"] == "D9" and view["shown_card"] is None
    assert "D9" not in e.hidden_from(None)
    assert view["aside_face_down"] == 2
    assert [len(h) for h in e.hands] == [11] * 4
    # the dealer's left neighbour leads
    assert e.phase == "play" and e.to_act() == [picker] and view["leader"] == picker


def test_only_face_diamonds_show_any_card_no_trumps():
    hand = ["D11", "D12", "S1", "S13", "H5", "H6", "C2", "C3", "C4", "C5", "C6", "C7"]
    e, picker = at_trump_step(2, hand)
    assert sorted(e.legal_actions(picker)) == sorted(f"show:{c}" for c in hand)
    assert refused(e, picker, "trump:D11").code == "no_trump_marker"
    events = e.apply(picker, "show:D12")
    assert events[0].code == "card_shown" and events[0].data["card"] == "D12"
    view = e.public_view()
    assert view["trumps"] is False and view["shown_card"] == "D12" and view["trump_card"] is None
    assert view["aside_face_down"] == 3
    # the shown card was shown to everyone: public, but the two other aside cards stay hidden
    for seat in [None, 0, 1, 2, 3]:
        assert "D12" not in e.hidden_from(seat)
        assert set(e.aside) <= e.hidden_from(seat)
    assert "D12" not in e.hands[picker]


def test_no_diamond_at_all_shows_any_card():
    hand = ["S1", "S13", "H5", "H6", "C2", "C3", "C4", "C5", "C6", "C7", "C8", "C9"]
    e, picker = at_trump_step(0, hand)
    assert len(e.legal_actions(picker)) == 12 and all(a.startswith("show:") for a in e.legal_actions(picker))


# ---- playing tricks -----------------------------------------------------------------------------


def test_must_follow_suit():
    e = play_ready()
    set_hands(e, [["S5", "H2"], ["S9", "H3"], ["C2", "D8"], ["H4", "H5"]])
    e.apply(0, "play:S5")
    assert e.legal_actions(1) == ["play:S9"]
    err = refused(e, 1, "play:H3")
    assert err.code == "must_follow" and err.params == {"suit": "S"}
    assert refused(e, 1, "play:S12").code == "not_in_hand"
    e.apply(1, "play:S9")
    assert sorted(e.legal_actions(2)) == ["play:C2", "play:D8"]  # void in spades: anything


def test_trump_wins_in_a_trump_deal():
    e = play_ready(trumps=True)
    set_hands(e, [["S5", "H2"], ["S1", "H3"], ["D8", "C2"], ["S13", "H5"]])
    events = play_trick(e, {0: "S5", 1: "S1", 2: "D8", 3: "S13"})
    assert event(events, "trick_won") == {"seat": 2, "card": "D8", "trick": 1}
    assert e.tricks == [0, 0, 1, 0] and e.leader == 2


def test_diamond_does_not_win_without_trumps():
    e = play_ready(trumps=False)
    set_hands(e, [["S5", "H2"], ["S1", "H3"], ["D13", "C2"], ["S13", "H5"]])
    events = play_trick(e, {0: "S5", 1: "S1", 2: "D13", 3: "S13"})
    assert event(events, "trick_won")["seat"] == 1  # ♠A, A is high
    assert e.tricks == [0, 1, 0, 0]


def test_seed_push_example():
    """A B C D hold 1, 2, 1, 1 tricks after five tricks; A wins trick 6: take, or push to C only."""
    e = play_ready()
    e.tricks = [1, 2, 1, 1]
    set_hands(e, [["S1", "H2"], ["S9", "H3"], ["S2", "H4"], ["S3", "H5"]])
    events = play_trick(e, {0: "S1", 1: "S9", 2: "S2", 3: "S3"})
    assert event(events, "trick_won") == {"seat": 0, "card": "S1", "trick": 6}
    assert e.phase == "push" and e.to_act() == [0]
    assert e.legal_actions(0) == ["take", "push:2"]
    assert e.public_view()["pending"] == [{"kind": "push", "seat": 0}]
    assert e.public_view()["push"] == {"seat": 0, "target": 2}
    for bad in ("push:1", "push:3"):
        err = refused(e, 0, bad)
        assert err.code == "push_not_allowed" and err.params == {"target": 2}
    assert refused(e, 2, "take").code == "not_your_turn"
    events = e.apply(0, "push:2")
    assert event(events, "trick_pushed") == {"seat": 0, "target": 2}
    assert e.tricks == [1, 2, 2, 1]
    assert e.phase == "play" and e.to_act() == [2]  # the receiver leads
    assert e.public_view()["last_trick"]["taker"] == 2


def test_take_instead_of_push():
    e = play_ready()
    e.tricks = [1, 2, 1, 1]
    set_hands(e, [["S1", "H2"], ["S9", "H3"], ["S2", "H4"], ["S3", "H5"]])
    play_trick(e, {0: "S1", 1: "S9", 2: "S2", 3: "S3"})
    events = e.apply(0, "take")
    assert event(events, "trick_taken") == {"seat": 0, "auto": False}
    assert e.tricks == [2, 2, 1, 1] and e.to_act() == [0]


@pytest.mark.parametrize(
    "counts",
    [[0, 0, 0, 0], [0, 1, 1, 1], [2, 1, 1, 3]],
    ids=["winner-has-0", "winner-0-others-1", "count-unique"],
)
def test_winner_without_target_takes_without_being_asked(counts):
    e = play_ready()
    e.tricks = list(counts)
    set_hands(e, [["S1", "H2"], ["S9", "H3"], ["S2", "H4"], ["S3", "H5"]])
    events = play_trick(e, {0: "S1", 1: "S9", 2: "S2", 3: "S3"})
    assert event(events, "trick_taken") == {"seat": 0, "auto": True}
    assert e.phase == "play" and e.tricks[0] == counts[0] + 1 and e.to_act() == [0]


def test_first_clockwise_target_wraps_around():
    e = play_ready()
    e.leader = 2
    e.tricks = [2, 2, 1, 2]
    set_hands(e, [["S2", "H2"], ["S3", "H3"], ["S4", "H4"], ["S1", "H5"]])
    play_trick(e, {2: "S4", 3: "S1", 0: "S2", 1: "S3"})
    assert e.legal_actions(3) == ["take", "push:0"]  # seat 0 comes before seat 1 clockwise from 3


def test_push_allowed_on_last_trick():
    e = play_ready()
    e.tricks = [3, 3, 4, 0]
    set_hands(e, [["S1"], ["S9"], ["S2"], ["S3"]])
    play_trick(e, {0: "S1", 1: "S9", 2: "S2", 3: "S3"})
    assert e.legal_actions(0) == ["take", "push:1"]
    events = e.apply(0, "push:1")
    summary = event(events, "deal_scored")
    assert [p["tricks"] for p in summary["players"]] == [3, 4, 4, 0]


# ---- information and events ---------------------------------------------------------------------
def test_hands_and_aside_are_hidden_during_play():
    e = new_game(4)
    through_trump_step(e)
    for seat in range(4):
        hidden = e.hidden_from(seat)
        assert not set(e.hands[seat]) & hidden
        for other in range(4):
            if other != seat:
                assert set(e.hands[other]) <= hidden
        assert set(e.aside) <= hidden and len(e.aside) == 2
        obs = e.observation(seat)
        assert obs["hand"] == e.hands[seat] and obs["seat"] == seat
    view = e.public_view()
    for key in (
        "shops",
        "players",
        "trumps",
        "trump_card",
        "shown_card",
        "dealer",
        "leader",
        "trick",
        "pending",
        "contest",
        "dummy",
        "last_deal",
        "token_pool",
    ):
        assert key in view
    assert [p["hand_count"] for p in view["players"]] == [11] * 4


@pytest.mark.parametrize("n,advanced", [(3, False), (3, True), (4, False), (4, True)])
def test_events_never_carry_hidden_cards(n, advanced):
    chooser = random.Random(n)
    e = new_game(n, seed=11, advanced=advanced)
    while not e.is_terminal():
        seat = chooser.choice(e.to_act())
        hidden_before, deal = e.hidden_from(None), e.deal_number
        events = e.apply(seat, chooser.choice(e.legal_actions(seat)))
        for ev in events:
            text = json.dumps(ev.data)
            if e.deal_number == deal:
                assert not any(f'"{c}"' in text for c in hidden_before & e.hidden_from(None))
            elif ev.code not in ("card_played", "trick_won"):
                # the deal summary and the new deal's events name no card at all
                assert not any(f'"{c}"' in text for c in deck_for(n))
            if ev.code in ("aside_taken", "dummy_card_chosen"):
                assert "card" not in ev.data


def test_locale_covers_every_code():
    catalog = tomllib.loads(LOCALE.read_text())["arsene"]
    errors = {
        "bad_option",
        "not_your_turn",
        "game_over",
        "illegal_action",
        "wrong_phase",
        "bad_aside",
        "not_in_hand",
        "must_lay_diamond",
        "no_trump_marker",
        "must_follow",
        "push_not_allowed",
        "push_only_dummy",
    }
    events = {
        "deal_started",
        "aside_taken",
        "trump_laid",
        "card_shown",
        "dummy_card_chosen",
        "dummy_trick_formed",
        "card_played",
        "trick_won",
        "trick_taken",
        "trick_pushed",
        "trick_pushed_dummy",
        "deal_scored",
        "deal_void",
        "game_over",
    }
    assert errors <= set(catalog["error"]) and events <= set(catalog["event"])
    seen = set()
    for n in (3, 4):
        e = new_game(n, seed=5, advanced=True)
        chooser = random.Random(2)
        while not e.is_terminal():
            seat = chooser.choice(e.to_act())
            seen |= {ev.code for ev in e.apply(seat, chooser.choice(e.legal_actions(seat)))}
    assert seen <= set(catalog["event"])
    assert set(catalog["phase"]) >= {"aside_pick", "trump_choice", "dummy_choice", "play", "push", "over"}
