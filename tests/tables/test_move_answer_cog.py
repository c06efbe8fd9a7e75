"""The mover of an applied move is told so, even when the answer to their click fails on the way.

A move is committed before its click is answered. When that answer failed (a 502 on the
interaction callback), the move stood and the worker redrew the hands later, but the mover saw
"This interaction failed" and was told nothing. Now the answer is tried again while Discord takes
it; failing that, the mover gets a private follow-up (or, when Discord gave up on the click, a
DM) in their language.
"""

from __future__ import annotations

import logging

import pytest

from bot.tables import in_time
from tests.games.donguri.test_donguri_cog import start_three
from tests.support.table import dms, enabled_ids, hand_dm, labels, make_world, to_act

CALLBACK = "/interactions/*/callback"


@pytest.fixture(autouse=True)
def no_pause_between_tries(monkeypatch):
    """SimCord cannot wait out a sleep inside a click's handler: the tries follow one another."""
    monkeypatch.setattr(in_time, "RETRY_AFTER", 0.0)


async def moves_made(bot) -> int:
    (table,) = await bot.service.store.tables_with_status("running")
    return len((await bot.service.engine(table)).history)


async def click_first_card(member):
    message = hand_dm(member)
    (first, *_) = enabled_ids(message)
    return message, await member.user.click(message, custom_id=first)


async def test_a_move_whose_answer_fails_once_is_answered_by_a_second_try(simcord_env):
    world = make_world(simcord_env)
    await start_three(world)
    (mover,) = to_act(world)
    simcord_env.inject_error("POST", CALLBACK, status=502, message="Bad Gateway", times=1)
    message, click = await click_first_card(mover)
    assert await moves_made(simcord_env.bot) == 1
    assert click.acknowledged, "the click is answered, not left to fail"
    redrawn = [m for m in dms(mover) if m.id == message.id][0]
    assert len(labels(redrawn)) == 11, "the answer itself redrew the clicked hand: one card fewer"
    assert not any("was played" in m.content for m in dms(mover)), "no need for another word"


async def test_a_late_answer_that_cannot_redraw_the_hand_ends_in_a_private_follow_up(
    simcord_env, client_locales, monkeypatch
):
    """Under load the click is acknowledged first (a deferral) and its answer edits the clicked
    message later; when that edit keeps failing, the mover reads an ephemeral word in Japanese."""
    world = make_world(simcord_env)
    await start_three(world)
    (mover,) = to_act(world)
    client_locales[mover.id] = "ja"
    monkeypatch.setattr(simcord_env.bot.arrivals, "left", lambda interaction: 0.0)  # deferred at once
    simcord_env.inject_error("PATCH", "/webhooks/*/*/messages/@original", status=502, times=None)
    _, click = await click_first_card(mover)
    assert await moves_made(simcord_env.bot) == 1
    assert click.deferred
    (word,) = click.followups
    assert word.ephemeral and word.content.startswith("✅ [この卓](") and "手を受け付けました" in word.content


async def test_a_move_discord_gave_up_on_is_told_by_dm(simcord_env, caplog):
    """The answer fails until Discord's 3 s are over: no answer can reach the click any more, and a
    follow-up needs one. The mover reads it in their DM, and their hand there is redrawn."""
    world = make_world(simcord_env)
    await start_three(world)
    (mover,) = to_act(world)
    simcord_env.inject_error("POST", CALLBACK, status=502, message="Bad Gateway", times=None)
    with caplog.at_level(logging.WARNING):
        message, click = await click_first_card(mover)
    simcord_env.backend.faults.clear()
    await simcord_env.settle()
    assert await moves_made(simcord_env.bot) == 1
    assert not click.acknowledged
    told = [m.content for m in dms(mover) if "was played" in m.content]
    assert len(told) == 1 and told[0].startswith("✅ Your move at [this table](https://discord.com/channels/")
    assert len(labels(hand_dm(mover))) == 11, "the worker redrew the hand"
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], "warnings at most"
