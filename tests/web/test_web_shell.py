"""What every page has around it: its own files under addresses that name their content (kept a
year, checked by ETag), an icon, colours dark mode can read, and links that carry a language only
when the reader chose one (a shared link opens in the language of whoever follows it)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from bot.web import assets
from bot.web.boards import BoardRoutes
from tests.events.test_tournaments import create, play_round
from tests.support.web import GUILD, client, event_routes, play, rated_game, seated_table

STATIC = re.compile(r'(?:href|src)="(/static/([a-z]+\.[a-z]+)\?v=([0-9a-f]+))"')


async def test_the_pages_own_files_are_versioned_kept_a_year_and_checked_by_their_etag(tables, site):
    table_id = await seated_table(tables, "donguri")
    async with client(site) as web:
        page = await (await web.get(site.path(table_id) + "?lang=en")).text()
        linked = {name: (url, version) for url, name, version in STATIC.findall(page)}
        assert set(linked) == {"style.css", "favicon.svg", "live.js"}, linked
        for name, (url, version) in linked.items():
            assert version == assets.FILES[name].version
            answer = await web.get(url)
            assert answer.status == 200 and await answer.read() == (assets.STATIC / name).read_bytes()
            assert answer.headers["Cache-Control"] == "public, max-age=31536000, immutable"
            etag = answer.headers["ETag"]
            again = await web.get(url, headers={"If-None-Match": etag})
            assert again.status == 304 and await again.read() == b"", "the browser holds it: no body"
            assert (await web.get(url, headers={"If-None-Match": f"W/{etag}"})).status == 304, "weakened on the way"
            assert (await web.get(url, headers={"If-None-Match": '"0000"'})).status == 200, "another version: sent"
        # Asked for without its version, or by an old one: the file as it is now, checked before each use.
        for query in ("", "?v=0123456789abcdef"):
            answer = await web.get("/static/style.css" + query)
            assert answer.status == 200 and answer.headers["Cache-Control"] == "no-cache"
            assert answer.headers["ETag"] == f'"{assets.FILES["style.css"].version}"'
        assert (await web.get("/static/nothing.css")).status == 404


def test_a_file_that_changes_gets_a_new_address(tmp_path):
    (tmp_path / "style.css").write_text("a { color: red; }")
    first = assets.load(tmp_path)["style.css"].version
    (tmp_path / "style.css").write_text("a { color: blue; }")
    assert assets.load(tmp_path)["style.css"].version != first
    assert assets.load(tmp_path)["style.css"].type == "text/css"


async def test_every_page_has_its_icon(tables, site):
    table_id = await seated_table(tables, "donguri")
    async with client(site) as web:
        for path in ("/", site.path(table_id), "/t/1-nothing"):
            page = await (await web.get(path)).text()
            icon = re.search(r'<link rel="icon" href="([^"]+)" type="image/svg\+xml">', page)
            assert icon, path
        answer = await web.get(icon.group(1))
        assert answer.status == 200 and answer.content_type == "image/svg+xml"
        assert ET.fromstring(await answer.read()).tag == "{http://www.w3.org/2000/svg}svg"


def luminance(colour: str) -> float:
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_the_accent_reads_as_text_in_light_and_dark_mode():
    css = (assets.STATIC / "style.css").read_text()
    light = dict(re.findall(r"--([a-z]+): (#[0-9a-f]{6})", css.split("@media (prefers-color-scheme: dark)")[0]))
    dark_block = css.split("@media (prefers-color-scheme: dark)")[1].split("\n}")[0]
    dark = {**light, **dict(re.findall(r"--([a-z]+): (#[0-9a-f]{6})", dark_block))}
    assert "accent" in dict(re.findall(r"--([a-z]+): (#[0-9a-f]{6})", dark_block)), "dark mode sets its own accent"
    for scheme in (light, dark):
        for ground in ("paper", "panel"):  # text in the accent colour stands on either (.advanced on a panel)
            for text in ("accent", "ink", "muted", "link"):
                assert contrast(scheme[text], scheme[ground]) >= 4.5, (text, ground, scheme[text])


def hrefs(page: str) -> list[str]:
    """The page's links and addresses, but its language switch (a choice, by its nature)."""
    page = re.sub(r'<nav class="languages".*?</nav>', "", page, flags=re.S)
    return [h.replace("&amp;", "&") for h in re.findall(r'(?:href|src|data-live)="([^"]+)"', page)]


async def test_links_carry_a_language_only_when_the_reader_chose_one(tables, site):
    running = await seated_table(tables, "othello_torite", seed=3)  # a picture, a live stream
    await play(tables, running, 3)
    done = await seated_table(tables, "donguri", seed=4)
    await play(tables, done)
    rated = await rated_game(tables, "othello_torite", seed=1)
    board = [BoardRoutes(site, tables.ratings, tables.events.store)]
    paths = [site.path(running), site.path(done), site.path(done, "/replay"), site.server_path(GUILD),
             site.server_path(GUILD, "/othello_torite")]
    async with client(site, groups=board) as web:
        for path in paths:
            # The chosen language first: what was drawn for it is not what a browser's language gets.
            chosen = await (await web.get(path + "?lang=ja", headers={"Accept-Language": "en"})).text()
            mine = [h for h in hrefs(chosen) if h.startswith(("/t/", "/s/")) and not h.endswith(".json")]  # not the export
            assert mine and all("lang=ja" in h for h in mine), (path, mine)
            answer = await web.get(path, headers={"Accept-Language": "ja"})
            assert "Accept-Language" in answer.headers["Vary"], "a cache keeps one page per language"
            browser = await answer.text()
            assert '<html lang="ja">' in browser
            assert not [h for h in hrefs(browser) if "lang=" in h], path
        replay = await (await web.get(site.path(done, "/replay"), headers={"Accept-Language": "ja"})).text()
        assert 'data-lang="ja"' in replay, "the replay's script asks for its steps in the page's language"
        # Followed by a reader whose browser speaks English, the live stream and the picture are in English.
        page = await (await web.get(site.path(running), headers={"Accept-Language": "en"})).text()
        stream = re.search(r'data-live="([^"]+)"', page).group(1).replace("&amp;", "&")
        assert "lang=" not in stream
        picture = re.search(r'<img src="([^"]+)"', page).group(1).replace("&amp;", "&")
        assert (await web.get(picture, headers={"Accept-Language": "en"})).status == 200
    assert rated


async def test_an_events_links_carry_a_language_only_when_the_reader_chose_one(tables, site):
    tournament = await create(tables, players=6, rounds=2, guild_id=GUILD)
    tournament = await tables.events.start(tournament.id)
    await play_round(tables, tournament.id)
    path = site.event_path(tournament.id)
    async with client(site, groups=[event_routes(site, tables)]) as web:
        chosen = await (await web.get(path + "?lang=ja", headers={"Accept-Language": "en"})).text()
        tables_linked = [h for h in hrefs(chosen) if h.startswith("/t/")]
        assert tables_linked and all(h.endswith("?lang=ja") for h in tables_linked)
        browser = await (await web.get(path, headers={"Accept-Language": "ja"})).text()
        assert '<html lang="ja">' in browser and [h for h in hrefs(browser) if h.startswith("/t/")]
        assert not [h for h in hrefs(browser) if "lang=" in h]
