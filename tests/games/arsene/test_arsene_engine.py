"""Arsène, new edition: engine scenarios from the seed and RULINGS §1."""

from __future__ import annotations

import json
import random
import tomllib
from pathlib import Path

import pytest

from bot.core.engine import IllegalAction
from cogs.arsene.engine import DUMMY, ArseneEngine, deck_for, sort_key

LOCALE = Path(__file__).resolve().parents[3] / "cogs" / "arsene" / "locales" / "en.toml"


# ---- helpers ------------------------------------------------------------------------------------
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


def refused(e: ArseneEngine, seat: int, action: str) -> IllegalAction:
    before = json.dumps(e.public_view(), sort_keys=True)
    with pytest.raises(IllegalAction) as info:
        e.apply(seat, action)
    assert json.dumps(e.public_view(), sort_keys=True) == before
    return info.value


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


def test_non_face_diamond_must_be_laid_face_up():
    e = new_game(4)
    picker = (e.dealer + 1) % 4
    e.apply(picker, "aside:0")
    hand = ["D9", "D12", "D13", "S1", "S13", "H5", "H6", "C2", "C3", "C4", "C5", "C6"]
    give_hand(e, picker, hand)
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
    e = new_game(4)
    picker = (e.dealer + 1) % 4
    e.apply(picker, "aside:2")
    hand = ["D11", "D12", "S1", "S13", "H5", "H6", "C2", "C3", "C4", "C5", "C6", "C7"]
    give_hand(e, picker, hand)
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
    e = new_game(4)
    picker = (e.dealer + 1) % 4
    e.apply(picker, "aside:0")
    hand = ["S1", "S13", "H5", "H6", "C2", "C3", "C4", "C5", "C6", "C7", "C8", "C9"]
    give_hand(e, picker, hand)
    assert len(e.legal_actions(picker)) == 12 and all(a.startswith("show:") for a in e.legal_actions(picker))


# ---- playing tricks -----------------------------------------------------------------------------
def play_ready(n: int = 4, trumps: bool = True, advanced: bool = False, seed: int = 7) -> ArseneEngine:
    e = new_game(n, seed, advanced)
    through_trump_step(e)
    e.trumps = trumps
    e.leader = 0
    return e


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


# ---- scoring: shops -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "shop,groups", [(1, [1, 1, 1]), (2, [1, 2, 3]), (3, [1, 3, 5]), (4, [1, 2, 3]), (5, [1, 1, 1])]
)
def test_chip_groups_are_taken_smallest_first(shop, groups):
    e = new_game(4)
    total = 0
    for i, group in enumerate(groups):
        events = finish_deal(e, [shop, 11 - shop, 0, 0])  # 6+ tricks and 0 tricks visit no shop
        assert line(events, 0)["chips_taken"] == group and line(events, 0)["shop"] == shop
        assert line(events, 1)["shop"] is None and line(events, 1)["chips_taken"] == 0
        total += group
        assert e.holdings.chips == [total, 0, 0, 0]
        assert e.holdings.shops[shop] == groups[i + 1 :]
    assert event(events, "deal_scored")["shops_emptied"] == [shop]
    assert e.public_view()["shops"][shop - 1]["empty"] is True
    assert not e.is_terminal()


def test_two_players_at_different_shops_both_take():
    e = new_game(4)
    events = finish_deal(e, [3, 2, 1, 5])
    assert [line(events, s)["chips_taken"] for s in range(4)] == [1, 1, 1, 1]
    assert e.holdings.chips == [1, 1, 1, 1]


def test_clash_gives_tokens_with_a_cap_of_two():
    e = new_game(4)
    for expected, gained in ((1, True), (2, True), (2, False)):  # the third time: already holding 2
        events = finish_deal(e, [2, 2, 7, 0])
        for s in (0, 1):
            assert line(events, s)["clash"] is True and line(events, s)["chips_taken"] == 0
            assert line(events, s)["token_gained"] is gained
        assert e.holdings.tokens == [expected, expected, 0, 0]
    assert e.holdings.shops[2] == [1, 2, 3] and e.holdings.chips == [0, 0, 0, 0]
    assert e.holdings.pool == 4
    assert e.public_view()["players"][0]["tokens"] == 2


def test_three_way_clash():
    e = new_game(4)
    events = finish_deal(e, [3, 3, 3, 2])
    assert [line(events, s)["clash"] for s in range(4)] == [True, True, True, False]
    assert e.holdings.tokens == [1, 1, 1, 0] and e.holdings.chips == [0, 0, 0, 1]


def empty_shop(e: ArseneEngine, shop: int) -> None:
    e.holdings.shops[shop] = []


@pytest.mark.parametrize("tokens", [0, 1])
def test_police_catches_player_without_two_tokens(tokens):
    e = new_game(4)
    empty_shop(e, 1)
    e.holdings.chips = [5, 2, 4, 0]
    e.holdings.tokens = [tokens, 0, 0, 0]
    events = finish_deal(e, [1, 3, 7, 0])
    assert line(events, 0)["police"] == "caught" and line(events, 0)["chips_lost"] == 5
    # the others finish scoring this deal, then the game ends
    assert line(events, 1)["chips_taken"] == 1
    assert e.holdings.chips == [0, 3, 4, 0]
    assert e.holdings.tokens[0] == tokens  # a caught player keeps a 0 or 1 token (ruling)
    assert e.is_terminal() and e.to_act() == []
    res = e.results()
    assert res["end_reason"] == "caught" and res["ranks"] == [3, 2, 1, 3] and res["winners"] == [2]
    assert event(events, "game_over")["reason"] == "caught"
    assert refused(e, 0, "take").code == "game_over"


def test_police_with_two_tokens_exempts_once():
    e = new_game(4)
    empty_shop(e, 1)
    e.holdings.chips = [5, 2, 4, 0]
    e.holdings.tokens = [2, 0, 0, 0]
    e.holdings.pool = 6
    events = finish_deal(e, [1, 3, 7, 0])
    assert line(events, 0)["police"] == "exempt" and line(events, 0)["tokens_returned"] == 2
    assert e.holdings.chips == [5, 3, 4, 0] and e.holdings.tokens[0] == 0 and e.holdings.pool == 8
    assert e.holdings.exempt_used == [True, False, False, False]
    assert e.public_view()["players"][0]["exempt_used"] is True
    assert not e.is_terminal()
    # never takes a token again this game
    events = finish_deal(e, [2, 2, 7, 0])
    assert line(events, 0)["token_gained"] is False and line(events, 1)["token_gained"] is True
    assert e.holdings.tokens[:2] == [0, 1]
    # caught again: no second exemption
    events = finish_deal(e, [1, 3, 7, 0])
    assert line(events, 0)["police"] == "caught" and e.holdings.chips[0] == 0
    assert e.is_terminal()


def test_no_clash_tokens_at_an_empty_shop():
    e = new_game(4)
    empty_shop(e, 2)
    e.holdings.chips = [3, 3, 1, 0]
    e.holdings.tokens = [1, 2, 0, 0]
    e.holdings.pool = 5
    events = finish_deal(e, [2, 2, 7, 0])
    assert line(events, 0)["police"] == "caught" and line(events, 0)["token_gained"] is False
    assert line(events, 1)["police"] == "exempt"
    assert e.holdings.tokens == [1, 0, 0, 0] and e.holdings.chips == [0, 3, 1, 0]
    assert e.is_terminal() and e.results()["winners"] == [1]


def test_caught_with_no_chips_still_ends_the_game():
    e = new_game(4)
    empty_shop(e, 1)
    e.holdings.chips = [0, 2, 0, 0]
    events = finish_deal(e, [1, 10, 0, 0])
    assert line(events, 0)["police"] == "caught"
    assert e.is_terminal() and e.results()["ranks"] == [2, 1, 2, 2]


def test_tied_winners_share_the_win():
    e = new_game(4)
    empty_shop(e, 1)
    e.holdings.chips = [9, 4, 3, 4]
    finish_deal(e, [1, 10, 0, 0])
    res = e.results()
    assert res["ranks"] == [4, 1, 3, 1] and res["winners"] == [1, 3]
    assert res["scores"] == [0, 4, 3, 4]


def test_tie_at_zero_shares_the_win():
    e = new_game(4)
    empty_shop(e, 1)
    finish_deal(e, [1, 10, 0, 0])
    assert e.results()["ranks"] == [1, 1, 1, 1]


def test_void_deal_when_every_player_is_caught():
    e = new_game(4)
    for shop in (1, 2, 3, 5):
        empty_shop(e, shop)
    e.holdings.chips = [3, 4, 0, 6]
    e.holdings.tokens = [1, 0, 1, 0]
    e.holdings.pool = 6
    dealer, deal = e.dealer, e.deal_number
    events = finish_deal(e, [1, 2, 3, 5])
    summary = event(events, "deal_scored")
    assert summary["void"] is True and summary["caught"] == [0, 1, 2, 3]
    assert [p["police"] for p in summary["players"]] == ["caught"] * 4
    assert event(events, "deal_void") == {"deal": deal}
    # the scoring is undone and the next deal is played
    assert e.holdings.chips == [3, 4, 0, 6] and e.holdings.tokens == [1, 0, 1, 0] and e.holdings.pool == 6
    assert not e.is_terminal()
    assert e.deal_number == deal + 1 and e.dealer == (dealer + 1) % 4 and e.phase == "aside_pick"
    assert e.results()["void_deals"] == 1


def test_one_exempted_player_prevents_the_void():
    e = new_game(4)
    for shop in (1, 2, 3, 5):
        empty_shop(e, shop)
    e.holdings.chips = [3, 4, 0, 6]
    e.holdings.tokens = [2, 0, 1, 0]
    events = finish_deal(e, [1, 2, 3, 5])
    assert event(events, "deal_scored")["void"] is False
    assert e.is_terminal() and e.holdings.chips == [3, 0, 0, 0] and e.results()["winners"] == [0]


def test_all_shops_empty_ends_the_game():
    e = new_game(4)
    for shop in (1, 2, 3, 4):
        empty_shop(e, shop)
    e.holdings.shops[5] = [1]
    e.holdings.chips = [2, 7, 3, 0]
    events = finish_deal(e, [5, 6, 0, 0])
    assert line(events, 0)["chips_taken"] == 1
    assert e.is_terminal() and e.results()["end_reason"] == "shops_empty"
    assert e.results()["ranks"] == [2, 1, 2, 4]
    assert e.public_view()["phase"] == "over" and e.public_view()["result"]["winners"] == [1]


def test_last_shop_emptied_while_someone_is_caught_ends_as_caught():
    e = new_game(4)
    for shop in (1, 2, 3, 4):
        empty_shop(e, shop)
    e.holdings.shops[5] = [1]
    e.holdings.chips = [2, 7, 3, 0]
    events = finish_deal(e, [5, 1, 2, 3])  # seat 0 empties shop 5, the others are caught
    assert event(events, "deal_scored")["shops_emptied"] == [5]
    assert e.is_terminal() and e.results()["end_reason"] == "caught"
    assert e.holdings.chips == [3, 0, 0, 0]


def test_dealer_rotates_and_new_deal_is_dealt():
    e = new_game(4)
    first = e.dealer
    events = finish_deal(e, [3, 8, 0, 0])
    assert event(events, "deal_started") == {"deal": 2, "seat": (first + 1) % 4, "contest": False}
    assert e.dealer == (first + 1) % 4 and e.deal_number == 2
    assert e.to_act() == [(first + 2) % 4]
    assert [len(h) for h in e.hands] == [11] * 4 and len(e.aside) == 3
    assert e.tricks == [0, 0, 0, 0] and e.public_view()["last_trick"] is None
    assert e.public_view()["last_deal"]["players"][0]["chips_taken"] == 1


# ---- advanced rules: contest mode ---------------------------------------------------------------
def test_contest_mode_starts_the_deal_after_a_shop_first_empties():
    e = new_game(4, advanced=True)
    e.holdings.shops[1] = [1]
    assert e.public_view()["contest"] is False
    events = finish_deal(e, [1, 2, 8, 0])  # shop 1 empties in this deal
    assert event(events, "deal_scored")["contest"] is False
    assert e.public_view()["contest"] is True and event(events, "deal_started")["contest"] is True
    basic = new_game(4, advanced=False)
    basic.holdings.shops[1] = [1]
    finish_deal(basic, [1, 2, 8, 0])
    assert basic.public_view()["contest"] is False


def contest_game(chips: list[int], tokens: list[int] | None = None, n: int = 4) -> ArseneEngine:
    e = new_game(n, advanced=True)
    empty_shop(e, 5)
    e.holdings.chips = list(chips)
    if tokens:
        e.holdings.tokens = list(tokens)
        e.holdings.pool = 8 - sum(tokens)
    e.contest = True  # as if dealt after shop 5 emptied
    return e


def test_contest_two_clashing_players_swap():
    e = contest_game([2, 4, 1, 0])
    events = finish_deal(e, [3, 3, 4, 1])
    assert e.holdings.chips == [4, 2, 2, 1]
    assert line(events, 0)["exchange_to"] == 1 and line(events, 0)["exchange_from"] == 1
    assert e.holdings.tokens == [0, 0, 0, 0]  # no tokens in contest mode
    assert e.holdings.shops[3] == [1, 3, 5]


def test_contest_three_clashing_players_pass_clockwise():
    e = contest_game([1, 5, 3, 7])
    events = finish_deal(e, [3, 3, 2, 3])
    # 0 -> 1 -> 3 -> 0; seat 2 takes from shop 2
    assert e.holdings.chips == [7, 1, 4, 5]
    assert [line(events, s)["exchange_to"] for s in range(4)] == [1, 3, None, 0]


def test_contest_zero_trick_clash_exchanges():
    e = contest_game([1, 5, 3, 7])
    events = finish_deal(e, [0, 11, 0, 0])
    # seats 0, 2, 3 all took no trick: 0 -> 2 -> 3 -> 0
    assert e.holdings.chips == [7, 5, 1, 3]
    assert line(events, 1)["exchange_to"] is None and line(events, 0)["clash"] is True


def test_zero_tricks_never_exchange_in_basic_mode():
    e = new_game(4)
    e.holdings.chips = [1, 5, 3, 7]
    events = finish_deal(e, [0, 11, 0, 0])
    assert e.holdings.chips == [1, 5, 3, 7] and line(events, 0)["clash"] is False
    assert e.holdings.tokens == [0, 0, 0, 0]


def test_contest_police_first_then_exchange_even_when_the_game_ends():
    e = contest_game([5, 3, 0, 1], tokens=[2, 0, 0, 0])
    events = finish_deal(e, [5, 5, 1, 0])  # shop 5 is empty: police, then the two swap
    assert line(events, 0)["police"] == "exempt" and line(events, 1)["police"] == "caught"
    assert e.holdings.chips == [0, 5, 1, 1]
    assert e.is_terminal() and e.results()["winners"] == [1]


def test_contest_clash_gives_no_tokens():
    e = contest_game([0, 0, 0, 0], tokens=[1, 1, 0, 0])
    finish_deal(e, [2, 2, 7, 0])
    assert e.holdings.tokens == [1, 1, 0, 0]


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


def test_push_to_the_dummy_is_the_only_target():
    e = play_ready(n=3)
    e.dummy_tricks = 1
    e.tricks = [1, 1, 0]
    set_hands(e, [["S1", "H8"], ["S9", "H9"], ["S5", "H10"]])
    play_trick(e, {0: "S1", 1: "S9", 2: "S5"})
    assert e.legal_actions(0) == ["take", f"push:{DUMMY}"]
    assert refused(e, 0, "push:1").code == "push_only_dummy"
    events = e.apply(0, "push:dummy")
    assert event(events, "trick_pushed_dummy") == {"seat": 0}
    assert e.dummy_tricks == 2 and e.tricks == [1, 1, 0]
    assert e.to_act() == [1]  # the pusher's left neighbour leads


def test_push_to_dummy_from_last_seat_wraps_leader():
    e = play_ready(n=3)
    e.dummy_tricks = 2
    e.tricks = [0, 0, 2]
    set_hands(e, [["S5", "H8"], ["S9", "H9"], ["S1", "H10"]])
    play_trick(e, {0: "S5", 1: "S9", 2: "S1"})
    e.apply(2, "push:dummy")
    assert e.to_act() == [0]


def test_three_player_push_to_a_player_when_dummy_differs():
    e = play_ready(n=3)
    e.dummy_tricks = 2
    e.tricks = [1, 0, 1]
    set_hands(e, [["S1", "H8"], ["S9", "H9"], ["S5", "H10"]])
    play_trick(e, {0: "S1", 1: "S9", 2: "S5"})
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
    e = new_game(3)
    empty_shop(e, 1)
    e.holdings.chips = [0, 4, 0]
    events = finish_deal(e, [3, 7, 0], dummy=1)
    assert event(events, "deal_scored")["dummy"]["police"] is True
    assert not e.is_terminal() and e.holdings.chips == [1, 4, 0]


def test_player_with_dummy_at_an_empty_shop_is_caught():
    e = new_game(3)
    empty_shop(e, 2)
    e.holdings.chips = [3, 4, 0]
    events = finish_deal(e, [2, 7, 0], dummy=2)
    assert line(events, 0)["police"] == "caught" and line(events, 0)["token_gained"] is False
    assert e.is_terminal() and e.holdings.chips == [0, 4, 0]


def test_three_player_void_deal():
    e = new_game(3)
    for shop in (1, 2, 5):
        empty_shop(e, shop)
    e.holdings.chips = [1, 2, 3]
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
