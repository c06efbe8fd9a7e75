"""The end of a game through the real bot in SimCord: every player's end DM names their place, and
the final table offers a rematch (same seats and options, a new seed) that every seated member
confirms, that one may decline or that runs out, and that survives a restart."""

from __future__ import annotations

import asyncio
import json

from bot.core.errors import UserError
from bot.core.results import medal
from bot.tables.notices import jump_url
from tests.support.table import (
    World,
    add_computer,
    dms,
    embed_text,
    labels,
    make_world,
    open_table,
    result_dms,
    table_message,
)

HOUR = 3600


async def finished_table(world, bot, humans: int = 2, clock: int | None = HOUR, rated: bool = False):
    """A 3-player Donguri table (short) with ``humans`` members and a hard computer in the other
    seats, clocked, played to its end by computers standing in for the members."""
    alice = world.members[0]
    lobby = await open_table(world, alice, "donguri", players=3, length="short", rated=rated)
    if clock:
        await alice.select(table_message(world), [str(clock)], custom_id="tt:clock:1")
    for member in world.members[1:humans]:
        await member.click(lobby, label="Join")
    for _ in range(3 - humans):
        await add_computer(alice, table_message(world), level="hard")
    for member in world.members[:humans]:
        assert await bot.seat_ops.hand_to_computer(1, member.id)
    await bot.service.play_computers(1)
    await settle(world, bot, 1)
    table = await bot.service.table(1)
    assert table.status == "finished"
    return table


async def settle(world, bot, table_id: int) -> None:
    """Until the delivery worker has shown everything stored of the table."""
    await bot.delivery.refresh(table_id)
    for _ in range(500):
        await world.env.settle()
        table = await bot.service.table(table_id)
        if bot.delivery.worker.idle and not table.dirty and not await bot.store.log_after(table_id, table.recorded):
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the table was not shown")


def end_dm(member):
    """The member's end-of-game DM (a new message, after their last hand DM)."""
    (message,) = result_dms(member)
    return message


def message_of(world, channel_id: int, message_id: int):
    for channel in [world.channel, *world.channel.threads]:
        for message in channel.history():
            if message.id == message_id and channel.id == channel_id:
                return message
    raise AssertionError(f"no message {message_id}")


async def test_every_end_of_game_dm_shows_the_place_score_winner_and_the_final_table(
    simcord_env, simcord_bot, client_locales
):
    world = make_world(simcord_env)
    alice, bob, carol = world.members[:3]
    client_locales[carol.id] = "ja"  # private text follows the member's own language
    table = await finished_table(world, simcord_bot, humans=3, clock=None)
    result = json.loads(table.result)
    names = [s.name for s in table.seats]
    winners = [names[s] for s, rank in enumerate(result["ranks"]) if rank == 1]
    for member in (alice, bob, carol):
        seat = table.seat_of(member.id)
        rank, score = result["ranks"][seat], result["scores"][seat]
        message = end_dm(member)
        assert dms(member)[-1].id == message.id, "a new DM, the last one"
        text = embed_text(message)
        assert jump_url(table) in message.content, "its first lines name the final table"
        if member is carol:
            assert message.content.startswith("🏁 **対局終了**: どんぐりと山猫")
            assert f"あなたの順位: {medal(rank)}**3人中 {rank}位**" in message.content
            assert f"マイナス点 {score}" in text.split("あなたの順位")[1].splitlines()[0]
            assert "勝者: " in text and "Your place" not in text and "最終結果" in text
            assert labels(message) == ["再戦", "ルール"]
        else:
            assert message.content.startswith("🏁 **Game over** at Donguri")
            assert f"Your place: {medal(rank)}**{rank} of 3**" in message.content
            assert f"penalty {score}" in text.split("Your place")[1].splitlines()[0]
            assert ("Winner: " if len(winners) == 1 else "Winners: ") in text
            assert labels(message) == ["Rematch", "Rules"]
        line = next(li for li in text.splitlines() if li.startswith(("Winner", "勝者")))
        assert all(f"**{name}" in line for name in winners), line  # a seat a computer stands in for says so
        assert all(f"{name}" in message.embeds[0].description for name in names), "every player's score"
        assert not message.flags.suppress_notifications, "a notification: the default choice"
        # The last hand DM is closed: no move, no legend or picture under the end.
        hand = [m for m in dms(member) if m.embeds and m.id != message.id][-1]
        assert not hand.components and not hand.embeds[0].image, embed_text(hand)
        assert hand.embeds[0].description.startswith("🏁"), hand.embeds[0].description
        assert "\n\n" not in hand.embeds[0].description, "only the line that says the game is over"


async def test_rematch_starts_a_new_table_with_the_same_seats_once_every_member_confirms(
    simcord_env, simcord_bot
):
    world = make_world(simcord_env)
    alice, bob, carol = world.members[:3]
    old = await finished_table(world, simcord_bot, humans=2, rated=True)
    final = table_message(world)
    assert labels(final) == ["Rematch", "Rules", "?"] and final.content in (None, "")

    answer = await alice.click(final, label="Rematch")
    assert answer.ephemeral and "You are in for the rematch" in answer.response.content
    assert bob.mention in answer.response.content
    final = table_message(world)
    assert labels(final) == ["Rematch (1/2)", "No rematch", "Rules", "?"]
    assert "✅ alice" in final.content and "⏳ bob" in final.content and "<t:" in final.content
    version = (await simcord_bot.service.table(1)).version

    again = await alice.click(final, label="Rematch (1/2)")
    assert again.ephemeral and "already confirmed" in again.response.content and bob.mention in again.response.content
    spectator = await carol.click(final, label="Rematch (1/2)")
    assert spectator.ephemeral and "Only the players of this table" in spectator.response.content
    assert (await simcord_bot.service.table(1)).version == version, "refusals change nothing"

    started = await bob.click(final, label="Rematch (1/2)")
    assert started.ephemeral and "table #2" in started.response.content
    await settle(world, simcord_bot, 2)
    await settle(world, simcord_bot, 1)
    new = await simcord_bot.service.table(2)
    assert new.status == "running" and new.rematch_of == 1
    assert [(s.position, s.user_id, s.name, s.level) for s in new.seats] == [
        (s.position, s.user_id, s.name, s.level) for s in old.seats
    ], "the same seats, in the same places; the computer at its level"
    assert not any(s.away for s in new.seats), "the members play their own seats again"
    assert (new.options, new.size, new.clock, new.on_timeout, new.rated, new.language) == (
        old.options, old.size, old.clock, old.on_timeout, old.rated, old.language
    )
    assert new.seed != old.seed and new.rated, "a rematch of a rated table is rated"
    # Opened as usual, in the same channel: a table message and its thread, hands by DM.
    assert new.channel_id == world.channel.id and new.thread_id is not None
    assert table_message(world).id == new.message_id and "Deal 1/6" in embed_text(table_message(world))
    assert len(world.channel.threads) == 2
    for member in (alice, bob):
        assert any(jump_url(new) in embed_text(m) for m in dms(member)), f"{member.name} has the new hand"
    # The finished table links to its rematch and offers it no more.
    final = message_of(world, world.channel.id, old.message_id)
    assert f"[table #2]({jump_url(new)})" in final.content
    assert labels(final) == ["Rules", "?"]
    stale = await alice.click(final, custom_id="tt:rules:1")
    assert stale.ephemeral and "Donguri" in embed_text(stale.response)


async def test_a_stale_rematch_button_and_a_click_from_another_server_change_nothing(
    simcord_env, simcord_bot, client_locales
):
    world = make_world(simcord_env)
    alice = world.members[0]
    client_locales[alice.id] = "ja"  # the answers follow her language, not the table's
    await finished_table(world, simcord_bot, humans=1)  # alice and two computers: her click starts it
    final = table_message(world)
    await simcord_bot.store.update_table(1, guild_id=world.guild.id + 1)
    elsewhere = await alice.click(final, label="Rematch")
    assert elsewhere.ephemeral and "別のサーバー" in elsewhere.response.content
    assert await simcord_bot.store.rematches.get(1) is None
    await simcord_bot.store.update_table(1, guild_id=world.guild.id)

    # Started from elsewhere (another process, a second click) before this message was redrawn.
    await simcord_bot.ending.ops.confirm(1, alice.id, seed=5)
    assert labels(table_message(world)) == ["Rematch", "Rules", "?"], "not redrawn yet"
    stale = await alice.click(table_message(world), label="Rematch")
    assert stale.ephemeral and "この卓の再戦はすでに始まっています(卓 #2)" in stale.response.content
    await settle(world, simcord_bot, 2)
    assert (await simcord_bot.service.table(2)).rematch_of == 1
    assert await simcord_bot.store.get_table(3) is None


async def refused(bot, table_id: int, user_id: int) -> str:
    """The refusal key of a confirmation that a button no longer shown would send."""
    try:
        await bot.ending.ops.confirm(table_id, user_id, seed=1)
    except UserError as exc:
        return exc.key
    raise AssertionError("the confirmation was taken")


async def test_a_member_may_decline_and_the_table_says_so(simcord_env, simcord_bot, client_locales):
    world = make_world(simcord_env)
    alice, bob = world.members[:2]
    client_locales[bob.id] = "ja"
    await finished_table(world, simcord_bot, humans=2)
    await alice.click(table_message(world), label="Rematch")
    offered = table_message(world)
    declined = await bob.click(offered, label="No rematch")  # the table speaks English; bob reads Japanese
    assert declined.ephemeral and "再戦を辞退しました" in declined.response.content
    final = table_message(world)
    assert final.content == "🔁 No rematch: bob declined." and labels(final) == ["Rules", "?"]
    assert await refused(simcord_bot, 1, alice.id) == "error.rematch_declined"
    assert await simcord_bot.store.get_table(2) is None


async def test_an_offer_nobody_completes_expires_after_a_day(simcord_env, simcord_bot):
    world = make_world(simcord_env)
    alice, bob = world.members[:2]
    await finished_table(world, simcord_bot, humans=2, clock=None)
    await alice.click(table_message(world), label="Rematch")
    await simcord_env.advance_time(23 * HOUR)
    assert labels(table_message(world)) == ["Rematch (1/2)", "No rematch", "Rules", "?"], "still open after 23 h"
    await simcord_env.advance_time(HOUR + 1)
    final = table_message(world)
    assert final.content == "🔁 The rematch offer expired." and labels(final) == ["Rules", "?"]
    assert await refused(simcord_bot, 1, bob.id) == "error.rematch_expired"
    assert await simcord_bot.store.get_table(2) is None


async def test_confirmations_and_the_buttons_survive_a_restart(simcord_env, simcord_bot, restart):
    world = make_world(simcord_env)
    alice, bob = world.members[:2]
    await finished_table(world, simcord_bot, humans=2)
    await alice.click(table_message(world), label="Rematch")
    bot = await restart()
    started = await bob.click(table_message(world), label="Rematch (1/2)")
    assert started.ephemeral and "table #2" in started.response.content
    await settle(world, bot, 2)
    new = await bot.service.table(2)
    assert new.message_id is not None and table_message(world).id == new.message_id
    assert len(world.channel.threads) == 2


async def test_a_rematch_table_is_posted_after_a_crash_before_its_message(simcord_env, simcord_bot, restart):
    """The new table is committed before Discord hears of it: a process that dies right then leaves
    it to the next one, whose delivery worker posts it once."""
    world = make_world(simcord_env)
    alice, bob = world.members[:2]
    old = await finished_table(world, simcord_bot, humans=2)
    await simcord_bot.ending.ops.confirm(1, alice.id, seed=7)
    done = await simcord_bot.ending.ops.confirm(1, bob.id, seed=8)  # no click: nothing delivered yet
    assert done.new_table_id == 2 and (await simcord_bot.service.table(2)).message_id is None
    bot = await restart()
    await settle(world, bot, 2)
    await settle(world, bot, 1)
    new = await bot.service.table(2)
    posted = [m for m in world.channel.history() if m.embeds and "#2" in (m.embeds[0].title or "")]
    assert [m.id for m in posted] == [new.message_id]
    assert new.seed == 8 and new.thread_id is not None
    assert f"[table #2]({jump_url(new)})" in message_of(world, world.channel.id, old.message_id).content


async def test_a_tournament_table_has_no_rematch(simcord_env, simcord_bot):
    from tests.events.test_tournament_cog import button_id, create_swiss, event_world, sign_up_all

    _guild, channel, organizer, members = event_world(simcord_env, players=3)
    signup = await create_swiss(organizer, channel, rounds=1)
    await sign_up_all(signup, members)
    await organizer.click(signup, custom_id=button_id(signup, "start"))
    (row,) = await simcord_bot.tournaments.service.store.round_tables(int(button_id(signup, "drop").split(":")[-1]))
    table_id = row.table_id
    for member in members:
        await simcord_bot.seat_ops.hand_to_computer(table_id, member.id)
    await simcord_bot.service.play_computers(table_id)
    world = World(simcord_env, _guild, channel, members)
    await settle(world, simcord_bot, table_id)
    table = await simcord_bot.service.table(table_id)
    final = message_of(world, channel.id, table.message_id)
    assert "Final result" in embed_text(final) and labels(final) == ["Rules", "?"]
    assert all(labels(end_dm(m)) == ["Rules"] for m in members), "its event decides what comes next"
    assert await refused(simcord_bot, table_id, members[0].id) == "error.rematch_tournament"


async def test_a_final_quest_rematch_gets_a_channel_of_its_own_like_the_first_table(simcord_env, simcord_bot):
    world = make_world(simcord_env)
    alice = world.members[0]
    await alice.slash(world.channel, "finalquest new", round_cap=2)
    lobby = await simcord_bot.service.table(1)
    home = next(c for c in world.guild.channels.values() if c.id == lobby.channel_id)
    for _ in range(3):
        await add_computer(alice, next(m for m in home.history() if m.id == lobby.message_id))
    old = await simcord_bot.service.table(1)
    if old.status == "running":
        assert await simcord_bot.seat_ops.hand_to_computer(1, alice.id)
    await simcord_bot.service.play_computers(1)
    await settle(world, simcord_bot, 1)
    old = await simcord_bot.service.table(1)
    final = next(m for m in home.history() if m.id == old.message_id)
    assert labels(final) == ["Rematch", "Rules", "?"]
    text = embed_text(end_dm(alice))
    result = json.loads(old.result)
    if result["outcome"] == "win":
        won = result["winner_team"] == old.seat_of(alice.id) % 2
        assert ("**won**" if won else "lost.") in text and "Winning team: " in text
    else:
        assert "Draw" in text
    await alice.click(final, label="Rematch")
    await settle(world, simcord_bot, 2)
    new = await simcord_bot.service.table(2)
    assert new.channel_id not in (old.channel_id, world.channel.id) and new.thread_id is None
    channel = next(c for c in world.guild.channels.values() if c.id == new.channel_id)
    assert channel.name.endswith("-2") and [m.id for m in channel.history() if m.embeds][:1] == [new.message_id]
    await settle(world, simcord_bot, 1)
    final = next(m for m in home.history() if m.id == old.message_id)
    assert f"[table #2]({jump_url(new)})" in final.content


async def test_a_rematch_whose_channel_is_gone_is_cancelled_not_retried_for_ever(simcord_env, simcord_bot):
    world = make_world(simcord_env)
    alice, bob = world.members[:2]
    await finished_table(world, simcord_bot, humans=2)
    await simcord_bot.ending.ops.confirm(1, alice.id, seed=7)
    await simcord_bot.ending.ops.confirm(1, bob.id, seed=8)
    await simcord_bot.store.update_table(2, channel_id=world.channel.id + 999)  # no such channel
    await settle(world, simcord_bot, 2)
    table = await simcord_bot.service.table(2)
    assert table.status == "cancelled" and table.message_id is None
    assert not any("#2" in (m.embeds[0].title or "") for m in world.channel.history() if m.embeds)
