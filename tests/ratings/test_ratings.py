"""Ratings move the way players expect: winners up, losers down, ties fair, teammates together,
certainty growing with every game, and a newcomer showing 1000."""

from __future__ import annotations

import pytest

from bot.ratings.model import Rating, conservative, display, fresh, rate


def test_fresh_player_is_the_model_prior_and_shows_1000():
    assert fresh() == Rating(25.0, 25.0 / 3.0)
    assert conservative(fresh()) == pytest.approx(0.0)
    assert display(fresh()) == 1000


def test_three_player_game_orders_the_new_ratings_like_the_finish():
    new = rate([[fresh()], [fresh()], [fresh()]], [1, 2, 3])
    first, second, third = (team[0] for team in new)
    assert first.mu > 25.0
    assert third.mu < 25.0
    assert first.mu > second.mu > third.mu


def test_result_follows_the_teams_not_the_listing_order():
    listed = rate([[fresh()], [Rating(30.0, 5.0)], [Rating(20.0, 6.0)]], [3, 1, 2])
    reordered = rate([[Rating(30.0, 5.0)], [Rating(20.0, 6.0)], [fresh()]], [1, 2, 3])
    assert listed[0][0].mu == pytest.approx(reordered[2][0].mu)
    assert listed[1][0].mu == pytest.approx(reordered[0][0].mu)
    assert listed[2][0].mu == pytest.approx(reordered[1][0].mu)


def test_full_tie_between_equals_keeps_mu_but_gains_certainty():
    new = rate([[fresh()], [fresh()], [fresh()]], [1, 1, 1])
    for (r,) in new:
        assert r.mu == pytest.approx(25.0, abs=1e-9)
        assert r.sigma < fresh().sigma


def test_two_versus_two_moves_teammates_together():
    (a, b), (c, d) = rate([[fresh(), fresh()], [fresh(), fresh()]], [2, 1])
    assert a.mu < 25.0 and b.mu < 25.0
    assert c.mu > 25.0 and d.mu > 25.0
    assert a.mu == pytest.approx(b.mu)
    assert c.mu == pytest.approx(d.mu)


def test_shared_first_place_gives_equal_starters_the_same_new_mu():
    new = rate([[fresh()], [fresh()], [fresh()], [fresh()]], [1, 1, 3, 4])
    assert new[0][0].mu == pytest.approx(new[1][0].mu)
    assert new[0][0].mu > 25.0
    assert new[3][0].mu < 25.0


def test_sigma_shrinks_over_several_games_and_display_rises_for_a_steady_winner():
    me, other = fresh(), fresh()
    sigmas = [me.sigma]
    shown = [display(me)]
    for _ in range(4):
        (me,), (other,) = rate([[me], [other]], [1, 2])
        sigmas.append(me.sigma)
        shown.append(display(me))
    assert sigmas == sorted(sigmas, reverse=True) and len(set(sigmas)) == len(sigmas)
    assert shown == sorted(shown) and shown[-1] > 1000


def test_rate_needs_one_rank_per_team():
    with pytest.raises(ValueError):
        rate([[fresh()], [fresh()]], [1])


def test_shared_first_place_still_ranks_third_above_fourth():
    start = [[fresh()] for _ in range(4)]
    first, second, third, fourth = (team[0].mu for team in rate(start, [1, 1, 3, 4]))
    assert first == pytest.approx(second)
    assert first > third > fourth
    assert third < fresh().mu  # beaten by two players, it loses ground
