"""The end of a game reaches each player once (issue 46), through the real bot in SimCord: a new
end-of-game DM per member (silent for ``/notifications never``, sent once across a crash), and a
rematch offer posted once at the table that mentions the other players, each answer editing it."""

from __future__ import annotations

import dataclasses

import pytest

from bot.core.config import Config
from bot.storage.endings import EndRows
from bot.tables.notices import jump_url
from tests.support.notices import Watch
from tests.support.table import (
    components,
    dms,
    embed_text,
    labels,
    make_world,
    result_dms,
    table_message,
    thread,
)
from tests.tables.test_rematch_cog import end_dm, finished_table, message_of, settle

PUBLIC_URL = "https://games.example/tabletop"


def offers(world) -> list:
    """The bot's rematch offers in the first table's thread."""
    return [m for m in world.channel.threads[0].history() if m.author.bot and (m.content or "").startswith("🔁")]


async def test_the_offer_mentions_each_other_player_once_and_each_answer_edits_it(simcord_env, simcord_bot):
    world = make_world(simcord_env)
    watch = Watch(simcord_env)
    alice, bob, carol = world.members[:3]
    old = await finished_table(world, simcord_bot, humans=3)
    await alice.click(table_message(world), label="Rematch")
    await settle(world, simcord_bot, 1)
    (offer,) = watch.offers
    assert sorted(offer.pinged) == sorted([bob.id, carol.id]), "the others, not the one who offered"
    first, status = offer.content.splitlines()
    assert first.startswith("🔁 ") and first.endswith(": alice would like a rematch of [table #1]("
                                                      f"{jump_url(old)}), same seats. Press **Rematch** to play again.")
    assert first.count("<@") == 2 and bob.mention in first and carol.mention in first
    assert status.startswith("Rematch? ") and all(f"{mark} {m.name}" in status for mark, m in (("✅", alice), ("⏳", bob), ("⏳", carol)))
    (posted,) = offers(world)
    assert labels(posted) == ["Rematch (1/3)", "No rematch"]

    answer = await bob.click(posted, label="Rematch (1/3)")  # on the offer itself
    assert answer.ephemeral and carol.mention in answer.response.content
    await settle(world, simcord_bot, 1)
    (posted,) = offers(world)
    assert "✅ bob" in posted.content and "⏳ carol" in posted.content and offer.edits == 1
    # carol answers from her end-of-game DM.
    started = await carol.user.click(end_dm(carol), label="Rematch")
    assert started.ephemeral and "table #2" in started.response.content
    await settle(world, simcord_bot, 2)
    await settle(world, simcord_bot, 1)
    new = await simcord_bot.service.table(2)
    (posted,) = offers(world)
    assert posted.content.splitlines()[1] == f"Rematch: [table #2]({jump_url(new)})" and labels(posted) == []
    assert len(watch.offers) == 1 and sum(len(o.pinged) for o in watch.offers) == 2, "one ping per other player"
    for member in (alice, bob, carol):
        dm = end_dm(member)
        assert labels(dm) == ["Rules"] and f"[table #2]({jump_url(new)})" in embed_text(dm), "edited once decided"


async def test_a_decline_and_the_offer_running_out_edit_the_offer(simcord_env, simcord_bot):
    world = make_world(simcord_env)
    alice, bob = world.members[:2]
    await finished_table(world, simcord_bot, humans=2)
    await bob.click(table_message(world), label="Rematch")
    await settle(world, simcord_bot, 1)
    (posted,) = offers(world)
    assert posted.content.startswith(f"🔁 {alice.mention}: bob would like a rematch")
    await alice.click(posted, label="No rematch")
    await settle(world, simcord_bot, 1)
    (posted,) = offers(world)
    assert posted.content.splitlines()[1] == "No rematch: alice declined." and labels(posted) == []
    assert "🔁 No rematch: alice declined." in embed_text(end_dm(bob)) and labels(end_dm(bob)) == ["Rules"]


async def test_an_offer_nobody_answers_says_it_expired(simcord_env, simcord_bot):
    world = make_world(simcord_env)
    alice, _bob = world.members[:2]
    await finished_table(world, simcord_bot, humans=2, clock=None)
    await alice.click(table_message(world), label="Rematch")
    await settle(world, simcord_bot, 1)
    await simcord_env.advance_time(24 * 3600 + 1)
    await settle(world, simcord_bot, 1)
    (posted,) = offers(world)
    assert posted.content.splitlines()[1] == "The rematch offer expired." and labels(posted) == []


async def test_a_rematch_with_nobody_else_to_ask_posts_no_offer(simcord_env, simcord_bot):
    world = make_world(simcord_env)
    await finished_table(world, simcord_bot, humans=1)  # alice and two computers: her press starts it
    await world.members[0].click(table_message(world), label="Rematch")
    await settle(world, simcord_bot, 2)
    await settle(world, simcord_bot, 1)
    assert offers(world) == [] and (await simcord_bot.store.rematches.get(1)).offer_message_id == 0


async def test_each_member_gets_one_end_dm_and_never_means_without_a_notification(simcord_env, simcord_bot, restart):
    world = make_world(simcord_env)
    watch = Watch(simcord_env)
    alice, bob = world.members[:2]
    await bob.slash(world.channel, "notifications", mode="never")
    await finished_table(world, simcord_bot, humans=2)
    assert [len(watch.end_dms_of(m.id)) for m in (alice, bob)] == [1, 1]
    assert not watch.end_dms_of(alice.id)[0].silent and watch.end_dms_of(bob.id)[0].silent
    bot = await restart()
    await settle(world, bot, 1)
    await alice.click(table_message(world), label="Rematch")  # the finished table is delivered again
    await settle(world, bot, 1)
    assert [len(result_dms(m)) for m in (alice, bob)] == [1, 1] and len(watch.end_dms) == 2


async def test_an_end_dm_sent_just_before_a_crash_is_found_not_sent_twice(simcord_env, simcord_bot, restart, monkeypatch):
    world = make_world(simcord_env)
    alice, bob = world.members[:2]
    stored = EndRows.set_result_dm
    crashed: list[int] = []

    async def crash_once(self, table_id, dm):
        if dm.message_id and not crashed:
            crashed.append(dm.user_id)
            raise OSError("the process died here")
        await stored(self, table_id, dm)

    monkeypatch.setattr(EndRows, "set_result_dm", crash_once)
    await finished_table(world, simcord_bot, humans=2)  # the pass after the "crash" finds it
    assert crashed and [len(result_dms(m)) for m in (alice, bob)] == [1, 1]
    bot = await restart()
    await settle(world, bot, 1)
    assert [len(result_dms(m)) for m in (alice, bob)] == [1, 1], "found in the DM channel, not sent again"
    rows = await bot.store.endings.result_dms(1)
    assert [rows[m.id].message_id for m in (alice, bob)] == [result_dms(m)[0].id for m in (alice, bob)]


async def test_a_member_whose_dms_are_closed_gets_no_end_dm_and_nothing_is_retried(simcord_env, simcord_bot):
    world = make_world(simcord_env)
    alice, bob = world.members[:2]
    simcord_env.inject_error(
        "POST", f"/channels/{bob.user.dm_channel.id}/messages", status=403, code=50007,
        message="Cannot send messages to this user", times=None,
    )
    await finished_table(world, simcord_bot, humans=2)
    assert dms(bob) == [] and len(result_dms(alice)) == 1
    assert (await simcord_bot.store.endings.result_dms(1))[bob.id].message_id == 0


class TestWithPages:
    @pytest.fixture
    def bot_config(self, bot_config) -> Config:
        """The suite's config, with a public address for the pages."""
        return dataclasses.replace(bot_config, public_url=PUBLIC_URL)

    async def test_the_end_dm_links_to_the_replay_and_a_rematch_table_to_its_page(self, simcord_env, simcord_bot):
        world = make_world(simcord_env)
        alice, bob = world.members[:2]
        await finished_table(world, simcord_bot, humans=2)
        site = simcord_bot.site
        dm = end_dm(alice)
        assert labels(dm) == ["Rematch", "Replay", "Rules"]
        (link,) = [c for c in components(dm) if c.get("url")]
        assert link["url"] == f"{PUBLIC_URL}{site.path(1)}/replay" and dm.embeds[0].url == f"{PUBLIC_URL}{site.path(1)}"
        await alice.click(table_message(world), label="Rematch")
        await bob.user.click(end_dm(bob), label="Rematch")
        await settle(world, simcord_bot, 2)
        new = await simcord_bot.service.table(2)
        first = message_of(world, world.channel.id, new.message_id)
        assert first.embeds[0].url == f"{PUBLIC_URL}{site.path(2)}", "the rematch table's first message links to its page"
        assert thread(world).id == new.thread_id
