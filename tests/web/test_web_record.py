"""A live page shows the record's latest lines only: a finished game's page stays a page and links
its replay, which has every move (a Final Quest of 1,741 actions once printed 76,090 px of record)."""

from __future__ import annotations

import re

from bot.core.i18n import Lang
from bot.web import pages
from bot.web.site import RECORD, record_lines
from tests.support.web import client, play, seated_table


def test_the_latest_lines_are_kept_by_whole_deals_back_from_the_last():
    groups = [(1, ["a1", "a2", "a3"]), (2, ["b1", "b2"]), (3, ["c1", "c2", "c3", "c4"])]
    assert pages.latest(groups, 100) == (groups, 0)
    assert pages.latest(groups, 6) == ([(2, ["b1", "b2"]), (3, ["c1", "c2", "c3", "c4"])], 3)
    assert pages.latest(groups, 5) == ([(3, ["c1", "c2", "c3", "c4"])], 5), "no deal is shown in part but the last"
    assert pages.latest(groups, 2) == ([(3, ["c3", "c4"])], 7), "the last deal alone: its last lines"
    assert pages.latest([], 5) == ([], 0)


def shown_lines(page: str) -> list[str]:
    record = page.split('<section class="record">')[1].split("</section>")[0]
    return re.findall(r"<li>(.*?)</li>", record)


async def test_a_finished_games_page_shows_its_last_lines_and_links_its_replay(tables, site):
    table_id = await seated_table(tables, "donguri", seed=4)  # six deals
    await play(tables, table_id, seed=5)
    table = await tables.tables.table(table_id)
    assert table.status == "finished"
    engine = await tables.tables.engine(table)
    every = [line for _, lines in record_lines(table, engine, await tables.store.log_after(table_id, 0), Lang("en")) for line in lines]
    assert len(every) > RECORD, "a game long enough to be cut"
    async with client(site) as web:
        page = await (await web.get(site.path(table_id) + "?lang=en")).text()
        ja = await (await web.get(site.path(table_id) + "?lang=ja")).text()
    shown = shown_lines(page)
    assert 0 < len(shown) <= RECORD and len(shown_lines(ja)) == len(shown)
    assert shown == [pages.to_html(line, pages.mentions(table, Lang("en"))) for line in every[-len(shown):]], "the end of the game"
    assert "<details open><summary>Deal 6</summary>" in page, "by deal, the last open"
    assert "<summary>Deal 1</summary>" not in page, "whole deals back from the last, as many as fit"
    left_out = len(every) - len(shown)
    replay = site.href(table_id, "/replay", lang="en")
    assert (f'<p class="hint">The {left_out} earlier lines are not shown here. '
            f'<a href="{replay}">The replay shows the whole game.</a></p>') in page
    assert f"それより前の{left_out}行はここには表示していません。" in ja and "リプレイ" in ja


async def test_a_short_record_is_shown_whole_without_a_note(tables, site):
    table_id = await seated_table(tables, "donguri", seed=4)
    await play(tables, table_id, 12)
    async with client(site) as web:
        page = await (await web.get(site.path(table_id) + "?lang=en")).text()
    assert 0 < len(shown_lines(page)) < RECORD
    assert "earlier lines" not in page and "earlier line " not in page
