"""The pages seen from Discord, through the real bot in SimCord: with a ``public_url`` a table's
message links to its page (its title) and, once finished, to its replay, which the bot's own pages
serve; tables of a channel that @everyone cannot see are never listed; a server turns its pages off
with ``/settings web``."""

from __future__ import annotations

import dataclasses

import discord
import pytest

from bot.core.config import Config
from bot.web.boards import BoardRoutes
from bot.web.privacy import Listing, pages_by_settings
from tests.events.test_tournament_cog import create_swiss, event_world, first_event_message
from tests.support.servers import server
from tests.support.table import (
    components,
    labels,
    make_world,
    open_table,
    play_from_dm,
    start_donguri,
    table_message,
    to_act,
)
from tests.support.web import client
from tests.tables.test_results_cog import GAMES, finish_with_computers

PUBLIC_URL = "https://games.example/tabletop"


@pytest.fixture
def bot_config(bot_config) -> Config:
    """The suite's config (tests/conftest.py), with a public address for the pages."""
    return dataclasses.replace(bot_config, public_url=PUBLIC_URL)


async def test_a_table_message_links_to_its_live_page(simcord_env, simcord_bot):
    world = make_world(simcord_env)
    await start_donguri(world)
    await play_from_dm(to_act(world)[0])
    await simcord_env.settle()
    message = table_message(world)
    assert message.embeds[0].url == f"{PUBLIC_URL}{simcord_bot.site.path(1)}", "the title links to the page"
    assert "Replay" not in labels(message)


@pytest.mark.parametrize(("game", "options"), [GAMES[0], GAMES[3]], ids=[GAMES[0][0], GAMES[3][0]])
async def test_the_finished_table_message_links_to_its_replay(simcord_env, simcord_bot, game, options):
    world = make_world(simcord_env)
    table, _home, message = await finish_with_computers(world, simcord_bot, game, options)
    (link,) = [c for c in components(message) if c.get("url")]
    site = simcord_bot.site
    assert link["style"] == discord.ButtonStyle.link.value and link["label"] == "Replay"
    assert link["url"] == f"{PUBLIC_URL}{site.path(table.id)}/replay"
    assert message.embeds[0].url == f"{PUBLIC_URL}{site.path(table.id)}"
    async with client(site) as web:  # the proxy in front takes the prefix off
        page = await web.get(link["url"].removeprefix(PUBLIC_URL))
        assert page.status == 200
        text = await page.text()
        assert f'href="/tabletop{site.path(table.id)}"' in text, "links keep the prefix (and add no language)"
        assert "/tabletop/static/replay.js?v=" in text


async def test_a_table_where_everyone_cannot_look_is_not_listed(simcord_env, simcord_bot):
    world = make_world(simcord_env)
    hidden = world.guild.create_text_channel(
        "staff", overwrites={world.guild.default_role: discord.PermissionOverwrite(view_channel=False)}
    )
    await open_table(world, world.members[0], "donguri", players=3)
    table = await simcord_bot.service.table(1)
    assert table.thread_id is not None
    shown = {"on": True}

    async def pages_on(guild_id):
        return shown["on"]

    listing = Listing(simcord_bot, pages_on)
    assert await listing.listed(world.guild.id, world.channel.id)
    assert await listing.listed(world.guild.id, table.thread_id), "a public thread of a public channel"
    assert not await listing.listed(world.guild.id, hidden.id)
    assert not await listing.listed(world.guild.id, 123456789), "a channel not known counts as hidden"
    shown["on"] = False
    assert not await listing.listed(world.guild.id, world.channel.id), "a server with its pages off"


async def test_a_server_turns_its_pages_off_with_settings(simcord_env, simcord_bot):
    srv = server(simcord_env)
    alice = srv.members[0]
    await alice.slash(srv.channel, "donguri new", players=3, length="short")
    table = await simcord_bot.service.table(1)
    site = simcord_bot.site
    async with client(site) as web:
        assert (await web.get(site.path(1))).status == 200
        assert await site.table_page(table) == f"{PUBLIC_URL}{site.path(1)}"
        await srv.settings(web=False)
        assert (await web.get(site.path(1))).status == 404, "a server's own choice"
        assert await site.table_page(table) is None, "and its messages link to no page"
        await srv.settings(reset="web")
        assert (await web.get(site.path(1))).status == 200
    # A server that chose nothing follows the config's web_pages; one that chose, its choice.
    off_by_default = pages_by_settings(simcord_bot.settings, Config(web_pages=False))
    assert not await off_by_default(srv.guild.id)
    await srv.settings(web=True)
    assert await off_by_default(srv.guild.id)


async def test_leaderboard_links_to_the_servers_page_which_the_bot_serves(simcord_env, simcord_bot):
    srv = server(simcord_env)
    answer = await srv.members[0].slash(srv.channel, "leaderboard", game="donguri")
    site = simcord_bot.site
    path = site.server_path(srv.guild.id, "/donguri")
    assert answer.response.embeds[0].url == f"{PUBLIC_URL}{path}"
    async with client(site, groups=[BoardRoutes(site, simcord_bot.ratings, simcord_bot.tournaments.service.store)]) as web:
        page = await web.get(path + "?lang=en")
        assert page.status == 200 and "Nobody has played a rated table of this game here yet." in await page.text()
        await srv.settings(web=False)
        assert (await web.get(path)).status == 404
    answer = await srv.members[0].slash(srv.channel, "leaderboard", game="donguri")
    assert answer.response.embeds[0].url is None, "a server with its pages off is not linked"


async def test_an_event_message_links_to_the_event_page(simcord_env, simcord_bot):
    _guild, channel, organizer, members = event_world(simcord_env, players=3)
    message = await create_swiss(organizer, channel)
    (tournament,) = await simcord_bot.tournaments.service.store.with_status("signup")
    path = simcord_bot.site.event_path(tournament.id)
    assert message.embeds[0].url == f"{PUBLIC_URL}{path}", "its title links to its page"
    await members[0].click(message, label="Sign up")
    await simcord_env.settle()
    assert first_event_message(channel).embeds[0].url == f"{PUBLIC_URL}{path}", "and still does once edited"


@pytest.mark.slow  # a whole rated game through the DMs; the profile page itself is in test_web_pages.py
async def test_profile_links_to_the_members_page_which_the_bot_serves(simcord_env, simcord_bot):
    world = make_world(simcord_env)
    alice, bob, carol = world.members[:3]
    lobby = await open_table(world, alice, "donguri", players=3, length="short", rated=True)
    await bob.click(lobby, label="Join")
    await carol.click(lobby, label="Join")
    while to_act(world):
        await play_from_dm(to_act(world)[0])
    answer = await bob.slash(world.channel, "profile")
    site = simcord_bot.site
    path = site.server_path(world.guild.id, f"/donguri/{site.player_token(world.guild.id, bob.id)}")
    assert answer.response.embeds[0].url == f"{PUBLIC_URL}{path}", "its title links to the member's page"
    async with client(site, groups=[BoardRoutes(site, simcord_bot.ratings, simcord_bot.tournaments.service.store)]) as web:
        page = await web.get(path + "?lang=en")
        assert page.status == 200 and bob.name in await page.text()
        elsewhere = site.server_path(world.guild.id, f"/donguri/{site.player_token(world.guild.id + 1, bob.id)}")
        assert (await web.get(elsewhere)).status == 404, "a member's id in another server opens nothing here"
