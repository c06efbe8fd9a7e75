"""The Activity's plain page: served at ``/activity/`` with its script and style sheet by relative
addresses (so it works at the root of Discord's proxy too), under the Activity's policy; and, in a
real browser, two members signed in by code play a tap each and see each other's move."""

from __future__ import annotations

import pytest
import pytest_asyncio

from tests.support.activity import activity
from tests.support.browser import CHROMIUM, context, require_browser
from tests.support.web import GUILD, seated_table
from tests.web.test_activity_frames import assert_framed_by_discord_only


async def test_the_page_and_its_files_are_served_under_the_activitys_policy(tables, site):
    async with activity(site, tables) as act:
        moved = await act.web.get("/activity", allow_redirects=False)
        assert moved.status == 308 and moved.headers["Location"] == "activity/"
        page = await act.web.get("/activity/", headers={"Accept-Language": "ja"})
        text = await page.text()
        assert page.status == 200 and page.content_type == "text/html"
        assert '<html lang="ja">' in text and 'src="activity.js?v=' in text and 'href="style.css?v=' in text
        assert_framed_by_discord_only(page)
        for name, kind in (("activity.js", "text/javascript"), ("style.css", "text/css")):
            found = await act.web.get(f"/activity/{name}")
            assert found.status == 200 and found.content_type == kind
            assert_framed_by_discord_only(found)
        assert (await act.web.get("/activity/other.js")).status == 404


@pytest_asyncio.fixture
async def browser():
    api = require_browser()
    async with api.async_playwright() as playwright:
        chromium = await playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        await chromium.close()


@pytest.mark.browser
@pytest.mark.slow
async def test_two_members_tap_their_moves_in_the_page_and_follow_each_other(tables, site, browser):
    table_id = await seated_table(tables, "othello_torite")
    async with activity(site, tables) as act:
        table = await tables.tables.table(table_id)
        pages, views = {}, []
        for n, language in ((1, "en"), (2, "ja")):
            view = await context(browser, 420, 900, language)
            page = await view.new_page()
            errors: list[str] = []
            page.on("console", lambda m, e=errors: e.append(m.text) if m.type == "error" else None)
            page.on("response", lambda r, e=errors: e.append(f"{r.status} {r.url}") if r.status >= 400 else None)
            instance = act.instance(GUILD, act.member(n))
            fragment = f"code={act.fake.oauth.code(act.member(n))}&instance_id={instance}&table={table_id}&locale={language}"
            await page.goto(str(act.web.make_url("/activity/")) + "#" + fragment)
            await page.wait_for_selector("#table h1")
            pages[n] = (page, errors)
            views.append(view)
        for _ in range(2):  # one tap each
            engine = await tables.tables.engine(await tables.tables.table(table_id))
            (seat,) = engine.to_act()
            page, _ = pages[table.seats[seat].user_id]
            version = await page.get_attribute("#table", "data-version")
            await page.click("button.choice[data-action]:visible")
            for other, _ in pages.values():  # the tapper's answer, and the other's stream
                await other.wait_for_function(
                    "v => document.getElementById('table').dataset.version !== v", arg=version, timeout=5000
                )
        assert len(await tables.store.actions(table_id)) == 2
        assert await pages[2][0].get_attribute("html", "lang") == "ja"
        for _, errors in pages.values():
            assert errors == [], errors
        for view in views:
            await view.close()
