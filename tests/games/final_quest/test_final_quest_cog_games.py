"""Final Quest through the real bot in SimCord: rebuttals, whole games (with computers and a restart)
and free questions to computer seats."""

from __future__ import annotations

import re

from tests.support import final_quest as fq
from tests.support.table import add_computer, dms, embed_text, enabled_ids, labels, make_world


# ---- Final Quest and rebuttals ------------------------------------------------------------------
async def test_wrong_final_quest_rebuttal_by_dm_offers_only_refuting_cards(simcord_env):
    world, channel, active, players = await fq.started_turn(simcord_env)
    target = players[0]
    held = fq.hand(target)
    outside = next(n for n in range(1, 14) if n not in held)

    async def quest(cards):
        return (await active.slash(channel, f"{fq.GAME} quest", player=target, cards=cards)).response.content

    assert "Name three different cards" in await quest("3 3 5")
    assert "exactly three cards" in await quest("1 2")
    assert "14 is not a card from 1 to 13" in await quest("2 5 14")
    completions = await active.autocomplete(channel, f"{fq.GAME} quest", "cards", "3 7", player=target)
    assert [c["value"] for c in completions][:2] == ["3 7 1", "3 7 2"]

    named = sorted([held[0], held[1], outside])
    assert await quest(" ".join(str(n) for n in reversed(named))) == "Done."
    assert f"makes a Final Quest on {target.name}: {named[0]}, {named[1]}, {named[2]}!" in fq.record_text(
        channel
    )
    assert fq.to_act(world, channel) == [target]
    assert labels(fq.prompt(target)) == [f"Refute with {held[2]}", "Reveal my whole hand"]
    assert f"made a Final Quest on you: {', '.join(map(str, named))}" in fq.prompt_text(target)
    for member in fq.others(world, channel, target):
        assert enabled_ids(fq.prompt(member)) == []
    await fq.click_dm(target, f"Refute with {held[2]}")
    assert f"{target.name} refutes it with {held[2]}." in fq.record_text(channel)
    assert f"known: **{held[2]}**" in embed_text(fq.table_message(channel))
    assert fq.to_act(world, channel) == [active]


async def test_reveal_whole_hand_instead_of_a_rebuttal(simcord_env):
    world, channel, active, players = await fq.started_turn(simcord_env)
    target = players[1]
    held = fq.hand(target)
    wrong = [n for n in range(1, 14) if n not in held][:3]
    await active.slash(channel, f"{fq.GAME} quest", player=target, cards=" ".join(map(str, wrong)))
    assert len(labels(fq.prompt(target))) == 4
    await fq.click_dm(target, "Reveal my whole hand")
    shown = ", ".join(map(str, held))
    assert f"{target.name} reveals the whole hand: {shown}." in fq.record_text(channel)
    assert f"known: **{shown}**" in embed_text(fq.table_message(channel))


async def test_asker_only_rebuttal_reaches_the_asker_by_dm_and_not_the_channel(simcord_env):
    world = make_world(simcord_env)
    channel = await fq.start_table(world, rebuttal="asker")
    (active,) = fq.to_act(world, channel)
    target = fq.others(world, channel, active)[0]
    held = fq.hand(target)
    named = sorted([held[0]] + [n for n in range(1, 14) if n not in held][:2])
    await active.slash(channel, f"{fq.GAME} quest", player=target, cards=" ".join(map(str, named)))
    assert labels(fq.prompt(target)) == [
        f"Refute with {held[1]}",
        f"Refute with {held[2]}",
        "Reveal my whole hand",
    ]
    assert f"only {active.name} will see it" in fq.prompt_text(target)
    await fq.click_dm(target, f"Refute with {held[2]}")

    secret = f"{target.name} showed you **{held[2]}**"
    assert secret in fq.prompt_text(active)
    assert f"Rebuttal cards shown only to you: **{held[2]}** from {target.name}" in fq.prompt_text(active)
    assert f"you showed {active.name} **{held[2]}** in secret" in fq.prompt_text(target)
    for member in fq.others(world, channel, active, target):
        assert "showed you" not in fq.prompt_text(member) and "in secret" not in fq.prompt_text(member)
    public = fq.channel_text(channel)
    assert f"{target.name} shows {active.name} a rebuttal card in secret." in public
    assert f"{target.name} showed a card to {active.name} only" in public
    assert "refutes it with" not in public and "refuted with" not in public
    assert "known:" not in embed_text(fq.table_message(channel))
    # it stays in the asker's DM after the turn
    await fq.end_turn(active)
    assert f"**{held[2]}** from {target.name}" in fq.prompt_text(active)


# ---- whole games --------------------------------------------------------------------------------
async def test_full_game_to_a_win_then_the_channel_is_unlocked(simcord_env):
    world = make_world(simcord_env)
    channel = await fq.start_table(world)
    erin = world.members[4]
    order = fq.seated(world, channel)

    (first,) = fq.to_act(world, channel)
    await first.slash(
        channel, f"{fq.GAME} check", player=fq.others(world, channel, first)[0], question="evens", count=1
    )
    await fq.end_turn(first)

    (second,) = fq.to_act(world, channel)
    before = fq.hand(second)
    await fq.click_dm(second, f"Swap {before[0]}")
    after = fq.hand(second)
    assert before[0] not in after and before[1:] == [n for n in after if n in before]
    private = fq.prompt_text(second)
    assert f"you gave {before[0]} to the centre" in private
    assert f"Centre card (you put it there): **{before[0]}**" in private
    assert f"{second.name} swaps a card with the centre card." in fq.record_text(channel)
    table = embed_text(fq.table_message(channel))
    assert "swapped 1×" in table and "known:" not in table, "the table sees a swap, not which card"
    await fq.end_turn(second)

    (third,) = fq.to_act(world, channel)
    shown = fq.hand(third)[1]
    assert (await third.slash(channel, f"{fq.GAME} show", card=shown)).response.content == "Done."
    assert f"{third.name} shows {shown}." in fq.record_text(channel)
    await third.slash(channel, f"{fq.GAME} ask", player=order[(order.index(third) + 2) % 4], question="Is it 7?")
    await (order[(order.index(third) + 2) % 4]).click(fq.table_message(channel), label="YES")
    await fq.end_turn(third)

    (fourth,) = fq.to_act(world, channel)
    target = second  # read from the DM: the hand after the swap
    cards = " ".join(str(n) for n in fq.hand(target))
    assert (
        await fourth.slash(channel, f"{fq.GAME} quest", player=target, cards=cards)
    ).response.content == "Done."

    final = fq.table_message(channel)
    text = embed_text(final)
    assert "Game over" in text and "Hands at the end" in text
    winners = sorted(m.name for m in order if order.index(m) % 2 == order.index(fourth) % 2)
    pair = f"**{winners[0]}** and **{winners[1]}**", f"**{winners[1]}** and **{winners[0]}**"
    assert "🥇 " in text and (pair[0] in text or pair[1] in text), "the winning pair stands first"
    assert "team wins!" in fq.record_text(channel) and "Final result" in fq.record_text(channel)
    assert labels(final) == ["Rematch", "Rules", "?"]
    for member in order:
        assert enabled_ids(fq.prompt(member)) == []
        said = "**won**" if member.name in winners else "lost."
        dm = fq.prompt_text(member)
        assert said in dm and "🥇 " in dm and (pair[0] in dm or pair[1] in dm), "each DM says how the team did"
    for member in [*order, erin]:
        assert not await fq.refused_to_write(member, channel), f"{member.name} is still muted"
    members = {m.id for m in world.members}
    assert not [o for o in simcord_env.backend.channels[channel.id].overwrites if o.target_id in members]


async def test_one_player_with_three_computers_plays_to_the_round_limit(simcord_env):
    world = make_world(simcord_env)
    alice = world.members[0]
    await alice.slash(world.channel, f"{fq.GAME} new", round_cap=2)
    channel = fq.table_channel(world)
    for _ in range(3):
        await add_computer(alice, fq.table_message(channel))
    moves = 0
    while fq.to_act(world, channel):
        assert fq.to_act(world, channel) == [alice]
        message = fq.prompt(alice)
        ids = enabled_ids(message)
        end = [i for i in ids if i.endswith(":end")]
        await alice.user.click(message, custom_id=(end or ids)[0])
        moves += 1
        assert moves < 60
    text = embed_text(fq.table_message(channel))
    assert "Game over" in text
    assert "The round limit (2) is reached" in fq.record_text(channel) or "team wins!" in fq.record_text(channel)
    assert not await fq.refused_to_write(alice, channel)


async def test_a_win_committed_before_a_crash_unlocks_the_channel_after_restart(simcord_env, restart):
    world = make_world(simcord_env)
    channel = await fq.start_table(world)
    (muted,) = fq.to_act(world, channel)
    await muted.slash(channel, f"{fq.GAME} check", player=fq.others(world, channel, muted)[0], question="sum_even")
    await fq.end_turn(muted)
    assert await fq.refused_to_write(muted, channel)
    (active,) = fq.to_act(world, channel)
    target = fq.others(world, channel, active)[0]
    service = simcord_env.bot.service
    (table,) = await service.store.tables_with_status("running")
    engine = await service.engine(table)
    action = f"fq:{table.seat_of(target.id)}:" + ".".join(str(n) for n in fq.hand(target))
    await service.act(table.id, active.id, len(engine.history), action)  # stored; Discord not updated
    assert await fq.refused_to_write(muted, channel)
    await restart()
    assert "Game over" in embed_text(fq.table_message(channel))
    assert not await fq.refused_to_write(muted, channel)


async def test_closed_dms_rebuttal_through_the_ephemeral_hand_button(simcord_env):
    world = make_world(simcord_env)
    dave = world.members[3]
    simcord_env.inject_error(
        "POST",
        f"/channels/{dave.user.dm_channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )
    channel = await fq.start_table(world)
    assert [m for m in dms(dave) if m.embeds] == []
    (active,) = fq.to_act(world, channel)
    if active is dave:
        ephemeral = (await dave.click(fq.table_message(channel), label="My hand / Play")).response
        await dave.click(ephemeral, label="Swap " + labels(ephemeral)[0].split()[-1])
        ephemeral = (await dave.click(fq.table_message(channel), label="My hand / Play")).response
        await dave.click(ephemeral, label="End turn")
        (active,) = fq.to_act(world, channel)
    # one of the asker's own cards is named, so dave cannot hold exactly these three
    named = [fq.hand(active)[0]] + [n for n in range(1, 14) if n not in fq.hand(active)][:2]
    await active.slash(channel, f"{fq.GAME} quest", player=dave, cards=" ".join(map(str, named)))
    ephemeral = (await dave.click(fq.table_message(channel), label="My hand / Play")).response
    refutes = [label for label in labels(ephemeral) if label.startswith("Refute with")]
    assert refutes and labels(ephemeral)[-1] == "Reveal my whole hand"
    held = {int(label.split()[-1]) for label in refutes}
    assert not held & set(named), "only cards that were not named"
    await dave.click(ephemeral, label=refutes[0])
    assert f"dave refutes it with {refutes[0].split()[-1]}." in fq.record_text(channel)


async def test_rules_and_card_suggestions(simcord_env):
    world = make_world(simcord_env)
    channel = await fq.start_table(world)
    rules = await world.members[4].slash(world.channel, f"{fq.GAME} rules")
    assert rules.ephemeral and "Final Quest" in embed_text(rules.response)
    assert "only the player whose turn it is can write there" in embed_text(rules.response)
    (active,) = fq.to_act(world, channel)
    suggested = await active.autocomplete(channel, f"{fq.GAME} swap", "card", "")
    assert sorted(c["value"] for c in suggested) == fq.hand(active)
    bystander = fq.others(world, channel, active)[0]
    assert await bystander.autocomplete(channel, f"{fq.GAME} show", "card", "") == []


# ---- computer seats and free questions ------------------------------------------------------------
def final_quest_table_id(channel) -> int:
    return int(re.search(r"#(\d+)", fq.table_message(channel).embeds[0].title).group(1))


async def test_a_free_question_to_a_computer_seat_is_refused_with_the_checked_questions(simcord_env):
    """A computer cannot read a free question, and a random YES / NO would be a lie: the asker is
    told why, offered the checked questions, and nothing happens at the table."""
    world, channel, active, players = await fq.started_turn(simcord_env)
    target = players[0]
    assert await world.env.bot.seat_ops.hand_to_computer(final_quest_table_id(channel), target.id)
    before = embed_text(fq.table_message(channel))
    refused = await active.slash(channel, f"{fq.GAME} ask", player=target, question="Is your highest card red?")
    text = refused.response.content
    assert refused.ephemeral and f"{target.name} is played by the computer" in text
    assert "`/finalquest check`" in text and "Is the sum of your cards even?" in text
    assert "Do you hold at least K even cards? (count K)" in text
    assert not [m for m in channel.history() if m.content.startswith(fq.ANNOUNCE)], "the question was not posted"
    assert embed_text(fq.table_message(channel)) == before and fq.to_act(world, channel) == [active]
    checked = await active.slash(channel, f"{fq.GAME} check", player=target, question="sum_even")
    assert checked.response.content == "Done."
    # The record names the seat as every line does; the seat list says once who plays it now.
    assert f"{active.name} asks {target.name}: “Is the sum of your cards even?”" in fq.record_text(channel)
    table = embed_text(fq.table_message(channel))
    assert table.count("(computer playing") == 1 and f"{target.name} (computer playing, " in table


async def test_an_absent_player_asked_a_free_question_lets_it_lapse_instead_of_guessing(simcord_env):
    world = make_world(simcord_env)
    channel = await fq.open_lobby(world)
    table_id = final_quest_table_id(channel)
    await world.members[0].select(fq.table_message(channel), ["60"], custom_id=f"tt:clock:{table_id}")
    announcement = world.channel.history()[-1]
    for member in world.members[1:4]:
        await member.click(announcement, label="Join")
    (active,) = fq.to_act(world, channel)
    target = fq.others(world, channel, active)[0]
    await active.slash(channel, f"{fq.GAME} ask", player=target, question="Do you like odd numbers?")
    assert fq.to_act(world, channel) == [target]
    await simcord_env.advance_time(61)
    record = fq.record_text(channel)
    assert f"The question to {target.name} lapses unanswered: {active.name} takes another action." in record
    assert f"{target.name} answers" not in record
    assert fq.to_act(world, channel) == [active]
    assert (
        "Done."
        == (await active.slash(channel, f"{fq.GAME} check", player=target, question="sum_even")).response.content
    )
