"""A server's pages: the games rated there, each game's leaderboard in the order /leaderboard gives,
and each member's profile with their rating history; addresses signed per server (and per server
for a member), 404 alike for anything forged, unknown or switched off, 400 for a malformed query."""

from __future__ import annotations

import re

from bot.events.service import TournamentService  # noqa: F401  (the events' store comes with the platform)
from bot.web.boards import BoardRoutes
from bot.web.signing import Signer
from tests.support.web import GUILD, HIDDEN, NAMES, client, make_site, rated_game


def routes(tables, site):
    return [BoardRoutes(site, tables.ratings, tables.events.store)]


async def test_a_leaderboard_lists_the_rated_players_best_first_and_links_their_profiles(tables, site):
    await rated_game(tables, "othello_torite", seed=1)
    await rated_game(tables, "othello_torite", seed=2)
    hidden = await rated_game(tables, "othello_torite", seed=3, channel=HIDDEN)
    board = await tables.ratings.leaderboard(GUILD, "othello_torite")
    async with client(site, groups=routes(tables, site)) as web:
        index = await web.get(site.server_path(GUILD) + "?lang=en")
        text = await index.text()
        assert index.status == 200 and "Othello de Torite" in text and "2 players rated" in text
        page = await web.get(site.server_path(GUILD, "/othello_torite") + "?lang=en")
        text = await page.text()
        assert page.status == 200 and "<h1>Othello de Torite leaderboard</h1>" in text
        shown = re.findall(r'<th scope="row"><a href="([^"]+)">([^<]+)</a></th><td>(\d+)</td>', text)
        assert [(name, int(rating)) for _, name, rating in shown] == [(p.name, p.shown) for p in board]
        top = board[0]
        profile = await web.get(shown[0][0].replace("&amp;", "&"))
        text = await profile.text()
        assert profile.status == 200 and f"<h1>{top.name} · Othello de Torite</h1>" in text
        assert f"<dd>{top.shown}</dd>" in text and f"<dd>{top.games}</dd>" in text
        assert '<svg class="chart"' in text and 'role="img" aria-label="Rating after each of 4 rated games' in text
        replays = re.findall(r'href="/t/(\d+)-[^"/]+/replay', text)
        assert replays and str(hidden) not in replays, "a table where @everyone could not look is not linked"
        ja = await (await web.get(site.server_path(GUILD, "/othello_torite") + "?lang=ja")).text()
        assert "<h1>オセロ de トリテ ランキング</h1>" in ja and "<th scope=\"col\">順位</th>" in ja


async def test_server_pages_answer_404_alike_for_forged_unknown_and_switched_off(tables, site):
    await rated_game(tables, "saizen")
    forged = f"/s/{Signer('not this bot').token(GUILD, 'server')}"
    table_token = f"/s/{site.signer.token(GUILD)}"  # a table's id is no server's
    player = site.player_token(GUILD, 1)
    elsewhere = site.player_token(GUILD + 1, 1)  # the same member, signed for another server
    async with client(site, groups=routes(tables, site)) as web:
        assert (await web.get(site.server_path(GUILD, f"/saizen/{player}"))).status == 200
        for path in (
            forged, forged + "/saizen", table_token, site.server_path(GUILD, "/no_such_game"),
            site.server_path(GUILD, f"/saizen/{elsewhere}"),
            site.server_path(GUILD, f"/othello_torite/{player}"),  # not rated in that game
        ):
            answer = await web.get(path)
            assert answer.status == 404, path
            assert "There is no page at this address." in await answer.text()
        assert (await web.get(site.server_path(GUILD) + "?lang=xx")).status == 400
        assert (await web.get(site.server_path(GUILD) + "?lang=en&lang=ja")).status == 400
        assert (await web.post(site.server_path(GUILD))).status == 405  # read-only

    async def off(guild_id):
        return guild_id != GUILD

    closed = make_site(tables.store, tables, shown=off)
    async with client(closed, groups=routes(tables, closed)) as web:
        for path in (closed.server_path(GUILD), closed.server_path(GUILD, "/saizen"),
                     closed.server_path(GUILD, f"/saizen/{player}")):
            assert (await web.get(path)).status == 404, path


async def test_a_server_index_lists_no_event_of_a_hidden_channel(tables, site):
    store = tables.events.store
    common = dict(guild_id=GUILD, message_id=None, organizer_id=1, game="saizen", format="swiss", rounds=2,
                  table_size=2, points=[1, 0], clock=0, on_timeout="computer_turn", signup_deadline=None,
                  auto_next=True, advance=0, group_size=None, teams=None, language="en", seed=1,
                  status="signup", round=0, round_done=0)
    await store.create(channel_id=2000, name="Open Cup", **common)
    await store.create(channel_id=HIDDEN, name="Secret Cup", **common)
    async with client(site, groups=routes(tables, site)) as web:
        text = await (await web.get(site.server_path(GUILD) + "?lang=en")).text()
    assert "Open Cup" in text and "Secret Cup" not in text
    assert NAMES[0] not in text  # the index names games and events, not members
