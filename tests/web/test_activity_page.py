"""The Activity's page: served at ``/activity/`` with its bundle and style sheets by relative
addresses (so it works at the root of Discord's proxy too), under the Activity's policy. In a real
browser: tests/web/test_activity_browser.py."""

from __future__ import annotations

import gzip
import re

from tests.support.activity import activity
from tests.web.test_activity_frames import assert_framed_by_discord_only


async def test_the_page_and_its_files_are_served_under_the_activitys_policy(tables, site):
    async with activity(site, tables) as act:
        moved = await act.web.get("/activity", allow_redirects=False)
        assert moved.status == 308 and moved.headers["Location"] == "activity/"
        page = await act.web.get("/activity/", headers={"Accept-Language": "ja"})
        text = await page.text()
        assert page.status == 200 and page.content_type == "text/html"
        assert '<html lang="ja">' in text and 'src="activity.bundle.js?v=' in text and 'href="style.css?v=' in text
        assert 'href="activity.css?v=' in text
        assert_framed_by_discord_only(page)
        for name, kind in (("activity.bundle.js", "text/javascript"), ("style.css", "text/css"), ("activity.css", "text/css")):
            found = await act.web.get(f"/activity/{name}")
            assert found.status == 200 and found.content_type == kind
            assert_framed_by_discord_only(found)
        assert (await act.web.get("/activity/other.js")).status == 404
        assert (await act.web.get("/activity/activity.js")).status == 404  # the bundle took its place


async def test_the_whole_page_is_at_most_150_kb_gzipped(tables, site):
    """The page, its bundle (the SDK within), its style sheets and icon, as a browser fetches them."""
    async with activity(site, tables) as act:
        page = await act.web.get("/activity/")
        html = await page.read()
        linked = re.findall(rb'(?:src|href)="([a-z.]+\.(?:js|css|svg))\?v=', html)
        assert sorted(linked) == [b"activity.bundle.js", b"activity.css", b"favicon.svg", b"style.css"]
        sizes = {"activity.html": len(gzip.compress(html, 9))}
        for name in linked:
            body = await (await act.web.get(f"/activity/{name.decode()}")).read()
            sizes[name.decode()] = len(gzip.compress(body, 9))
        assert sum(sizes.values()) <= 150_000, sizes
