"""Final Quest through the real bot in SimCord: its own channel, speaking turns, questions
(rebuttals and whole games: test_final_quest_cog_games.py).

Seats and the first player are random, so each test reads who is where from what players see:
the table message names the player to act, the table embed lists seats, each DM shows a hand.
"""

from __future__ import annotations

import discord

from bot.storage.store import Store
from tests.support import final_quest as fq
from tests.support.table import dms, embed_text, enabled_ids, labels, make_world, refused_click


# ---- the table, its channel, the hands ------------------------------------------------------
async def test_own_channel_teams_options_and_private_hands(simcord_env):
    world = make_world(simcord_env)
    channel = await fq.open_lobby(world, rebuttal="asker", round_cap=5)
    assert channel.name == "final-quest-1"
    lobby = fq.table_message(channel)
    assert "Rebuttal card shown to: the asker only, by DM" in embed_text(lobby)
    assert "Round limit: draw after 5 rounds" in embed_text(lobby)
    for member in world.members[1:4]:
        await member.click(lobby, label="Join")

    table = fq.table_message(channel)
    text = embed_text(table)
    assert "round 1 of 5" in text
    order = fq.seated(world, channel)
    assert sorted(m.name for m in order) == ["alice", "bob", "carol", "dave"]
    team_a = text.split("Team A (seats 1 and 3)")[1].split("Team B")[0]
    assert f"1. {order[0].name}" in team_a and f"3. {order[2].name}" in team_a
    assert order[1].name not in team_a and order[3].name not in team_a
    assert [a.filename for a in table.attachments] == ["table.png"]

    hands = [set(fq.hand(m)) for m in order]
    assert all(len(h) == 3 for h in hands)
    assert len(set().union(*hands)) == 12 and set().union(*hands) < set(range(1, 14))
    for seat, member in enumerate(order):
        assert len(dms(member)) == 1
        partner = order[(seat + 2) % 4].name
        assert f"partner: {partner}" in fq.prompt_text(member)
    (active,) = fq.to_act(world, channel)
    assert labels(fq.prompt(active)) == [f"Swap {n}" for n in fq.hand(active)] + [
        f"Show {n}" for n in fq.hand(active)
    ] + ["End turn"]
    assert len(enabled_ids(fq.prompt(active))) == 6, "End turn waits for the action"
    for member in fq.others(world, channel, active):
        assert enabled_ids(fq.prompt(member)) == []
        assert "Waiting for" in fq.prompt_text(member)
    assert "known:" not in text and "Cards shown to everyone" not in text, "no card is public yet"


# ---- speaking turns -----------------------------------------------------------------------------
async def test_out_of_turn_messages_never_stay_and_the_turn_player_talks(simcord_env):
    """What the platform achieves today: refused by permissions, or deleted at once with a DM."""
    world = make_world(simcord_env)
    channel = await fq.start_table(world)
    for _ in range(2):
        (active,) = fq.to_act(world, channel)
        message = await active.send(channel, "I hold the 7, honestly.")
        assert any(m.id == message.id for m in channel.history()), "the turn player's words stay"
        for member in fq.others(world, channel, active):
            before = len(dms(member))
            if not await fq.refused_to_write(member, channel):
                assert "I hold the 7!" not in [m.content for m in channel.history()]
                assert len(dms(member)) == before + 1
                assert "only the player whose turn it is may speak" in dms(member)[-1].content
        target = fq.others(world, channel, active)[0]
        result = await active.slash(channel, f"{fq.GAME} check", player=target, question="sum_even")
        assert result.response.content == "Done."
        await fq.end_turn(active)
        assert fq.to_act(world, channel) != [active]


async def test_permissions_refuse_everyone_but_the_turn_player_and_follow_the_turn(simcord_env):
    world = make_world(simcord_env)
    channel = await fq.start_table(world)
    erin = world.members[4]
    for _ in range(2):
        (active,) = fq.to_act(world, channel)
        assert not await fq.refused_to_write(active, channel)
        for member in [*fq.others(world, channel, active), erin]:
            assert await fq.refused_to_write(member, channel), f"{member.name} could write out of turn"
        target = fq.others(world, channel, active)[0]
        await active.slash(channel, f"{fq.GAME} check", player=target, question="sum_even")
        await fq.end_turn(active)
        assert await fq.refused_to_write(active, channel), "the previous player is muted again"


async def test_fallback_without_manage_permissions_deletes_out_of_turn_messages(simcord_env):
    world = make_world(simcord_env)
    fq.set_bot_permissions(simcord_env, world, manage_roles=False)
    admin = world.guild.create_role("admins", permissions=discord.Permissions(administrator=True))
    backend = simcord_env.backend
    for member in world.members[:4]:  # administrators may write anywhere: the bot must delete instead
        backend.add_member_role(world.guild.id, member.id, admin.id)
    await simcord_env.settle()
    channel = await fq.start_table(world)
    (active,) = fq.to_act(world, channel)
    kept = await active.send(channel, "My turn: I hold 7.")
    for member in fq.others(world, channel, active):
        before = len(dms(member))
        message = await member.send(channel, "me too")
        assert all(m.id != message.id for m in channel.history()), "deleted at once"
        assert len(dms(member)) == before + 1
        assert "only the player whose turn it is may speak" in dms(member)[-1].content
    assert any(m.id == kept.id for m in channel.history())
    # no overwrites are used in this mode
    overwrites = backend.channels[channel.id].overwrites
    assert not [o for o in overwrites if o.target_id in {m.id for m in world.members}]


async def test_fallback_lets_the_turn_player_talk(simcord_env):
    world = make_world(simcord_env)
    fq.set_bot_permissions(simcord_env, world, manage_roles=False)
    await simcord_env.settle()
    channel = await fq.start_table(world)
    (active,) = fq.to_act(world, channel)
    assert not await fq.refused_to_write(active, channel)


async def test_missing_permissions_are_named_at_creation(simcord_env):
    world = make_world(simcord_env)
    alice = world.members[0]
    fq.set_bot_permissions(simcord_env, world, manage_roles=False, manage_messages=False)
    await simcord_env.settle()
    result = await alice.slash(world.channel, f"{fq.GAME} new")
    assert result.ephemeral and "Manage Permissions" in result.response.content
    fq.set_bot_permissions(simcord_env, world, manage_channels=False, manage_roles=True)
    await simcord_env.settle()
    result = await alice.slash(world.channel, f"{fq.GAME} new")
    assert result.ephemeral and "Manage Channels" in result.response.content
    assert not [n for n in world.guild.channels if n.startswith("final-quest")]


# ---- questions ----------------------------------------------------------------------------------
async def test_free_question_yes_no_buttons_only_for_the_asked_member(simcord_env):
    world, channel, active, (target, bystander, _) = await fq.started_turn(simcord_env)
    erin = world.members[4]
    result = await active.slash(
        channel, f"{fq.GAME} ask", player=target, question="Is your   highest card a face card? @everyone"
    )
    assert result.ephemeral and result.response.content == "Done."
    announce = [m.content for m in channel.history() if m.content.startswith(fq.ANNOUNCE)]
    assert announce == [
        f"❓ **{active.name}** asks {target.mention}: Is your highest card a face card? @\u200beveryone"
    ]
    table = fq.table_message(channel)
    assert labels(table) == ["My hand / Play", "?", "YES", "NO", "Not a YES/NO question"]
    assert fq.to_act(world, channel) == [target]
    assert f"Waiting for **{target.name}** to answer YES or NO" in embed_text(table)
    question = f"❓ **{active.name}** asks: “Is your highest card a face card? @\u200beveryone”"
    assert question in embed_text(table), "the open question is on the table message itself"
    assert labels(fq.prompt(target)) == ["YES", "NO", "Not a YES/NO question"]

    await refused_click(bystander, table, "It is not your turn", label="YES")
    await refused_click(active, table, "It is not your turn", label="NO")
    await refused_click(erin, table, "not seated", label="YES")
    assert fq.to_act(world, channel) == [target], "nobody else answered"

    await target.click(fq.table_message(channel), label="NO")
    assert f"{target.name} answers NO." in fq.record_text(channel)
    assert labels(fq.table_message(channel)) == ["My hand / Play", "?"]
    assert "Answer: **NO**" in embed_text(fq.table_message(channel))
    assert "asks: “" not in embed_text(fq.table_message(channel)), "answered: no longer open"
    assert fq.to_act(world, channel) == [active]
    assert "End turn" in [c for c in labels(fq.prompt(active))]
    assert len(enabled_ids(fq.prompt(active))) == 4, "after the action: show cards or end the turn"
    again = await active.slash(channel, f"{fq.GAME} check", player=target, question="sum_even")
    assert "already taken your action" in again.response.content


async def test_a_person_declines_a_question_that_yes_or_no_cannot_answer_and_it_lapses(simcord_env):
    """Ruling 2026-11-26: the asked person may decline; nothing is recorded and the asker acts again."""
    world, channel, active, (target, bystander, _) = await fq.started_turn(simcord_env)
    await active.slash(channel, f"{fq.GAME} ask", player=target, question="Which card do you like best?")
    assert "decline with **Not a YES/NO question**" in fq.prompt_text(target)
    await refused_click(bystander, fq.table_message(channel), "It is not your turn", label="Not a YES/NO question")
    assert fq.to_act(world, channel) == [target]

    await fq.click_dm(target, "Not a YES/NO question")
    record = fq.record_text(channel)
    assert f"The question to {target.name} lapses unanswered: {active.name} takes another action." in record
    assert f"{target.name} answers" not in record
    assert fq.to_act(world, channel) == [active]
    table = fq.table_message(channel)
    assert labels(table) == ["My hand / Play", "?"] and "asks: “" not in embed_text(table)
    checked = await active.slash(channel, f"{fq.GAME} check", player=target, question="sum_even")
    assert checked.response.content == "Done.", "the lapsed question was not the turn's action"


async def test_checked_questions_are_answered_truthfully_and_checked_first(simcord_env):
    world, channel, active, (target, bystander, _) = await fq.started_turn(simcord_env)
    erin = world.members[4]

    choices = await active.autocomplete(channel, f"{fq.GAME} check", "question", "", player=target)
    assert [c["value"] for c in choices] == ["has", "sum_even", "atleast", "sum_atleast", "evens"]
    assert (await active.autocomplete(channel, f"{fq.GAME} check", "question", "even"))[0]["value"] in (
        "sum_even",
        "evens",
    )

    async def check(member, **options):
        return (await member.slash(channel, f"{fq.GAME} check", **options)).response.content

    assert "needs the number field: a number from 1 to 13" in await check(
        active, player=target, question="has"
    )
    assert "count field must be from 1 to 3, not 5" in await check(
        active, player=target, question="atleast", count=5, number=9
    )
    assert "Unknown question" in await check(active, player=target, question="colour")
    assert "erin is not playing at this table" in await check(active, player=erin, question="sum_even")
    assert "Choose another player" in await check(active, player=active, question="sum_even")
    assert "It is not your turn" in await check(bystander, player=target, question="sum_even")
    assert "Done." == await check(active, player=target, question="atleast", count=2, number=7)
    truth = sum(1 for n in fq.hand(target) if n >= 7) >= 2
    line = f"{active.name} asks {target.name}: “Do you hold at least 2 cards of 7 or higher?” — "
    assert line + ("YES" if truth else "NO") in fq.record_text(channel)


async def test_a_question_is_kept_with_its_move_or_not_at_all(simcord_env, monkeypatch):
    """The question's text is written in its move's transaction: when writing it fails (as a crash
    between the two would), the question is not asked either, and asking again works (43.2)."""
    world, channel, active, (target, _, _) = await fq.started_turn(simcord_env)
    update_table = Store.update_table

    async def failing(self, table_id, **fields):
        if "talk" in fields:
            raise OSError("the disk is gone")
        return await update_table(self, table_id, **fields)

    monkeypatch.setattr(Store, "update_table", failing)
    result = await active.slash(channel, f"{fq.GAME} ask", player=target, question="Is your lowest card red?")
    assert "nothing was changed" in result.response.content
    assert fq.to_act(world, channel) == [active], "no question asked without its text"
    monkeypatch.setattr(Store, "update_table", update_table)
    result = await active.slash(channel, f"{fq.GAME} ask", player=target, question="Is your lowest card red?")
    assert result.response.content == "Done."
    assert fq.to_act(world, channel) == [target]
    assert "asks: “Is your lowest card red?”" in embed_text(fq.table_message(channel))
