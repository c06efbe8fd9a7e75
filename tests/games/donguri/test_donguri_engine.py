"""Donguri to Yamaneko rules (RULINGS §2) as concrete scenarios."""

from __future__ import annotations

import pytest

from bot.core.engine import IllegalAction
from cogs.donguri.engine import DonguriEngine, card_points, trick_winner


def seats(*cards: str) -> list[tuple[int, str]]:
    return list(enumerate(cards))


def rigged(n: int, hands: list[list[str]], leader: int = 0, seed: int = 1) -> DonguriEngine:
    """An engine whose current deal has the given hands and leader."""
    engine = DonguriEngine(n, seed, {"length": "short"})
    engine.hands = [list(h) for h in hands]
    engine.leader = engine.turn = leader
    engine.dealer = (leader - 1) % n
    return engine


# ---- majority and ties ------------------------------------------------------------------------
def test_three_players_acorn_majority_highest_wins_whatever_the_suit():
    # ♠3 and ♥8 are acorns, ♦K a wildcat: acorns rule, so the highest card (♦K) wins.
    assert trick_winner(seats("S3", "H8", "D13"), 3)[:2] == (2, "acorn")


def test_three_players_wildcat_majority_lowest_wins():
    # ♠9, ♥A are wildcats, ♦4 an acorn: wildcats rule, so the lowest card (♦4) wins.
    assert trick_winner(seats("S9", "H1", "D4"), 3)[:2] == (2, "wildcat")


def test_ace_is_the_highest_rank_with_the_standard_deck():
    assert trick_winner(seats("S1", "H3", "D5"), 3)[:2] == (0, "acorn")
    assert trick_winner(seats("S1", "H13", "D12"), 3)[:2] == (2, "wildcat")


def test_equal_ranks_the_earlier_card_wins():
    assert trick_winner(seats("S5", "H8", "D8"), 3)[0] == 1
    assert trick_winner(seats("S13", "H9", "D9"), 3)[0] == 1  # wildcats: the first 9 wins


def test_four_players_second_card_is_left_out_of_the_majority_but_can_win():
    # Counted: ♠3, ♦4 (acorns) and ♣K (wildcat) → acorns rule, though the uncounted ♥9 is a wildcat.
    winner, majority, counted = trick_winner(seats("S3", "H9", "D4", "C13"), 4)
    assert (winner, majority, counted) == (3, "acorn", [0, 2, 3])
    # Counted: ♠9, ♦10 (wildcats), ♣3 → wildcats rule; the excluded second card ♥3 ties the
    # lowest rank and, played earlier, wins.
    assert trick_winner(seats("S9", "H3", "D10", "C3"), 4)[:2] == (1, "wildcat")


def test_five_players_all_five_cards_count_and_ranks_run_1_to_16():
    assert trick_winner(seats("S1", "H8", "D9", "C16", "X2"), 5)[:2] == (3, "acorn")
    assert trick_winner(seats("S1", "H9", "D10", "C16", "X2"), 5)[:2] == (0, "wildcat")


# ---- points and decks -------------------------------------------------------------------------
@pytest.mark.parametrize(
    "n,card,points",
    [
        (3, "S6", 3),
        (3, "H11", 3),
        (3, "D5", 2),
        (3, "C12", 2),
        (3, "S1", 1),
        (3, "S9", 1),
        (4, "S5", 2),
        (4, "S6", 2),
        (4, "S11", 2),
        (4, "S12", 2),
        (4, "S13", 1),
        (4, "S3", 1),
        (5, "X4", 2),
        (5, "X5", 2),
        (5, "X12", 2),
        (5, "X13", 2),
        (5, "X16", 1),
        (5, "X1", 1),
    ],
)
def test_card_points(n, card, points):
    assert card_points(card, n) == points


@pytest.mark.parametrize("n,deck,hand", [(3, 36, 12), (4, 48, 12), (5, 80, 16)])
def test_deck_sizes_and_hands(n, deck, hand):
    engine = DonguriEngine(n, 7, {})
    assert len(engine.deck) == deck and len(set(engine.deck)) == deck
    assert all(len(h) == hand for h in engine.hands)
    assert sorted(c for h in engine.hands for c in h) == sorted(engine.deck)


def test_three_players_remove_one_whole_suit_for_the_whole_game_and_the_twos():
    engine = DonguriEngine(3, 11, {})
    removed = engine.removed_suit
    assert all(c[0] != removed and c[1:] != "2" for c in engine.deck)
    play_deal(engine)
    assert engine.removed_suit == removed and all(c[0] != removed for h in engine.hands for c in h)


# ---- play ---------------------------------------------------------------------------------------
def test_follow_suit_is_enforced_with_a_reason():
    engine = rigged(3, [["S3", "H4"], ["S5", "H6"], ["D7", "C8"]])
    engine.apply(0, "play:S3")
    assert engine.legal_actions(1) == ["play:S5"]
    with pytest.raises(IllegalAction) as refused:
        engine.apply(1, "play:H6")
    assert refused.value.code == "must_follow" and refused.value.params == {"suit": "S"}
    assert engine.hands[1] == ["S5", "H6"]
    engine.apply(1, "play:S5")
    assert set(engine.legal_actions(2)) == {"play:D7", "play:C8"}, "void in the led suit: anything"


def test_out_of_turn_and_unknown_cards_are_refused_without_change():
    engine = rigged(3, [["S3"], ["S5"], ["D7"]])
    with pytest.raises(IllegalAction) as refused:
        engine.apply(1, "play:S5")
    assert refused.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as refused:
        engine.apply(0, "play:S9")
    assert refused.value.code == "not_in_hand"
    assert engine.hands == [["S3"], ["S5"], ["D7"]] and engine.history == []


def test_winner_takes_the_trick_and_leads_next():
    engine = rigged(3, [["S3", "H3"], ["S13", "H4"], ["D8", "H5"]])
    for seat, card in ((0, "S3"), (1, "S13"), (2, "D8")):
        events = engine.apply(seat, f"play:{card}")
    (event,) = events
    assert event.code == "trick_won" and event.data["winner"] == 1 and event.data["majority"] == "acorn"
    assert engine.tricks == [0, 1, 0] and engine.turn == 1 and sorted(engine.taken[1]) == ["D8", "S13", "S3"]


def test_penalty_is_the_table_maximum_minus_own_points():
    # Seat 0 takes both tricks: ♠6 (3) ♥J (3) ♦5 (2) in trick 1, ♠Q (2) ♥3 ♦4 in trick 2.
    engine = rigged(3, [["S6", "S12"], ["H11", "H3"], ["D5", "D4"]])
    engine.deals_total = 1
    engine.apply(0, "play:S6")
    engine.apply(1, "play:H11")
    engine.apply(2, "play:D5")  # acorns ♠6 ♦5 vs wildcat ♥J → highest: ♥J wins
    assert engine.turn == 1
    engine.apply(1, "play:H3")
    engine.apply(2, "play:D4")
    events = engine.apply(0, "play:S12")  # acorns → highest: ♠Q
    scored = next(e for e in events if e.code == "deal_scored")
    assert scored.data["points"] == [4, 8, 0]
    assert scored.data["penalties"] == [4, 0, 8]
    assert engine.is_terminal()
    assert engine.results()["ranks"] == [2, 1, 3] and engine.results()["scores"] == [4, 0, 8]


def play_deal(engine: DonguriEngine) -> list:
    events = []
    deal = engine.deal_number
    while not engine.is_terminal() and engine.deal_number == deal:
        (seat,) = engine.to_act()
        events += engine.apply(seat, engine.legal_actions(seat)[0])
    return events


@pytest.mark.parametrize(
    "n,length,deals",
    [(3, "standard", 9), (3, "short", 6), (4, "standard", 8), (4, "short", 4), (5, "standard", 5)],
)
def test_number_of_deals_dealer_rotation_and_game_end(n, length, deals):
    engine = DonguriEngine(n, 3, {"length": length})
    first_dealer = engine.dealer
    for deal in range(deals):
        assert engine.dealer == (first_dealer + deal) % n
        assert engine.turn == (engine.dealer + 1) % n, "the dealer's left neighbour leads"
        events = play_deal(engine)
        assert sum(e.code == "trick_won" for e in events) == (16 if n == 5 else 12)
    assert engine.is_terminal() and len(engine.deal_log) == deals
    totals = [sum(d["penalties"][s] for d in engine.deal_log) for s in range(n)]
    assert engine.results()["scores"] == totals
    best = min(totals)
    assert [r == 1 for r in engine.results()["ranks"]] == [t == best for t in totals], "ties share"
    with pytest.raises(IllegalAction):
        engine.apply(0, "play:S3")


def test_each_deal_someone_has_zero_penalty():
    engine = DonguriEngine(4, 5, {"length": "short"})
    while not engine.is_terminal():
        play_deal(engine)
    assert all(0 in d["penalties"] for d in engine.deal_log)
    assert all(sum(d["points"]) == sum(card_points(c, 4) for c in engine.deck) for d in engine.deal_log)
