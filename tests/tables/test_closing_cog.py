"""While the bot stops, nothing new starts and what is under way ends first (``Arrivals``): a click
or a command that comes is answered "restarting" in the member's language and changes nothing, and
the shutdown waits for a click being handled before it closes what the click uses."""

from __future__ import annotations

import asyncio

from tests.support.forged import answer_text
from tests.support.table import make_world, table_message


async def open_lobby(world, bot) -> int:
    await world.members[0].slash(world.channel, "donguri new", players=3)
    (table,) = await bot.service.store.tables_with_status("lobby")
    return table.id


async def test_a_click_or_command_while_the_bot_stops_is_answered_restarting_and_changes_nothing(
    simcord_env, simcord_bot, client_locales
):
    world = make_world(simcord_env)
    table_id = await open_lobby(world, simcord_bot)
    simcord_bot.arrivals.closing = True
    joined = await world.members[1].click(table_message(world), custom_id=f"tt:join:{table_id}")
    assert joined.ephemeral and answer_text(joined) == "I am restarting: nothing was changed. Try again in a minute."
    client_locales[world.members[2].id] = "ja"
    opened = await world.members[2].slash(world.channel, "donguri new", players=3)
    assert "再起動" in answer_text(opened)
    assert [s.user_id for s in (await simcord_bot.service.table(table_id)).seats] == [world.members[0].id]
    assert len(await simcord_bot.service.store.tables_with_status("lobby")) == 1


async def test_the_shutdown_waits_for_a_click_under_way(simcord_env, simcord_bot, monkeypatch):
    world = make_world(simcord_env)
    table_id = await open_lobby(world, simcord_bot)
    entered, release = asyncio.Event(), asyncio.Event()
    join = simcord_bot.lobby.join

    async def slow_join(*args, **kwargs):
        entered.set()
        await release.wait()
        return await join(*args, **kwargs)

    monkeypatch.setattr(simcord_bot.lobby, "join", slow_join)
    click = asyncio.ensure_future(world.members[1].click(table_message(world), custom_id=f"tt:join:{table_id}"))
    await entered.wait()
    simcord_bot.arrivals.closing = True
    drained = asyncio.ensure_future(simcord_bot.arrivals.drained(timeout=60))
    for _ in range(20):
        await asyncio.sleep(0)
    assert not drained.done(), "the shutdown goes on only once the click is done"
    release.set()
    await drained  # the seat is taken before anything closes
    assert world.members[1].id in [s.user_id for s in (await simcord_bot.service.table(table_id)).seats]
    await click
