"""An event's page: sign-ups, each round's pairings, the standings with their tie-breaks, the bracket
of an elimination event and the podium, kept live while the event runs, with every export the
organizer's /tournament export gives; 404 alike for forged, unknown or switched-off events."""

from __future__ import annotations

import asyncio
import csv
import html
import io
import json
import re

from bot.events import export
from bot.web.signing import Signer
from tests.events.test_tournaments import create, play_round, run_event
from tests.support.patience import patient
from tests.support.web import HIDDEN, client, event_routes, make_site
from tests.web.test_web_live import next_event


def rows(html: str, table_class: str) -> list[list[str]]:
    """The cells' text of the rows of the first table of ``table_class``."""
    table = re.search(rf'<table class="{table_class}">(.*?)</table>', html, re.S).group(1)
    body = table.split("<tbody>")[1]
    return [[re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", r)]
            for r in re.findall(r"<tr>(.*?)</tr>", body)]


async def test_a_swiss_event_page_shows_signups_pairings_standings_podium_and_exports(tables, site):
    tournament = await create(tables, players=9, rounds=2, guild_id=1000)
    routes = event_routes(site, tables)
    path = site.event_path(tournament.id)
    async with client(site, groups=[routes]) as web:
        text = await (await web.get(path + "?lang=en")).text()
        assert "<h1>" in text and "p0" in text and "p8" in text
        assert '<p class="status">Sign-up is open.</p>' in text, "an organizer of unknown name is left out (#37)"
        assert 'data-live="' in text, "a live page while the event runs"
        assert "Downloads" not in text, "nothing to export before the first round"
        tournament = await tables.events.start(tournament.id)
        tournament, finished = await play_round(tables, tournament.id)
        text = await (await web.get(path + "?lang=en")).text()
        assert "Round 1" in text and "Pairings by round" in text
        for table in finished:
            assert site.href(table.id, lang="en").replace("&", "&amp;") in text, "each table links its page"
        standings = await tables.events.ranking.standings(tournament)
        shown = rows(text, "board standings")
        assert [(int(r[0]), r[1], r[2]) for r in shown] == [
            (s.rank, tournament.name_of(s.player), f"{s.points:g}") for s in standings
        ]
        assert [r[3] for r in shown] == [f"{s.opponents:.2f}" for s in standings], "tie-break 1 shown"
        assert "Ranking: points › opponents" in text
        csv_link = site.event_path(tournament.id, "/export.csv")
        answer = await web.get(csv_link)
        assert answer.status == 200 and "attachment" in answer.headers["Content-Disposition"]
        (file,) = await export.files(tables.events, tournament, "csv")
        assert await answer.read() == file.fp.getvalue(), "the same file as /tournament export"
        assert list(csv.reader(io.StringIO((await answer.read()).decode())))[0][0] == "round"
        assert (await web.get(site.event_path(tournament.id, "/challonge-matches.csv"))).status == 404
        tournament = await tables.events.next_round(tournament.id)
        tournament, _ = await play_round(tables, tournament.id)
        assert tournament.status == "finished"
        text = await (await web.get(path + "?lang=en")).text()
        final = await tables.events.ranking.standings(tournament)
        assert "Podium" in text and f"🥇</span> {tournament.name_of(final[0].player)}" in text
        assert "data-live" not in text, "a finished event needs no live stream"
        data = json.loads(await (await web.get(site.event_path(tournament.id, "/export.json"))).read())
        assert [s["player"] for s in data["standings"]] == [s.player for s in final]
        ja = await (await web.get(path + "?lang=ja")).text()
        assert "順位表" in ja and "回戦ごとの組み合わせ" in ja


async def test_an_elimination_event_shows_its_bracket_and_who_goes_on(tables, site):
    tournament = await create(tables, game="saizen", players=4, format="elimination", table_size=2, guild_id=1000)
    tournament = await run_event(tables, tournament.id)
    async with client(site, groups=[event_routes(site, tables)]) as web:
        text = await (await web.get(site.event_path(tournament.id) + "?lang=en")).text()
        assert "<h2>Bracket</h2>" in text
        bracket = text.split('<ol class="bracket">')[1].split("</ol></section>")[0]
        rounds = re.findall(r"<h3>Round (\d+)</h3>", bracket)
        assert rounds == ["1", "2"]
        assert bracket.count("goes on") == 2, "one of each table of two goes on; nobody goes on from the final"
        final = bracket.split("<h3>Round 2</h3>")[1]
        winner = tournament.name_of((await tables.events.ranking.standings(tournament))[0].player)
        assert "goes on" not in final and final.count("wins the event") == 1
        assert f'<li class="on">{html.escape(winner)} <span class="advanced">wins the event</span></li>' in final
        ja = await (await web.get(site.event_path(tournament.id) + "?lang=ja")).text()
        assert ja.split('<ol class="bracket">')[1].count("優勝") == 1
        for name in ("challonge-participants.csv", "challonge-matches.csv"):
            answer = await web.get(site.event_path(tournament.id, "/" + name))
            assert answer.status == 200 and answer.content_type == "text/csv"


async def test_the_event_page_follows_a_round_within_a_second(tables, site):
    tournament = await create(tables, players=6, rounds=2, guild_id=1000)
    tournament = await tables.events.start(tournament.id)
    async with client(site, groups=[event_routes(site, tables, poll=0.5)]) as web:
        text = await (await web.get(site.event_path(tournament.id) + "?lang=en")).text()
        live = re.search(r'data-live="([^"]+)"', text).group(1).replace("&amp;", "&")
        stream = await web.get(live)
        assert stream.status == 200 and stream.content_type == "text/event-stream"
        reading = asyncio.ensure_future(next_event(stream))
        await asyncio.sleep(0.2)
        assert not reading.done(), "nothing is sent while nothing changed"
        await play_round(tables, tournament.id)
        name, data = await asyncio.wait_for(reading, patient(3))
        assert name == "page" and "Standings" in data["html"]


async def test_event_pages_answer_404_alike_and_list_no_table_of_a_hidden_channel(tables, site):
    tournament = await create(tables, players=4, rounds=1, guild_id=1000, channel_id=HIDDEN)
    tournament = await tables.events.start(tournament.id)
    tournament, finished = await play_round(tables, tournament.id)
    async with client(site, groups=[event_routes(site, tables)]) as web:
        text = await (await web.get(site.event_path(tournament.id) + "?lang=en")).text()
        assert "Table 1" in text and site.path(finished[0].id) not in text, "a hidden channel's tables are not linked"
        forged = f"/e/{Signer('not this bot').token(tournament.id, 'event')}"
        for bad in (forged, f"/e/{site.signer.token(tournament.id)}", site.event_path(tournament.id + 1),
                    forged + "/export.csv", forged + "/live"):
            answer = await web.get(bad)
            assert answer.status == 404, bad
        assert (await web.get(site.event_path(tournament.id, "/live") + "?s=nothex")).status == 400
        assert (await web.get(site.event_path(tournament.id) + "?lang=fr")).status == 400
        assert (await web.post(site.event_path(tournament.id))).status == 405

    async def off(guild_id):
        return False

    closed = make_site(tables.store, tables, shown=off)
    async with client(closed, groups=[event_routes(closed, tables)]) as web:
        assert (await web.get(closed.event_path(tournament.id))).status == 404
        assert (await web.get(closed.event_path(tournament.id, "/export.csv"))).status == 404
