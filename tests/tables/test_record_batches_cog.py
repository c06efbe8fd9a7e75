"""Through the real bot: a game's record in its thread is the same, message for message, whether the
delivery worker showed each move as it came or found many at once (a burst of moves, a worker busy
elsewhere, a restart). Three tables of the same game, same seed and same seats are played by
computers; the record of one gets a pass after every move, of another after random stretches, of
the third only at the end. (Arsène wrote "Trick 5: **bob** wins with ♣J" then "bob takes the
trick." move by move, but "… wins with ♣J and takes it." when both came in one pass; Othello de
Torite split a trick over two lines when a pass fell between its two placements.)
"""

from __future__ import annotations

import random
import re

import pytest

from bot.core.i18n import Lang
from bot.tables import desk
from bot.tables.budget import Later
from tests.support.table import make_world
from tests.tables.test_results_cog import COMMAND, GAMES, channel_of, message_of

SEED = 4242


async def open_table(world, bot, game: str, options: dict) -> int:
    """The host opens a table and fills it with computers; it starts with the seed ``SEED``."""
    host = world.members[0]
    before = {t.id for t in await bot.service.store.tables_with_status("lobby")}
    await host.slash(world.channel, f"{COMMAND.get(game, game)} new", **options)
    (table_id,) = {t.id for t in await bot.service.store.tables_with_status("lobby")} - before
    table = await bot.service.table(table_id)
    for _ in range(table.size - 1):
        lobby = message_of(world, table.channel_id, table.message_id)
        picker = await host.click(lobby, custom_id=f"tt:bot:{table_id}")
        await host.click(picker.response, custom_id=f"tt:bot:normal:{table_id}")
    assert (await bot.service.table(table_id)).status == "running"
    assert await bot.seat_ops.hand_to_computer(table_id, host.id)
    return table_id


async def show_record(bot, table_id: int) -> None:
    """A pass of the record, as the worker makes it once the record's pace allows, and the passes
    that follow while it still has messages to write (one per pace at a running table)."""
    while True:
        bot.delivery.pace.forget(table_id, "record")
        table = await bot.service.table(table_id)
        try:
            await bot.delivery.record.append(table, Lang(table.language))
            return
        except Later:
            continue


async def play(bot, table_id: int, shown_after) -> None:
    """The computers play the game to its end; ``shown_after(move)``: a record pass after it."""
    service = bot.service
    moves = 0
    while (moved := await service.random_computer_move(table_id)) is not None:
        assert moved
        moves += 1
        if shown_after(moves):
            await show_record(bot, table_id)
    assert (await service.table(table_id)).status == "finished"
    for _ in range(20):
        table = await service.table(table_id)
        if not await service.store.log_after(table_id, table.recorded):
            break
        await show_record(bot, table_id)


def record_texts(world, bot, table) -> list[str]:
    thread = channel_of(world, table.home_channel_id)
    texts = [m.content for m in sorted(thread.history(), key=lambda m: m.id) if m.author.bot]
    return [re.sub(r"https://discord\.com/channels/\S+", "<table>", text) for text in texts]


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
async def test_the_record_is_the_same_whether_moves_are_shown_one_by_one_or_together(
    simcord_env, simcord_bot, monkeypatch, game, options
):
    world = make_world(simcord_env)
    monkeypatch.setattr(desk.secrets, "randbits", lambda bits: SEED)
    # The test makes the computers' moves and the record's passes itself, in the order it chooses.
    monkeypatch.setattr(simcord_bot.service, "on_computer_turn", lambda table_id: None)
    tables = [await open_table(world, simcord_bot, game, options) for _ in range(3)]
    await simcord_env.settle()
    monkeypatch.setattr(simcord_bot.delivery.worker, "request", lambda *args, **kwargs: None)
    rng = random.Random(SEED)
    await play(simcord_bot, tables[0], lambda move: True)
    await play(simcord_bot, tables[1], lambda move: rng.random() < 0.25)
    await play(simcord_bot, tables[2], lambda move: False)

    each, some, once = [record_texts(world, simcord_bot, await simcord_bot.service.table(t)) for t in tables]
    assert sum(len(text.splitlines()) for text in once) > 10
    assert each == once, "a pass after every move"
    assert some == once, "passes after random stretches of moves"
