"""Donguri through the real bot in SimCord: lobby, DMs, buttons, refusals, restarts, computers."""

from __future__ import annotations

from collections import Counter

import discord
import pytest

from tests.support.table import (
    add_computer,
    dms,
    embed_text,
    enabled_ids,
    labels,
    make_world,
    open_table,
    play_from_dm,
    table_message,
    thread,
    to_act,
)


async def start_three(world):
    alice, bob, carol = world.members[:3]
    lobby = await open_table(world, alice, "donguri", players=3, length="short")
    await bob.click(lobby, label="Join")
    await carol.click(lobby, label="Join")
    return alice, bob, carol


async def play_trick(world):
    for _ in range(3):
        (member,) = to_act(world)
        await play_from_dm(member)


async def test_lobby_then_private_hands_of_exactly_twelve_cards(simcord_env):
    world = make_world(simcord_env)
    alice, bob, carol = world.members[:3]
    lobby = await open_table(world, alice, "donguri", players=3, length="short")
    assert "Players (1/3)" in embed_text(lobby)
    assert thread(world) is not None
    await bob.click(lobby, label="Join")
    assert "Players (2/3)" in embed_text(table_message(world))
    await carol.click(lobby, label="Join")

    table = table_message(world)
    assert "Deal 1/6" in embed_text(table)
    assert labels(table) == ["My hand / Play", "?"]
    hands = []
    for member in (alice, bob, carol):
        (dm,) = dms(member)
        cards = labels(dm)
        assert len(cards) == 12 and len(set(cards)) == 12
        hands.append(set(cards))
    assert not (hands[0] & hands[1] or hands[0] & hands[2] or hands[1] & hands[2])
    (first,) = to_act(world)
    assert enabled_ids(dms(first)[-1]), "the player to act can press cards in the DM"
    for other in {alice, bob, carol} - {first}:
        assert not enabled_ids(dms(other)[-1]), "other players' cards are not pressable"


async def test_host_controls_and_refusals_in_the_lobby(simcord_env):
    world = make_world(simcord_env)
    alice, bob, carol, dave = world.members[:4]
    lobby = await open_table(world, alice, "donguri", players=4)
    await bob.click(lobby, label="Join")
    again = await bob.click(lobby, label="Join")
    assert again.ephemeral and "already seated" in again.response.content
    refused = await bob.click(lobby, label="Start")
    assert refused.ephemeral and "Only the host" in refused.response.content
    early = await alice.click(lobby, label="Start")
    assert early.ephemeral and "At least 3 players" in early.response.content
    await carol.click(lobby, label="Join")
    await alice.select(table_message(world), ["1"], custom_id="tt:kick:1")  # remove seat 1 (bob)
    seated = embed_text(table_message(world))
    assert "bob" not in seated and "carol" in seated
    await add_computer(alice, lobby)
    await dave.click(lobby, label="Join")
    assert "Deal 1/8" in embed_text(table_message(world)), "a full table starts by itself"
    assert len(dms(dave)) == 1 and len(dms(bob)) == 0


async def test_full_deal_through_buttons_posts_result_and_penalties(simcord_env):
    world = make_world(simcord_env)
    alice, bob, carol = await start_three(world)
    for trick in range(12):
        await play_trick(world)
        if trick < 11:
            assert all(len(dms(m)) == 1 for m in (alice, bob, carol)), "one DM per deal, edited"
    record = "\n".join(m.content for m in thread(world).history() if m.author.bot)
    assert record.count("Trick ") == 12
    assert "Deal 1 scored" in record
    (deal_message,) = [m for m in thread(world).history() if "Deal 1 scored" in m.content]
    assert "Trick 1:" in deal_message.content, "a deal's tricks and summary share one record message"
    assert "Deal 2/6" in embed_text(table_message(world))
    assert all(len(dms(m)) == 2 for m in (alice, bob, carol)), "a new DM for the new deal"
    penalties = Counter()
    for line in record.splitlines():
        if "Deal 1 scored" in line:
            for name in ("alice", "bob", "carol"):
                assert name in line
            penalties.update(p for p in line.split() if p.startswith("−"))
    assert "−0" in penalties, "the top scorer of the deal has no penalty"


async def test_out_of_turn_and_stale_clicks_are_refused_and_change_nothing(simcord_env):
    world = make_world(simcord_env)
    await start_three(world)
    (first,) = to_act(world)
    prompt = await first.click(table_message(world), label="My hand / Play")
    assert prompt.ephemeral
    old_prompt = prompt.response
    await play_from_dm(first)
    (second,) = to_act(world)
    before = embed_text(table_message(world))
    refused = await first.click(old_prompt, custom_id=enabled_ids(old_prompt)[0])
    assert refused.ephemeral and "out of date" in refused.response.content
    assert embed_text(table_message(world)) == before
    assert to_act(world) == [second]


async def test_spectator_cannot_open_a_hand(simcord_env):
    world = make_world(simcord_env)
    await start_three(world)
    dave = world.members[3]
    result = await dave.click(table_message(world), label="My hand / Play")
    assert result.ephemeral and "not seated" in result.response.content


async def test_closed_dms_fall_back_to_the_table_button(simcord_env):
    world = make_world(simcord_env)
    alice, bob, carol = world.members[:3]
    dm_id = carol.user.dm_channel.id
    simcord_env.inject_error(
        "POST",
        f"/channels/{dm_id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )
    await start_three(world)
    assert dms(carol) == []
    notice = [m.content for m in thread(world).history() if "could not send you a DM" in m.content]
    assert len(notice) == 1 and carol.mention in notice[0]
    for _ in range(6):
        (member,) = to_act(world)
        if member is carol:
            prompt = await carol.click(table_message(world), label="My hand / Play")
            assert prompt.ephemeral and len(labels(prompt.response)) >= 11
            await carol.click(prompt.response, custom_id=enabled_ids(prompt.response)[0])
        else:
            await play_from_dm(member)
    record = "\n".join(m.content for m in thread(world).history() if m.author.bot)
    assert "Trick 2" in record


async def test_restart_mid_deal_then_finish_the_deal(simcord_env, restart):
    world = make_world(simcord_env)
    alice, bob, carol = await start_three(world)
    for _ in range(5):
        await play_trick(world)
    (member,) = to_act(world)
    await play_from_dm(member)
    await restart()
    for _ in range(2):
        (member,) = to_act(world)
        await play_from_dm(member)
    for _ in range(6):
        await play_trick(world)
    record = "\n".join(m.content for m in thread(world).history() if m.author.bot)
    assert record.count("Trick ") == 12, "no trick is lost or replayed twice"
    assert record.count("Deal 1 scored") == 1
    assert all(len(dms(m)) == 2 for m in (alice, bob, carol))


# A whole game (about 5 s): a full deal above and test_results_cog.py keep one in the fast lane.
@pytest.mark.slow
async def test_table_with_two_computer_seats_plays_to_the_end(simcord_env):
    world = make_world(simcord_env)
    alice = world.members[0]
    lobby = await open_table(world, alice, "donguri", players=3, length="short")
    await add_computer(alice, lobby)
    await add_computer(alice, table_message(world))
    moves = 0
    while to_act(world):
        assert to_act(world) == [alice]
        await play_from_dm(alice)
        moves += 1
    assert moves == 6 * 12
    final = table_message(world)
    assert "Game over" in embed_text(final)
    assert labels(final) == ["Rematch", "Rules", "?"], "no move is left: a rematch, the rules"
    record = "\n".join(m.content for m in thread(world).history() if m.author.bot)
    assert "Final result" in record and record.count("scored") == 6
    assert isinstance(final, discord.Message)


async def test_a_move_committed_just_before_a_crash_reaches_discord_after_restart(simcord_env, restart):
    world = make_world(simcord_env)
    await start_three(world)
    (first,) = to_act(world)
    service = simcord_env.bot.service
    (table,) = await service.store.tables_with_status("running")
    engine = await service.engine(table)
    seat = table.seat_of(first.id)
    # Committed to the database, but the process "dies" before Discord is updated.
    await service.act(table.id, first.id, len(engine.history), engine.legal_actions(seat)[0])
    assert to_act(world) == [first]
    await restart()
    (second,) = to_act(world)
    assert second is not first, "the restarted bot redraws the table from the stored log"
    assert "11 cards" in embed_text(table_message(world))


async def test_an_unexpected_error_shows_an_id_and_leaves_the_table_consistent(
    simcord_env, monkeypatch, caplog
):
    from cogs.donguri.engine import DonguriEngine

    world = make_world(simcord_env)
    await start_three(world)
    (first,) = to_act(world)
    before = embed_text(table_message(world))

    def broken(self, seat, action):
        self.hands[seat].clear()  # half-applied state that must not survive
        raise RuntimeError("boom")

    monkeypatch.setattr(DonguriEngine, "_apply", broken)
    message = dms(first)[-1]
    result = await first.user.click(message, custom_id=enabled_ids(message)[0])
    simcord_env.errors.clear()
    text = result.response.content if result.response else result.followups[-1].content
    assert "Error id" in text
    error_id = text.split("`")[1]
    assert any(error_id in r.getMessage() for r in caplog.records), "the id is in the log"
    monkeypatch.undo()
    assert embed_text(table_message(world)) == before and to_act(world) == [first]
    await play_from_dm(first)
    assert to_act(world) != [first], "the table goes on from the stored state"


async def test_several_tables_run_at_once_in_one_channel(simcord_env):
    world = make_world(simcord_env)
    alice, bob, carol, dave, erin = world.members
    first = await open_table(world, alice, "donguri", players=3)
    await add_computer(alice, first)
    await bob.click(first, label="Join")
    second = await open_table(world, carol, "donguri", players=3)
    await dave.click(second, label="Join")
    await erin.click(second, label="Join")
    assert len(world.channel.threads) == 2
    assert len(dms(alice)) == 1 and len(dms(erin)) == 1
    texts = [embed_text(m) for m in world.channel.history() if m.embeds]
    assert sum("Deal 1/9" in t for t in texts) == 2


async def test_host_chooses_the_table_language_in_the_lobby(simcord_env):
    world = make_world(simcord_env)
    alice, bob, carol = world.members[:3]
    lobby = await open_table(world, alice, "donguri", players=3)
    assert "Join" in labels(lobby)
    await alice.select(table_message(world), ["ja"], custom_id="tt:lang:1")
    assert "どんぐりと山猫" in embed_text(table_message(world))
    assert "Join" not in labels(table_message(world))
    refused = await bob.select(table_message(world), ["en"], custom_id="tt:lang:1")
    assert refused.ephemeral and "Only the host" in refused.response.content, "replies follow the member"
    await bob.click(table_message(world), label=labels(table_message(world))[0])
    await carol.click(table_message(world), label=labels(table_message(world))[0])
    assert "ディール" in embed_text(table_message(world)), "public table messages use the table's language"
