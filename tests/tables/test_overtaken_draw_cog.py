"""A pass of the delivery worker draws from the table as it read it; a click answered meanwhile
may show a later state in the same DM. The pass must not cover that answer with its older drawing.

Found on a busy machine (issue 43): a pass that read the table at the second move waited for the
next mover's answer, then drew their DM from its own read, with the cards enabled again. For the
11 ms until the next pass the member saw a playable hand of a move already made, and a card pressed
then was refused as out of date."""

from __future__ import annotations

import pytest

from bot.tables.budget import Later
from tests.support.table import enabled_ids, hand_dm, labels, make_world, play_from_dm, start_donguri, to_act


async def test_a_pass_from_an_older_read_never_covers_a_clicks_newer_answer(simcord_env):
    world = make_world(simcord_env)
    await start_donguri(world)
    bot = simcord_env.bot
    (first,) = to_act(world)
    await play_from_dm(first)
    await simcord_env.settle()
    (table,) = await bot.service.store.tables_with_status("running")
    engine = await bot.service.engine(table)  # what a slow pass read: the second member to act
    (second,) = to_act(world)
    seat = table.seat_of(second.id)
    assert seat is not None and len(enabled_ids(hand_dm(second))) > 0
    await play_from_dm(second)
    await simcord_env.settle()
    answered = hand_dm(second)
    assert enabled_ids(answered) == [] and len(labels(answered)) == 11, "the answer showed the card played"

    with pytest.raises(Later):  # it draws nothing; a pass from a fresh read follows
        await bot.delivery.deliver_hand(table, engine, seat)
    await simcord_env.settle()
    shown = hand_dm(second)
    assert shown.id == answered.id
    assert enabled_ids(shown) == [] and len(labels(shown)) == 11, "still the hand after the move"
