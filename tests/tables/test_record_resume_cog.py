"""A long stretch of the record (a whole game played by computers at once, or several tricks since
the last paced edit) goes out as several messages. When the pass is put off between two of them
(the thread's budget is spent), the next pass sends the rest: no line twice, none lost. A message
sent by a pass that died before storing it is found and completed."""

from __future__ import annotations

import contextlib
from collections import Counter

from bot.tables.budget import Later
from tests.support.table import make_world
from tests.tables.test_results_cog import finish_with_computers

PUT_OFF_AT = 2  # the second message of the batch


async def test_a_record_put_off_between_two_messages_sends_the_rest_once(simcord_env, simcord_bot, monkeypatch):
    world = make_world(simcord_env)
    delivery = simcord_bot.delivery
    spending = delivery.spending
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
    monkeypatch.setattr(delivery, "spending", put_off_once)
    finished, home, _ = await finish_with_computers(world, simcord_bot, "donguri", {"players": 3, "length": "short"})

    records = [m.content for m in home.history() if m.author.bot]
    assert len(records) >= 2, "the game's record took several messages"
    assert len(record_sends) >= 3, "the pass was put off after the first and went on later"
    lines = Counter(line for text in records for line in text.splitlines())
    assert [line for line, n in lines.items() if n > 1] == []
    store = simcord_bot.service.store
    won = [row for row in await store.log_after(finished.id, 0) if row["code"] == "trick_won"]
    assert sum(1 for line in lines if line.startswith("Trick ")) == len(won) > 20, "every trick once"
    assert not await store.log_after(finished.id, finished.recorded), "everything recorded"


async def test_a_record_message_sent_by_a_pass_cut_short_is_found_and_completed(simcord_env, simcord_bot, monkeypatch):
    """A pass sends a new record message and dies before storing it (``kill -9``, here an error at
    that moment). By the next pass more lines have come, so the piece it would send has grown: it
    finds the message sent before, whose lines begin that piece, and shows the rest there. (It
    looked only for the same text, sent the grown piece as a new message, and showed the first
    lines twice.)"""
    world = make_world(simcord_env)
    store = simcord_bot.service.store
    set_record = store.set_record
    cut: list[int] = []

    async def dies_once(table_id, part, deal, message_id, lines, *args):
        if not cut:
            cut.append(message_id)
            raise RuntimeError("killed after the send, before the store")
        return await set_record(table_id, part, deal, message_id, lines, *args)

    monkeypatch.setattr(store, "set_record", dies_once)
    finished, home, _ = await finish_with_computers(world, simcord_bot, "donguri", {"players": 3, "length": "short"})

    assert cut, "a record message was sent and not stored"
    records = [m for m in home.history() if m.author.bot]  # the thread holds only the record here
    assert cut[0] in {m.id for m in records}, "the message sent before is the one that goes on"
    lines = Counter(line for m in records for line in m.content.splitlines())
    assert [line for line, n in lines.items() if n > 1] == []
    won = [row for row in await store.log_after(finished.id, 0) if row["code"] == "trick_won"]
    assert sum(1 for line in lines if line.startswith("Trick ")) == len(won), "every trick once"
