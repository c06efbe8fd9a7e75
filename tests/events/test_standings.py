"""Tournament points and standings: shared places split points fairly, and each tie-break decides
exactly when every key before it is equal, ending in a lot that is the same for the same seed."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.core.i18n import Lang
from bot.events.render import standings_lines, standings_message
from bot.events.standings import (
    TIE_BREAKS,
    Finish,
    Standing,
    bye_points,
    default_points,
    place_points,
    standings,
    table_points,
    team_finishes,
    team_ratings,
)
from bot.storage.events import Entrant, Tournament


def table(round_: int, order: list[int], points: list[float] | None = None, ranks: list[int] | None = None):
    """Finishes for one table of single players listed best first (``ranks`` for ties)."""
    ranks = ranks or list(range(1, len(order) + 1))
    scored = place_points(points or default_points(len(order)), ranks)
    return [
        Finish(
            round=round_,
            player=p,
            points=scored[i],
            place=ranks[i],
            size=len(order),
            opponents=tuple(o for o in order if o != p),
        )
        for i, p in enumerate(order)
    ]


def order(result) -> list[int]:
    return [s.player for s in result]


def by_player(result) -> dict:
    return {s.player: s for s in result}


# ---- points -----------------------------------------------------------------------------------
def test_default_points_give_the_winner_a_two_point_lead():
    assert default_points(2) == [2, 0]
    assert default_points(3) == [3, 1, 0]
    assert default_points(4) == [4, 2, 1, 0]
    assert default_points(5) == [5, 3, 2, 1, 0]


def test_tied_units_share_the_average_of_their_places():
    assert place_points([3, 1, 0], [1, 2, 3]) == [3, 1, 0]
    assert place_points([3, 1, 0], [1, 1, 3]) == [2.0, 2.0, 0.0]
    assert place_points([3, 1, 0], [1, 2, 2]) == [3, 0.5, 0.5]
    assert place_points([3, 1, 0], [2, 2, 1]) == [0.5, 0.5, 3]
    assert place_points([4, 2, 1, 0], [1, 1, 1, 4]) == pytest.approx([7 / 3, 7 / 3, 7 / 3, 0])


def test_places_past_the_points_list_score_nothing():
    assert place_points([3, 1], [1, 2, 3, 4]) == [3, 1, 0, 0]
    assert place_points([3, 1], [1, 2, 2]) == [3, 0.5, 0.5]


# ---- Swiss tie-breaks -------------------------------------------------------------------------
def test_six_player_swiss_breaks_a_points_tie_by_opponents_points():
    finishes = (
        table(1, [1, 2, 3])
        + table(1, [4, 5, 6])
        + table(2, [4, 1, 5])  # 1 met the leader in round 2
        + table(2, [2, 3, 6])
    )
    # Player 2 has the better rating: opponents must decide before rating does.
    result = standings([1, 2, 3, 4, 5, 6], finishes, {2: 10.0}, seed=1)
    rows = by_player(result)
    assert rows[1].points == rows[2].points == 4
    assert rows[1].wins == rows[2].wins == 1
    assert rows[1].place == rows[2].place == 0.25
    assert rows[1].opponents == 3.0  # 2, 3, 4, 5 -> (4 + 1 + 6 + 1) / 4
    assert rows[2].opponents == 1.5  # 1, 3, 3, 6 -> (4 + 1 + 1 + 0) / 4
    assert order(result) == [4, 1, 2, 5, 3, 6]
    assert [s.rank for s in result] == [1, 2, 3, 4, 5, 6]
    assert all(s.played == 2 and s.byes == 0 and s.reached == 2 for s in result)


def test_equal_opponents_leave_it_to_the_number_of_wins():
    # 1 wins then finishes last; 2 is second twice: same points, same opponents, 2 places better.
    finishes = table(1, [1, 2, 3, 4]) + table(2, [3, 2, 4, 1])
    result = standings([1, 2, 3, 4], finishes, {2: 10.0}, seed=1)
    rows = by_player(result)
    assert rows[1].points == rows[2].points == 4
    assert rows[1].opponents == pytest.approx(rows[2].opponents)
    assert (rows[1].wins, rows[2].wins) == (1, 0)
    assert rows[2].place < rows[1].place
    assert order(result).index(1) < order(result).index(2)


def test_equal_wins_leave_it_to_the_average_place():
    # Second and third score the same here, so only the place tells 1 (second at one table) from 2
    # (third at another; they never met, so head-to-head cannot).
    points = [3, 1, 1, 0]
    finishes = table(1, [3, 1, 5, 6], points=points) + table(1, [4, 7, 2, 8], points=points)
    result = standings(list(range(1, 9)), finishes, {2: 10.0}, seed=1)
    rows = by_player(result)
    assert rows[1].points == rows[2].points == 1
    assert rows[1].opponents == rows[2].opponents
    assert rows[1].direct == rows[2].direct == 0
    assert rows[1].wins == rows[2].wins == 0
    assert rows[1].place == pytest.approx(1 / 3)
    assert rows[2].place == pytest.approx(2 / 3)
    assert order(result).index(1) < order(result).index(2)


def test_equal_places_leave_it_to_the_rating():
    finishes = table(1, [1, 2], ranks=[1, 1])
    assert by_player(standings([1, 2], finishes, {}, seed=0))[1].points == 1.0
    assert order(standings([1, 2], finishes, {1: 3.0, 2: 5.0}, seed=0)) == [2, 1]
    assert order(standings([1, 2], finishes, {1: 5.0, 2: 3.0}, seed=0)) == [1, 2]


def test_an_exact_tie_is_decided_by_a_seeded_lot():
    finishes = table(1, [1, 2], ranks=[1, 1])
    draws = {seed: order(standings([1, 2], finishes, {}, seed=seed)) for seed in range(20)}
    assert {tuple(d) for d in draws.values()} == {(1, 2), (2, 1)}
    for seed, drawn in draws.items():
        assert order(standings([1, 2], finishes, {}, seed=seed)) == drawn
        assert order(standings([2, 1], finishes, {}, seed=seed)) == drawn  # listing order does not matter


def test_tie_breaks_are_listed_in_the_order_they_apply():
    assert TIE_BREAKS == ("points", "opponents", "direct", "wins", "place", "rating", "lot")


# ---- byes, drops, absent players --------------------------------------------------------------
def test_a_bye_adds_points_but_no_opponents_and_no_table():
    finishes = table(1, [1, 2]) + [Finish(round=1, player=3, points=2, bye=True)] + table(2, [3, 1])
    rows = by_player(standings([1, 2, 3], finishes, {}, seed=0))
    assert rows[3].points == 4
    assert (rows[3].played, rows[3].byes, rows[3].reached) == (1, 1, 2)
    assert rows[3].opponents == 2.0  # only player 1, met once in round 2
    assert rows[3].wins == 1  # the bye is not a win
    assert rows[1].opponents == pytest.approx((0 + 4) / 2)  # the bye's points count for the opponent


def test_dropped_players_rank_below_everyone_who_played_on_and_absent_players_show_zeros():
    finishes = table(1, [1, 2, 3])
    result = standings([1, 2, 3, 4], finishes, {}, seed=0, dropped={1})
    # Player 1 won the only table but left: their results stay, the prize places do not.
    assert order(result) == [2, 3, 4, 1]
    assert [s.dropped for s in result] == [False, False, False, True]
    assert by_player(result)[1].points == 3 and by_player(result)[2].opponents == 1.5
    absent = result[2]
    zeros = (absent.points, absent.opponents, absent.wins, absent.place, absent.played, absent.reached)
    assert zeros == (0,) * 6


def test_a_player_who_drops_after_three_rounds_of_five_takes_no_podium_place():
    """The Othello Swiss of eleven: a player second on points dropped after round 3 and got silver."""
    finishes = []
    rounds = [
        [(2, 1), (3, 4), (5, 6)],
        [(2, 3), (1, 5), (7, 6)],
        [(2, 4), (1, 6), (3, 5)],
        [(1, 3), (5, 6), (4, 7)],  # 2 has dropped
        [(1, 4), (3, 6), (7, 5)],
    ]
    for round_, pairs in enumerate(rounds, start=1):
        for pair in pairs:
            finishes += table(round_, list(pair))
    result = standings(list(range(1, 8)), finishes, {}, seed=0, dropped={2})
    by_points = sorted(result, key=lambda s: -s.points)
    assert 2 in [s.player for s in by_points[:3]], "2 would be on the podium by points"
    top = [s.player for s in result if not s.dropped][:3]
    assert order(result)[:3] == top and 2 not in top
    assert order(result)[-1] == 2


# ---- short tables -------------------------------------------------------------------------------
def test_a_short_table_scores_each_place_as_the_share_of_the_full_table_it_stands_for():
    """Donguri, 13 players at tables of four: the three tables of three used to score 4/2/1 (2.33
    on average) against 1.75 at the full table."""
    assert table_points([4, 2, 1, 0], 4, 4) == [4, 2, 1, 0]
    assert table_points([4, 2, 1, 0], 3, 4) == [Fraction(7, 2), Fraction(3, 2), Fraction(1, 4)]
    for points, places in (([4, 2, 1, 0], 4), ([5, 3, 2, 1, 0], 5), ([6, 4, 3, 2, 1, 0], 6), ([3, 1], 4)):
        average = sum(table_points(points, places, places)) / places
        for size in range(2, places + 1):
            scored = table_points(points, size, places)
            assert sum(scored) / size == average, (points, size)
            assert scored == sorted(scored, reverse=True), "a better place never scores less"
        assert bye_points(points, places) == float(average)
    assert place_points([4, 2, 1, 0], [1, 2, 3], places=4) == [3.5, 1.5, 0.25]
    assert place_points([4, 2, 1, 0], [1, 1, 3], places=4) == [2.5, 2.5, 0.25], "ties still share"


# ---- teams ----------------------------------------------------------------------------------------
def test_fixed_teams_are_ranked_as_teams_with_their_own_tie_breaks():
    """Final Quest fixed pairs: partners share every result, so they rank as one team (not 1st and
    2nd apart), the opponents' average counts teams, and the rating is the pair's average."""
    teams = {1: [11, 12], 2: [21, 22], 3: [31, 32], 4: [41, 42]}

    def match(round_, winner, loser):
        rows = []
        for team, place, points in ((winner, 1, 2.0), (loser, 2, 0.0)):
            other = loser if team == winner else winner
            for player in teams[team]:
                rows.append(Finish(round_, player, points, place, 2, tuple(teams[other])))
        return rows

    finishes = match(1, 1, 2) + match(1, 3, 4) + match(2, 1, 3) + match(2, 2, 4)
    ratings = {11: 10.0, 12: 0.0, 21: 30.0, 22: 30.0}
    finishes, ratings = team_finishes(teams, finishes), team_ratings(teams, ratings)
    result = standings(list(teams), finishes, ratings, seed=5)
    assert order(result) == [1, 2, 3, 4]
    rows = by_player(result)
    assert rows[1].points == 4 and rows[1].wins == 2 and rows[1].played == 2
    assert rows[2].opponents == pytest.approx((4 + 0) / 2), "opponents are teams, each counted once"
    assert rows[1].rating == 5.0 and rows[2].rating == 30.0
    # 2 and 3 both have 2 points and the same opponents' average: first places, then place, decide.
    assert rows[2].points == rows[3].points == 2
    assert standings(list(teams), finishes, ratings, seed=5, dropped={1})[-1].player == 1


# ---- elimination -----------------------------------------------------------------------------
def test_elimination_ranks_by_round_reached_before_points():
    finishes = (
        table(1, [1, 2, 3, 4]) + table(1, [5, 6, 7, 8]) + table(2, [5, 2], points=[2, 0])  # the final
    )
    result = standings(list(range(1, 9)), finishes, {}, seed=0, elimination=True)
    rows = by_player(result)
    assert rows[1].points > rows[2].points  # 1 scored more but went out in round 1
    assert order(result)[:4] == [5, 2, 1, 6]
    assert set(order(result)[4:6]) == {3, 7}
    assert set(order(result)[6:]) == {4, 8}
    swiss = standings(list(range(1, 9)), finishes, {}, seed=0)
    assert order(swiss).index(1) < order(swiss).index(2)


def test_elimination_counts_a_bye_in_the_last_round_as_first_place():
    finishes = (
        table(1, [1, 2, 3])
        + table(1, [4, 5, 6])
        + table(2, [4, 1])
        + [Finish(round=2, player=2, points=0, bye=True)]
    )
    result = standings([1, 2, 3, 4, 5, 6], finishes, {}, seed=0, elimination=True)
    # 4 won round 2 and 2 had the bye: both "first" there, so points decide between them.
    assert order(result)[:3] == [4, 2, 1]


def cup(players: int = 5, **changes) -> Tournament:
    """A Donguri Swiss of ``players`` (ann, ben, cat, dan, eve), with ``changes`` to its fields."""
    fields = dict(
        id=1, guild_id=1, channel_id=1, message_id=None, organizer_id=1, name="Cup", game="donguri",
        format="swiss", rounds=3, table_size=4, options={}, points=[4, 2, 1, 0], clock=86400,
        on_timeout="computer_seat", signup_deadline=None, auto_next=True, advance=1, group_size=None,
        teams=None, language="en", seed=7, status="running", round=2, round_done=1,
        entrants=[Entrant(p, n, 0) for p, n in ((1, "ann"), (2, "ben"), (3, "cat"), (4, "dan"), (5, "eve"))][:players],
    )
    return Tournament(**(fields | changes))


def test_standings_lines_say_the_points_and_only_where_they_tie_what_split_them():
    """Issue 39: where players share points, the line shows the tie-break value that decided; all
    rows of a tie show the same keys, down to the last one that decided."""

    def row(rank, player, points, opponents=1.5, wins=1, place=0.5, rating=0.0):
        return Standing(rank, player, points, opponents, wins, place, rating, 2, 0, 2, False)

    rows = [
        row(1, 1, 5.0),
        row(2, 2, 4.0, opponents=3.25),
        row(3, 3, 4.0, opponents=2.5, wins=2),
        row(4, 4, 4.0, opponents=2.5, wins=1),
        row(5, 5, 0.5),
    ]
    lines = standings_lines(cup(), rows, Lang("en"))
    assert lines[0] == "`1.` **ann** — 5 pts"
    assert lines[1] == "`2.` **ben** — 4 pts · tie-break: opponents' average 3.3, 1 first place"
    assert lines[2] == "`3.` **cat** — 4 pts · tie-break: opponents' average 2.5, 2 first places"
    assert lines[3] == "`4.` **dan** — 4 pts · tie-break: opponents' average 2.5, 1 first place"
    assert lines[4] == "`5.` **eve** — 0.5 pts"
    ja = standings_lines(cup(), rows, Lang("ja"))
    assert ja[1] == "`2.` **ben** — 4点 · 同点の決め手: 対戦相手の平均得点 3.3、1位 1回"


def test_a_tie_split_by_the_rating_or_the_lot_says_so_and_close_values_show_more_decimals():
    def row(rank, player, points, opponents, rating=0.0):
        return Standing(rank, player, points, opponents, 1, 0.5, rating, 2, 0, 2, False)

    lines = standings_lines(cup(), [row(1, 1, 3.0, 2.0, rating=1.0), row(2, 2, 3.0, 2.0), row(3, 3, 3.0, 2.0)], Lang("en"))
    assert lines[0].endswith("tie-break: rating 1040")
    assert lines[1].endswith("tie-break: rating 1000, lot") and lines[2].endswith("tie-break: rating 1000, lot")
    lines = standings_lines(cup(), [row(1, 1, 3.0, 2.64), row(2, 2, 3.0, 2.61)], Lang("en"))
    assert lines[0].endswith("opponents' average 2.64") and lines[1].endswith("opponents' average 2.61")
    # Totals that read the same to one decimal but differ: the points themselves split them.
    lines = standings_lines(cup(), [row(1, 1, 6.71, 2.0), row(2, 2, 6.67, 3.0)], Lang("en"))
    assert lines[0] == "`1.` **ann** — 6.7 pts · tie-break: points 6.71"
    assert lines[1] == "`2.` **ben** — 6.7 pts · tie-break: points 6.67"


def test_the_standings_footer_explains_the_b_of_a_bye_only_when_there_is_one():
    """Review 2026-11-26 #36: the picture marks a bye "B", which needs a legend in both languages."""
    t = cup(4, table_size=3, points=[3, 1, 0], round=1, round_done=1)
    rows = [Standing(r, p, 3.0 - r, 0.0, 0, 0.0, 1000.0, 1, 0, 1, False) for r, p in ((1, 1), (2, 2), (3, 3), (4, 4))]
    played = [{"user_id": p, "round": 1, "place": p, "bye": 0} for p in (1, 2, 3)]
    bye = [*played, {"user_id": 4, "round": 1, "place": None, "bye": 1}]
    for language, legend in (("en", "B = bye"), ("ja", "B = 不戦(バイ)")):
        assert legend in standings_message(t, rows, bye, Lang(language), False, 1).embed.footer.text
        assert legend not in standings_message(t, rows, played, Lang(language), False, 1).embed.footer.text


def test_the_footer_gives_each_sentence_its_own_space_in_either_language():
    """Issue 39: the footer ran "…rating › lot Players who dropped…" together. The ranking, the
    legends and the rule for drops are lines of their own; legends on one line are sentences apart,
    with a space in English and none after 「。」 in Japanese."""
    t = cup(4, table_size=3, points=[3, 1, 0], round=2, round_done=2)
    rows = [Standing(r, p, 3.0 - r, 0.0, 0, 0.0, 1000.0, 1, 0, 1, r == 4) for r, p in ((1, 1), (2, 2), (3, 3), (4, 4))]
    # dan drew a bye in round 1 and dropped; cat entered late, in round 2.
    results = [{"user_id": p, "round": 1, "place": p, "bye": 0} for p in (1, 2)]
    results += [{"user_id": 4, "round": 1, "place": None, "bye": 1}]
    results += [{"user_id": p, "round": 2, "place": i, "bye": 0} for i, p in enumerate((1, 2, 3), 1)]
    for language, legends, gap in (
        ("en", ("B = bye.", "– = a round before the player joined."), " "),
        ("ja", ("B = 不戦(バイ)。", "– = 途中参加する前の回戦。"), ""),
    ):
        tr = Lang(language)
        lines = standings_message(t, rows, results, tr, False, 2).embed.footer.text.splitlines()
        assert lines == [tr("tournament.tie_breaks"), gap.join(legends), tr("tournament.dropped_rule")]
