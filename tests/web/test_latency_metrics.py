"""What an operator graphs of the wait members feel (issue 44): a move's commit, the move shown on
every Discord surface, Discord's calls and the pages, as Prometheus histograms; live viewers; 429s
counted whatever the log level; the standard process collectors, and no ``_created`` series."""

from __future__ import annotations

import logging

from bot.web.metrics import Metrics
from tests.support.table import enabled_ids, hand_dm, make_world, open_table, whose_turn
from tests.support.web import client, make_site, seated_table
from tests.web.test_web_operators import sample


async def test_a_members_moves_are_timed_from_entry_to_commit_and_to_every_surface_shown(simcord_env, simcord_bot):
    world = make_world(simcord_env)
    members = world.members[:3]
    lobby = await open_table(world, members[0], "donguri", players=3, length="short")
    for member in members[1:]:
        await member.click(lobby, label="Join")
    await simcord_env.settle()
    for _ in range(4):
        (mover,) = whose_turn(members)
        await mover.user.click(hand_dm(mover), custom_id=enabled_ids(hand_dm(mover))[0])
        await simcord_env.settle()
    text = simcord_bot.metrics.exposition().decode()
    assert sample(text, "tabletop_move_commit_seconds_count", game="donguri") == 4
    # Every pass that brought a moved table up to date observed once (moves in one pass count once).
    shown = sample(text, "tabletop_move_shown_seconds_count")
    assert 1 <= shown <= 5, text  # the start and the four moves, some coalesced
    assert sample(text, "tabletop_move_shown_seconds_bucket", le="+Inf") == shown
    posts = sample(text, "tabletop_discord_request_seconds_count", kind="POST /channels/{channel_id}/messages")
    assert posts >= 1, "the table message and the hand DMs were posted, each call timed"
    assert "tabletop_moves_created" not in text and "_created{" not in text
    assert "process_cpu_seconds_total" in text or "python_info" in text  # the standard collectors
    assert "python_gc_objects_collected_total" in text


async def test_pages_are_timed_by_route_and_live_viewers_counted(tables):
    metrics = Metrics()
    table_id = await seated_table(tables, "othello_torite")  # something to list
    site = make_site(tables.store, tables)
    async with client(site) as web:
        web.routes.meters = metrics
        metrics.watch_viewers(lambda: sum(topic.viewers for topic in web.feed.topics.values()))
        home = await web.get("/")
        assert home.status == 200
        assert (await web.get("/t/1-forged")).status == 404
        assert (await web.get(site.path(table_id, ""))).status == 200
        stream = await web.get(site.path(table_id, "/live") + "?v=0&lang=en")  # older: the table is sent
        await stream.content.readline()  # the stream is open: its first line came
        text = metrics.exposition().decode()
        stream.close()
    assert sample(text, "tabletop_page_seconds_count", route="/") == 1
    assert sample(text, "tabletop_page_seconds_count", route="/t/{token}") == 2
    assert sample(text, "tabletop_page_seconds_count", route="/t/{token}/live") == 0  # a stream is not a page
    assert sample(text, "tabletop_live_viewers") == 1


def test_429s_are_counted_when_the_log_level_hides_warnings():
    metrics = Metrics()
    root = logging.getLogger()
    http = logging.getLogger("discord.http")
    saved = root.level, http.level
    root.setLevel(logging.ERROR)  # an operator's log_level = "ERROR"
    metrics.log_counters.install()
    try:
        http.warning("We are being rate limited. %s %s responded with 429. Retrying in %.2f seconds.", "PATCH", "/x", 1.0)
    finally:
        metrics.log_counters.remove()
        root.setLevel(saved[0])
        http.setLevel(saved[1])
    assert sample(metrics.exposition().decode(), "tabletop_discord_rate_limited_total", scope="route") == 1
