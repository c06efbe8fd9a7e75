"""A long stretch of the record (a whole game played by computers at once, or several tricks since
the last paced edit) goes out as several messages. When the pass is put off between two of them
(the thread's budget is spent), the next pass sends the rest: no line twice, none lost. A message
sent by a pass that died before storing it is found and completed."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json

from bot.core.engine import Event
from bot.core.games import REGISTRY
from bot.core.i18n import Lang
from bot.tables import render
from bot.tables.budget import Later
from tests.support.table import make_world
from tests.tables.test_results_cog import finish_with_computers

PUT_OFF_AT = 2  # the second message of the batch


def tricks_shown(texts: list[str]) -> list[str]:
    return [line for text in texts for line in text.splitlines() if line.startswith("Trick ")]


async def logged_tricks(bot, table) -> list[str]:
    """The trick lines the table's log makes, in order. Lines are compared in order rather than
    each counted once: two deals can hold the same trick (the same cards by the same seats)."""
    rows = await bot.service.store.log_after(table.id, 0)
    events = [Event(r["code"], json.loads(r["data"])) for r in rows if r["kind"] == "event"]
    tr = Lang(table.language)
    public = (await bot.service.engine(table)).public_view()
    return tricks_shown(REGISTRY[table.game].record(events, public, render.seat_names(table, tr), tr))


async def test_a_record_put_off_between_two_messages_sends_the_rest_once(simcord_env, simcord_bot, monkeypatch):
    world = make_world(simcord_env)
    delivery = simcord_bot.delivery
    spending = delivery.budgets.spending
    record_sends: list[int] = []

    @contextlib.asynccontextmanager
    async def put_off_once(channel_id, *, paced=False):
        if paced and channel_id != world.channel.id:  # the record, in the table's thread
            record_sends.append(channel_id)
            if len(record_sends) == PUT_OFF_AT:
                raise Later(0.05)  # the thread's budget is spent
        async with spending(channel_id, paced=paced):
            yield

    # The computers play the whole game before any pass shows it: one long batch for the record.
    play, request = simcord_bot.service.play_computers, delivery.worker.request

    async def play_unseen(table_id):
        monkeypatch.setattr(delivery.worker, "request", lambda *args, **kwargs: None)
        try:
            return await play(table_id)
        finally:
            monkeypatch.setattr(delivery.worker, "request", request)

    monkeypatch.setattr(simcord_bot.service, "play_computers", play_unseen)
    monkeypatch.setattr(delivery.budgets, "spending", put_off_once)
    finished, home, _ = await finish_with_computers(world, simcord_bot, "donguri", {"players": 3, "length": "short"})

    records = [m.content for m in home.history() if m.author.bot]
    assert len(records) >= 2, "the game's record took several messages"
    assert len(record_sends) >= 3, "the pass was put off after the first and went on later"
    store = simcord_bot.service.store
    logged = await logged_tricks(simcord_bot, finished)
    assert tricks_shown(records) == logged and len(logged) > 20, "every trick once, in order"
    assert not await store.log_after(finished.id, finished.recorded), "everything recorded"


async def test_a_record_message_sent_by_a_pass_cut_short_is_found_and_completed(simcord_env, simcord_bot, monkeypatch):
    """A pass sends a new record message and dies before storing it (``kill -9``, here an error at
    that moment). By the next pass more lines have come, so the piece it would send has grown: it
    finds the message sent before, whose lines begin that piece, and shows the rest there. (It
    looked only for the same text, sent the grown piece as a new message, and showed the first
    lines twice.)"""
    world = make_world(simcord_env)
    store = simcord_bot.service.store
    set_record = store.surfaces.set_record
    cut: list[int] = []

    async def dies_once(table_id, part, deal, message_id, lines, *args):
        if not cut:
            cut.append(message_id)
            raise RuntimeError("killed after the send, before the store")
        return await set_record(table_id, part, deal, message_id, lines, *args)

    monkeypatch.setattr(store.surfaces, "set_record", dies_once)
    # A pass in the middle of the game (the one cut short), then the rest of the game, then a pass.
    service = simcord_bot.service

    async def a_pass_halfway(table_id):
        while (await service.table(table_id)).logged < 30:  # several tricks in the log
            assert await service.random_computer_move(table_id) is not None
        await simcord_bot.delivery.refresh(table_id)
        for _ in range(500):  # the pass runs, with the computers' worker playing on beside it
            if cut:
                break
            await simcord_env.advance_time(1)  # the record's pace lets the pass write
            await asyncio.sleep(0.01)
        assert cut, "the pass halfway sent a record message and died"
        while await service.random_computer_move(table_id) is not None:
            pass

    monkeypatch.setattr(service, "play_computers", a_pass_halfway)
    finished, home, _ = await finish_with_computers(world, simcord_bot, "donguri", {"players": 3, "length": "short"})

    assert cut, "a record message was sent and not stored"
    records = [m for m in home.history() if m.author.bot]  # the thread holds only the record here
    assert cut[0] in {m.id for m in records}, "the message sent before is the one that goes on"
    assert tricks_shown([m.content for m in records]) == await logged_tricks(simcord_bot, finished)


async def test_a_stored_record_message_is_never_taken_for_a_later_piece(simcord_env, simcord_bot):
    """A message a cut-short pass may have sent is looked for among the bot's messages since its
    intent, skipping those the record has stored: two deals can begin with the same trick line, and
    a stored message showing just that line would otherwise be found again and written over with
    the later piece, its own line lost. Scene: a stored message shows one line, and the piece about
    to be sent begins with that line, its intent left open around that message's time."""
    world = make_world(simcord_env)
    finished, home, _ = await finish_with_computers(world, simcord_bot, "donguri", {"players": 3, "length": "short"})
    store, delivery = simcord_bot.service.store, simcord_bot.delivery
    first = min((m for m in home.history() if m.author.bot), key=lambda m: m.id)
    line = first.content.splitlines()[0]
    await delivery.edit_message(home.id, first.id, content=line)
    db = store.db
    await db.execute("DELETE FROM records WHERE table_id = ? AND part > 1", (finished.id,))
    await store.surfaces.set_record(finished.id, 1, 1, first.id, line, True)
    await db.execute(
        "INSERT INTO send_intents (table_id, surface, channel_id, sent_after) VALUES (?, ?, ?, ?)",
        (finished.id, "record:2", home.id, first.id - 1),
    )
    await store.update_table(finished.id, recorded=0)
    await simcord_env.advance_time(10)  # the thread's budget and the record's pace have room
    before = {m.id for m in home.history()}
    table = await simcord_bot.service.table(finished.id)
    await delivery.record.append(table, Lang("en"))

    assert [m.content for m in home.history() if m.id == first.id] == [line], "the stored message kept"
    sent = sorted((m for m in home.history() if m.id not in before), key=lambda m: m.id)
    assert sent and sent[0].content.startswith(line + "\n"), "the piece went out as a new message"


async def test_a_pass_that_read_the_table_before_the_game_ended_still_writes_its_final_line(simcord_env, simcord_bot):
    """A pass reads the table row, then the log: the game's end may be committed in between. The
    row it holds has no result yet and the game cached then had not reached the end, yet the log
    holds the end: the lines are drawn from the table and game as they stand once the log is read.
    (The final line raised, and the record waited for the next pass; a line drawn from the
    game's state, like Saizen's scores at the end, would have been drawn from the game before.)"""
    world = make_world(simcord_env)
    finished, home, _ = await finish_with_computers(world, simcord_bot, "donguri", {"players": 3, "length": "short"})
    service, delivery = simcord_bot.service, simcord_bot.delivery
    final = [m for m in home.history() if m.author.bot][-1].content.splitlines()[-1]
    log = await service.store.log_after(finished.id, 0)
    assert log[-1]["kind"] == "final"
    await service.store.update_table(finished.id, recorded=log[-2]["seq"])
    engine = await service.engine(finished)
    before_end = type(engine).replay(len(finished.seats), finished.seed, finished.options, engine.history[:-1])
    earlier = dataclasses.replace(
        finished, status="running", result=None, recorded=log[-2]["seq"], version=finished.version - 1
    )
    service.engines[finished.id] = (earlier.version, before_end)
    await simcord_env.advance_time(10)  # the thread's budget and the record's pace have room
    delivery.pace.forget(finished.id, "record")

    await delivery.record.append(earlier, Lang("en"))

    shown = [line for m in home.history() if m.author.bot for line in m.content.splitlines()]
    assert shown[-1] == final and shown.count(final) == 2, "the end written again, from the stored result"
    assert (await service.table(finished.id)).recorded == log[-1]["seq"]
