"""A live page follows its table: the server sends the page again within a second of a committed
move, whether this process made it (the ``changed`` hook) or another process sharing the database
did (the poll of the versions), and ends the stream when the game ends."""

from __future__ import annotations

import asyncio
import dataclasses
import json

from bot.core.i18n import Lang
from bot.web.live import POLL, LiveFeed
from tests.support.patience import patient
from tests.support.table import make_world, play_from_dm, start_donguri, to_act
from tests.support.web import client, play, seated_table


async def next_event(stream) -> tuple[str, dict]:
    """The next server-sent event of ``stream`` (comments skipped): its name and its data."""
    name, data = "message", ""
    while True:
        line = (await stream.content.readline()).decode()
        if line == "":
            raise EOFError
        line = line.rstrip("\n")
        if line == "":
            if data:
                return name, json.loads(data)
            continue
        field, _, value = line.partition(": ")
        if field == "event":
            name = value
        elif field == "data":
            data += value


async def test_a_move_by_another_process_reaches_the_page_within_a_second(tables, site):
    table_id = await seated_table(tables, "donguri")
    table = await tables.tables.table(table_id)
    async with client(site, poll=POLL) as web:  # nothing tells the feed: it polls, as for another process
        stream = await web.get(site.path(table_id, "/live") + f"?v={table.version}&lang=en")
        assert stream.status == 200 and stream.content_type == "text/event-stream"
        await play(tables, table_id, 1)
        name, data = await asyncio.wait_for(next_event(stream), patient(3))
        assert name == "table" and data["version"] == table.version + 1
        engine = await tables.tables.engine(await tables.tables.table(table_id))
        (seat,) = engine.to_act()
        assert f"Waiting for <strong>{table.seats[seat].name}</strong>" in data["html"]
        await play(tables, table_id)  # to the end: the last version, then the end of the stream
        while name != "end":
            name, data = await asyncio.wait_for(next_event(stream), patient(3))
        assert (await tables.tables.table(table_id)).status == "finished"


async def test_a_stream_opened_behind_the_table_catches_up_at_once(tables, site):
    table_id = await seated_table(tables, "othello_torite")
    await play(tables, table_id, 2)
    async with client(site) as web:
        stream = await web.get(site.path(table_id, "/live") + "?v=1")
        name, data = await asyncio.wait_for(next_event(stream), patient(3))
        assert name == "table" and data["version"] == (await tables.tables.table(table_id)).version
        again = await web.get(site.path(table_id, "/live"), headers={"Last-Event-ID": str(data["version"])})
        await play(tables, table_id, 1)
        name, later = await asyncio.wait_for(next_event(again), patient(3))
        assert later["version"] == data["version"] + 1, "a reconnecting page gets only what it lacks"


async def test_a_move_made_through_the_bot_reaches_the_page_within_a_second(simcord_env, simcord_bot):
    world = make_world(simcord_env)
    await start_donguri(world)
    bot = simcord_bot
    site = bot.site  # what the bot's own pages read, on the bot's own store
    table = await bot.service.table(1)
    async with client(site) as web:
        # A feed that never polls: only the bot's hook on committed changes can wake it.
        web.feed.poll = 3600
        bot.hooks.changed.append(web.feed.changed)
        stream = await web.get(site.path(1, "/live") + f"?v={table.version}&lang=en")
        (player,) = to_act(world)
        await play_from_dm(player)
        name, data = await asyncio.wait_for(next_event(stream), patient(3))
        assert name == "table" and data["version"] == table.version + 1
        (following,) = to_act(world)
        assert f"Waiting for <strong>{following.name}</strong>" in data["html"]
        assert "Trick 1" not in data["html"] or following is not player
        bot.hooks.changed.remove(web.feed.changed)


async def test_the_feed_reads_a_change_once_for_all_its_viewers(tables, site):
    table_id = await seated_table(tables, "donguri")
    table = await tables.tables.table(table_id)
    reads = []

    async def read(table_id):
        reads.append(table_id)
        return await site.read(table_id)

    feed = LiveFeed(read, tables.store.versions, poll=3600)
    async with feed.watch(table) as first, feed.watch(table) as second:
        assert first is second
        await play(tables, table_id, 1)
        waiting = asyncio.gather(first.changed.wait(), second.changed.wait())
        feed.changed(table_id)
        feed.changed(table_id)  # a second notice while the first read is under way: no second read
        await asyncio.wait_for(waiting, patient(3))
        assert reads == [table_id] and first.row.version == table.version + 1
    assert feed.topics == {}
    await feed.close()


async def test_a_question_said_beside_a_move_reaches_the_page_too(tables, site):
    """Final Quest's question is table talk, stored beside the move's version: a page shows it."""
    table_id = await seated_table(tables, "final_quest")
    table = await tables.tables.table(table_id)
    feed = LiveFeed(site.read, tables.store.versions, poll=3600)
    async with feed.watch(table) as topic:
        before = topic.changed
        await tables.store.update_table(table_id, talk="Is your highest card a 7?")
        feed.changed(table_id)
        await asyncio.wait_for(before.wait(), patient(3))
        assert topic.row.talk == "Is your highest card a 7?" and topic.row.version == table.version
        again = topic.changed
        topic.publish(dataclasses.replace(table, version=table.version - 1))  # an older version: nothing
        topic.publish(topic.row)  # the same: nothing
        assert not again.is_set() and topic.row.talk == "Is your highest card a 7?"
    await feed.close()
    await site.live(table, Lang("en"))
    await site.live(await tables.tables.table(table_id), Lang("en"))
    assert len(site.drawings) == 2, "the page is drawn again for the talk, at the same version"
