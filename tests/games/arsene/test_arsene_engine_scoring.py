"""Arsène engine scenarios for the end of a deal: shops, clashes, the police and the contest mode."""

from __future__ import annotations

import pytest

from tests.support.arsene_engine import at_shops, contest_game, empty_shop, event, finish_deal, line, new_game
from tests.support.engines import refused


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


@pytest.mark.parametrize("tokens", [0, 1])
def test_police_catches_player_without_two_tokens(tokens):
    e = at_shops([1], [5, 2, 4, 0], [tokens, 0, 0, 0])
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
    e = at_shops([1], [5, 2, 4, 0], [2, 0, 0, 0], 6)
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
    e = at_shops([2], [3, 3, 1, 0], [1, 2, 0, 0], 5)
    events = finish_deal(e, [2, 2, 7, 0])
    assert line(events, 0)["police"] == "caught" and line(events, 0)["token_gained"] is False
    assert line(events, 1)["police"] == "exempt"
    assert e.holdings.tokens == [1, 0, 0, 0] and e.holdings.chips == [0, 3, 1, 0]
    assert e.is_terminal() and e.results()["winners"] == [1]


def test_caught_with_no_chips_still_ends_the_game():
    e = at_shops([1], [0, 2, 0, 0])
    events = finish_deal(e, [1, 10, 0, 0])
    assert line(events, 0)["police"] == "caught"
    assert e.is_terminal() and e.results()["ranks"] == [2, 1, 2, 2]


def test_tied_winners_share_the_win():
    e = at_shops([1], [9, 4, 3, 4])
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
    e = at_shops((1, 2, 3, 5), [3, 4, 0, 6], [1, 0, 1, 0], 6)
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
    e = at_shops((1, 2, 3, 5), [3, 4, 0, 6], [2, 0, 1, 0])
    events = finish_deal(e, [1, 2, 3, 5])
    assert event(events, "deal_scored")["void"] is False
    assert e.is_terminal() and e.holdings.chips == [3, 0, 0, 0] and e.results()["winners"] == [0]


def last_chip_at_shop_5():
    """Shops 1 to 4 empty and one chip left at shop 5; the players hold 2, 7, 3 and 0 chips."""
    e = at_shops((1, 2, 3, 4), [2, 7, 3, 0])
    e.holdings.shops[5] = [1]
    return e


def test_all_shops_empty_ends_the_game():
    e = last_chip_at_shop_5()
    events = finish_deal(e, [5, 6, 0, 0])
    assert line(events, 0)["chips_taken"] == 1
    assert e.is_terminal() and e.results()["end_reason"] == "shops_empty"
    assert e.results()["ranks"] == [2, 1, 2, 4]
    assert e.public_view()["phase"] == "over" and e.public_view()["result"]["winners"] == [1]


def test_last_shop_emptied_while_someone_is_caught_ends_as_caught():
    e = last_chip_at_shop_5()
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
