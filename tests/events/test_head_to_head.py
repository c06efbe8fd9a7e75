"""Head-to-head before any lot (issue 49): where tied players or teams met, the result between them
decides, in every format; at tables of three or more it is the finishing order between the tied
players there; with three or more tied, only a complete mini-table among them counts."""

from __future__ import annotations

from bot.core.i18n import Lang
from bot.events.head_to_head import mini_table
from bot.events.render import standings_lines
from bot.events.standings import Finish, in_team_order, standings, team_finishes, team_ratings
from tests.events.test_standings import cup, order, table
from tests.events.test_tournament_cog import event_world
from tests.support.table import embed_text

#: Eight Final Quest teams of two, players 10t+1 and 10t+2.
TEAMS = {t: [10 * t + 1, 10 * t + 2] for t in range(1, 9)}

#: Four rounds of (winner, loser) teams, as a Swiss pairs them: 8 and 7 both end on three wins,
#: with the same opponents' average, first places, average place and rating; 8 beat 7 in round 3.
ROUNDS = [
    [(5, 4), (8, 1), (7, 2), (3, 6)],
    [(7, 5), (8, 3), (1, 6), (4, 2)],
    [(8, 7), (3, 5), (1, 4), (2, 6)],
    [(4, 8), (7, 1), (2, 3), (5, 6)],
]


def team_game(round_: int, winner: int, loser: int) -> list[Finish]:
    """One Final Quest table: both partners of a team share its place and points."""
    rows = []
    for team, place, points in ((winner, 1, 2.0), (loser, 2, 0.0)):
        other = loser if team == winner else winner
        rows += [Finish(round_, p, points, place, 2, tuple(TEAMS[other])) for p in TEAMS[team]]
    return rows


def test_the_final_quest_title_goes_to_the_team_that_won_the_direct_game_whatever_the_lot():
    """Issue 49: two teams equal on every tie-break down to rating; the one that won their round-3
    game lost the title by lot. The direct game now decides, for every seed of the lot."""
    finishes = [row for number, games in enumerate(ROUNDS, 1) for game in games for row in team_game(number, *game)]
    ratings = {71: 10.0, 72: 30.0, 81: 20.0, 82: 20.0}  # both teams average 20
    units, ratings = team_finishes(TEAMS, finishes), team_ratings(TEAMS, ratings)
    for seed in range(20):
        teams = standings(list(TEAMS), units, ratings, seed)
        first, second = teams[0], teams[1]
        assert (first.player, second.player) == (8, 7), seed
        same = ("points", "opponents", "wins", "place", "rating")
        assert [getattr(first, k) for k in same] == [getattr(second, k) for k in same]
        assert (first.direct, second.direct) == (1.0, 0.0)
        players = in_team_order(standings([p for m in TEAMS.values() for p in m], finishes, {}, seed), teams, TEAMS)
        top = [row.player for row in players[:4]]
        assert set(top[:2]) == {81, 82} and set(top[2:]) == {71, 72}, "the partners follow their team"
    lines = standings_lines(cup(rounds=4), teams, Lang("en"), teams=True)
    assert lines[0].endswith("· tie-break: head-to-head 1") and lines[1].endswith("· tie-break: head-to-head 0")
    assert standings_lines(cup(rounds=4), teams, Lang("ja"), teams=True)[0].endswith("直接対決 1")


def round_robin(wins: list[tuple[int, int]]) -> list[Finish]:
    """A single round robin of two-player tables, one round per game listed (winner, loser)."""
    return [row for number, pair in enumerate(wins, 1) for row in table(number, list(pair))]


def test_a_round_robin_third_place_goes_to_the_player_who_won_their_game():
    """Issue 49: in a round robin everyone tied has the same opponents' average, so a lot gave 3rd
    place to a team that had lost to the other. Six players; 3 and 4 both win two of five, and 4
    beat 3: 4 is third for every seed."""
    games = [
        (1, 2), (1, 3), (1, 4), (1, 5), (1, 6),
        (2, 3), (2, 4), (2, 5), (2, 6),
        (4, 3), (3, 5), (3, 6),
        (4, 5), (6, 4),
        (5, 6),
    ]
    finishes = round_robin(games)
    for seed in range(20):
        rows = standings(list(range(1, 7)), finishes, {}, seed)
        third, fourth = rows[2], rows[3]
        assert (third.player, fourth.player, third.points, fourth.points) == (4, 3, 4.0, 4.0), seed
        assert third.opponents == fourth.opponents and third.wins == fourth.wins
        assert order(rows)[4:] == [5, 6], "5 beat 6, who is level with them too"


def test_at_tables_of_three_or_more_only_the_order_between_the_tied_players_counts():
    # 1 and 2 met at a table of four in round 2, 2 third and 1 last; elsewhere they tie.
    finishes = table(1, [1, 5, 6, 7]) + table(1, [2, 3, 4, 8]) + table(2, [3, 4, 2, 1]) + table(2, [5, 6, 7, 8])
    assert mini_table([1, 2], finishes) == {1: 0.0, 2: 1.0}
    assert mini_table([1, 2, 5], finishes) == {1: 0.0, 2: 0.0, 5: 0.0}, "2 and 5 never met: skipped"
    # 2, 3 and 4 met twice: 2 above both in round 1; 3, 4, then 2 in round 2.
    assert mini_table([3, 4, 2], finishes) == {2: 2.0, 3: 3.0, 4: 1.0}
    tied = table(1, [1, 2], ranks=[1, 1])
    assert mini_table([1, 2], tied) == {1: 0.5, 2: 0.5}, "a shared place splits it"


def test_three_tied_use_the_mini_table_only_when_each_pair_met():
    # A circle: 1 beat 2, 2 beat 3, 3 beat 1 — level on the mini-table; then 3 beats 4.
    circle = round_robin([(1, 2), (2, 3), (3, 1)])
    assert mini_table([1, 2, 3], circle) == {1: 1.0, 2: 1.0, 3: 1.0}
    # 1 beat 2 and 3, who never met: with all three tied nothing is compared.
    partial = table(1, [1, 2]) + table(2, [1, 3])
    assert mini_table([1, 2, 3], partial) == {1: 0.0, 2: 0.0, 3: 0.0}
    # Partners are not opponents: two players of a redrawn team game never met as partners.
    partners = [Finish(1, p, 2.0, 1, 2, (3, 4)) for p in (1, 2)] + [Finish(1, p, 0.0, 2, 2, (1, 2)) for p in (3, 4)]
    assert mini_table([1, 2], partners) == {1: 0.0, 2: 0.0}


def test_drops_and_byes_leave_the_direct_result_out_of_who_played_on():
    finishes = table(1, [2, 1]) + [Finish(2, 1, 2.0, bye=True), Finish(2, 2, 2.0, bye=True)]
    assert order(standings([1, 2], finishes, {1: 9.0}, seed=0)) == [2, 1], "2 beat 1 before rating"
    assert order(standings([1, 2], finishes, {}, seed=0, dropped={2})) == [1, 2], "a drop still ranks last"


async def test_help_says_head_to_head_comes_before_first_places_in_both_languages(simcord_env, client_locales):
    _guild, channel, _organizer, members = event_world(simcord_env, players=2)
    client_locales[members[1].id] = "ja"
    english = embed_text((await members[0].slash(channel, "tournament help")).response)
    assert "opponents' average points › head-to-head › first places" in english
    assert "**Head-to-head**: the results between those still tied, at the tables where they met" in english
    assert "With three or more still tied it counts only if each of them met each other" in english
    japanese = embed_text((await members[1].slash(channel, "tournament help")).response)
    assert "対戦相手の平均得点 › 直接対決 › 1位の回数" in japanese
    assert "全員がお互いに対戦している場合だけ数え" in japanese
