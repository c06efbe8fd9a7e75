"""Every game's finished table says who won: places, winners and final scores, best first, on the
table message, with the turn legend gone; the thread gets one final-result line linking to it."""

from __future__ import annotations

import asyncio
import json
import re

import pytest

from bot.core.results import MEDALS
from tests.support.table import World, components, embed_text, make_world

#: (game, options of /<game> new, the command's name): small and quick tables.
GAMES = [
    ("donguri", {"players": 3, "length": "short"}),
    ("arsene", {"players": 3}),
    ("saizen", {"players": 2}),
    ("othello_torite", {}),
    ("final_quest", {"round_cap": 2}),
]
COMMAND = {"othello_torite": "othello", "final_quest": "finalquest"}


async def finish_with_computers(world, bot, game: str, options: dict):
    """The host opens a table, fills it with computers, then leaves their own seat to a computer."""
    host = world.members[0]
    await host.slash(world.channel, f"{COMMAND.get(game, game)} new", **options)
    table = await bot.service.table(1)
    for _ in range(table.size - 1):
        picker = await host.click(message_of(world, table.channel_id, table.message_id), custom_id="tt:bot:1")
        await host.click(picker.response, custom_id="tt:bot:normal:1")
    # The computers play from the start until the host is to act. In about 1 Final Quest deal in
    # 250 one of them names the right hand before the host's first turn: the table is finished.
    if (await bot.service.table(1)).status == "running":
        assert await bot.seat_ops.hand_to_computer(1, host.id)
    await bot.service.play_computers(1)  # at once, rather than at the computers' worker's pace
    await bot.delivery.refresh(1)
    for _ in range(500):  # the delivery worker shows the finished table and its record
        await world.env.settle()
        table = await bot.service.table(1)
        if bot.delivery.worker.idle and not await bot.service.store.log_after(1, table.recorded):
            break
        await asyncio.sleep(0.01)
    assert table.status == "finished"
    return table, channel_of(world, table.home_channel_id), message_of(world, table.channel_id, table.message_id)


def channel_of(world, channel_id: int):
    """A SimCord channel or thread of the world's guild, by id."""
    for channel in world.guild.channels.values():
        for found in (channel, *channel.threads):
            if found.id == channel_id:
                return found
    raise AssertionError(f"no channel {channel_id}")


def message_of(world, channel_id: int, message_id: int):
    return next(m for m in channel_of(world, channel_id).history() if m.id == message_id)


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
async def test_the_final_table_message_ranks_everyone_and_the_thread_links_to_it(
    simcord_env, simcord_bot, game, options
):
    world = make_world(simcord_env)
    table, home, message = await finish_with_computers(world, simcord_bot, game, options)
    result = json.loads(table.result)
    text = embed_text(message)
    description = message.embeds[0].description
    assert description.startswith("🏁 **Final result**"), description
    block = description.split("\n\n")[0].splitlines()[1:]
    if game == "final_quest" and result["outcome"] != "win":
        assert block == ["🤝 Draw: the round limit was reached."]
    else:
        marks = [line.split(" ")[0] for line in block]
        ranks = sorted(result["ranks"]) if game != "final_quest" else [1, 2]
        assert marks == [MEDALS[r - 1] if r <= 3 else f"{r}." for r in ranks], block
        assert block[0].split(" ", 1)[1].startswith(("**", "🔵 ", "🟠 ")), "the winner stands out"
    assert "▶" not in text and "to act" not in text and "to play" not in text
    assert [c["custom_id"] for c in components(message)] == ["tt:rematch:1", "tt:rules:1", "tt:help:1"], "no move is left"

    lines = [m.content for m in home.history() if m.author.bot and "Final result" in (m.content or "")]
    found = [line for chunk in lines for line in chunk.splitlines() if "Final result" in line]
    assert len(found) == 1, found
    url = re.search(r"\((https://discord\.com/channels/[^)]+)\)", found[0])
    assert url and url.group(1).endswith(f"/{table.channel_id}/{table.message_id}")


async def test_a_finished_table_in_japanese_reads_in_japanese(simcord_env, simcord_bot, client_locales):
    guild = simcord_env.create_guild("将棋部", preferred_locale="ja")
    channel = guild.create_text_channel("games")
    world = World(simcord_env, guild, channel, [guild.add_member(simcord_env.create_user("taro"))])
    _table, home, message = await finish_with_computers(world, simcord_bot, "donguri", GAMES[0][1])
    description = message.embeds[0].description
    assert description.startswith("🏁 **最終結果**") and "マイナス点" in description
    assert "▶" not in embed_text(message) and "手番" not in embed_text(message)
    record = "\n".join(m.content for m in home.history() if m.author.bot)
    assert "🏁 **最終結果:**" in record and "[卓のメッセージ](" in record
