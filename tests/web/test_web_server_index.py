"""A server's index lists its open tables as /tables does: the lobbies waiting for players, then the
games in play, each with its game, options, seats free, clock and host, linked to its page; only
that server's, and only those played where @everyone can look; kept live as they change, drawn
once per change whoever watches, and 404 alike once the server turns its pages off."""

from __future__ import annotations

import asyncio
import re

from bot.core.games import REGISTRY
from bot.storage.invitations import Guest
from bot.web.boards import BoardRoutes
from tests.support.patience import patient
from tests.support.web import CHANNEL, GUILD, HIDDEN, client, make_site, play, seated_table
from tests.web.test_web_live import next_event

OTHER = GUILD + 1  # another server, side by side


def routes(tables, site, poll: float = 0.05):
    return [BoardRoutes(site, tables.ratings, tables.events.store, poll=poll)]


async def lobby(tables, game: str = "donguri", guild: int = GUILD, channel: int = CHANNEL, host=(1, "alice"),
                size: int = 3, **fields) -> int:
    options = REGISTRY[game].engine.check_options({"length": "short"} if game == "donguri" else {})
    table = await tables.lobby.open(
        game, guild_id=guild, channel_id=channel, host=host, size=size, options=options, language="en", **fields
    )
    return table.id


def listed(text: str) -> list[str]:
    """The open tables' lines, as text, in the order listed."""
    section = re.search(r'<section class="open-tables">(.*?)</section>', text, re.S).group(1)
    return [re.sub(r"<[^>]+>", "", item) for item in re.findall(r"<li>(.*?)</li>", section)]


async def test_the_index_lists_the_servers_open_tables_as_tables_does(tables, site):
    waiting = await lobby(tables, clock=60)
    invited = await lobby(tables, "othello_torite", size=2, guests=[Guest(2, "bob")], invites_lapse=10**10)
    hidden = await lobby(tables, channel=HIDDEN)  # a staff channel: named on no index
    playing = await seated_table(tables, "saizen")
    theirs = await lobby(tables, guild=OTHER, host=(7, "zed"))
    async with client(site, groups=routes(tables, site)) as web:
        page = await web.get(site.server_path(GUILD) + "?lang=en")
        text = await page.text()
        assert page.status == 200 and "<h2>Open tables</h2>" in text
        assert listed(text) == [
            f"Othello de Torite #{invited} · 🔒 by invitation · 1/2 seats free · clock: No clock (live play) · host alice",
            f"Donguri to Yamaneko #{waiting} · Length: short (3p: 6 deals, 4p: 4, 5p: 5) · 2/3 seats free · clock: 1 minute · host alice",
            f"Saizen #{playing} · alice, bob · clock: No clock (live play) · host alice",
        ]
        assert "<h3>Waiting for players (2 lobbies)</h3>" in text and "<h3>In play (1 game)</h3>" in text
        assert f'href="{site.path(waiting)}?lang=en"' in text and f'href="{site.path(playing)}?lang=en"' in text
        assert site.path(hidden) not in text and site.path(theirs) not in text and "zed" not in text
        ja = await (await web.get(site.server_path(GUILD) + "?lang=ja")).text()
        assert "<h2>開いている卓</h2>" in ja and "<h3>参加者募集中(2卓)</h3>" in ja
        assert listed(ja)[1] == (
            f"どんぐりと山猫 #{waiting} · 長さ: 短め(3人: 6ディール、4人: 4、5人: 5) · 空席 2/3 · 持ち時間: 1分 · ホスト alice"
        )

        other = await (await web.get(site.server_path(OTHER) + "?lang=en")).text()
        assert listed(other) == [f"Donguri to Yamaneko #{theirs} · Length: short (3p: 6 deals, 4p: 4, 5p: 5) · 2/3 seats free · clock: No clock (live play) · host zed"]
        assert "alice" not in other and all(site.path(t) not in other for t in (waiting, invited, hidden, playing))


async def test_the_index_follows_its_tables_live_and_only_its_own(tables, site):
    async with client(site, groups=routes(tables, site)) as web:
        text = await (await web.get(site.server_path(GUILD) + "?lang=en")).text()
        assert "No table is open right now." in text
        live = re.search(r'data-live="([^"]+)"', text).group(1).replace("&amp;", "&")
        stream = await web.get(live)
        assert stream.status == 200 and stream.content_type == "text/event-stream"
        reading = asyncio.ensure_future(next_event(stream))
        await asyncio.sleep(0.2)
        assert not reading.done(), "nothing is sent while nothing changed"
        await lobby(tables, guild=OTHER, host=(7, "zed"))
        await asyncio.sleep(0.2)
        assert not reading.done(), "another server's lobby changes nothing here"

        opened = await lobby(tables)
        name, data = await asyncio.wait_for(reading, patient(3))
        assert name == "page" and f"Donguri to Yamaneko #{opened}" in data["html"] and "2/3 seats free" in data["html"]
        assert "zed" not in data["html"]
        await tables.lobby.join(opened, (2, "bob"))
        name, data = await asyncio.wait_for(next_event(stream), patient(3))
        assert "1/3 seats free" in data["html"]

        playing = await seated_table(tables, "othello_torite")
        name, data = await asyncio.wait_for(next_event(stream), patient(3))
        assert f"Othello de Torite #{playing}" in data["html"]
        reading = asyncio.ensure_future(next_event(stream))
        await play(tables, playing, 2)
        await asyncio.sleep(0.2)
        assert not reading.done(), "a move changes nothing the index shows"
        reading.cancel()


async def test_the_live_index_answers_404_alike_when_off_and_400_for_a_bad_stamp(tables, site):
    await lobby(tables)

    async def off(guild_id):
        return guild_id != GUILD

    closed = make_site(tables.store, tables, shown=off)
    async with client(closed, groups=routes(tables, closed)) as web:
        assert (await web.get(closed.server_path(GUILD, "/live"))).status == 404
        assert (await web.get(closed.server_path(OTHER, "/live"))).status == 200
    async with client(site, groups=routes(tables, site)) as web:
        assert (await web.get(site.server_path(GUILD, "/live") + "?s=nothex")).status == 400
