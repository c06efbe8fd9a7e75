"""Turn notices are for players who are away (issue 35), on SimCord's virtual time.

Three members play a whole Donguri game with a one-day clock. Each waits a set time after their
turn starts, then plays from their DM. Every message the bot posts and deletes is followed
(``tests/support/notices.py``): a turn ping notifies a member in the thread, a turn DM is a DM
without a hand.
"""

from __future__ import annotations

import pytest

from tests.support.notices import Watch
from tests.support.table import dms, make_world, open_table, play_from_dm, table_message, thread, to_act

DAY = 86400
GRACE = 120  # the default grace period


def table_id(world) -> int:
    return int(table_message(world).embeds[0].title.split("#")[-1].split()[0])


async def three_members(world, clock: int | None = DAY, policy: str | None = None):
    """alice, bob and carol at a 3-player Donguri table (short), started."""
    alice, bob, carol = world.members[:3]
    lobby = await open_table(world, alice, "donguri", players=3, length="short")
    if clock:
        await alice.select(table_message(world), [str(clock)], custom_id=f"tt:clock:{table_id(world)}")
    if policy:
        await alice.select(table_message(world), [policy], custom_id=f"tt:tmo:{table_id(world)}")
    await bob.click(lobby, label="Join")
    await carol.click(lobby, label="Join")
    assert to_act(world), "the game has started"
    return alice, bob, carol


async def play_out(world, wait: float, watch: Watch, moves: int | None = None) -> dict[str, int]:
    """Each member to act waits ``wait`` seconds, then plays; returns the moves each made (their
    waits). Stops after ``moves`` moves, or at the end of the game."""
    made = {m.name: 0 for m in world.members}
    while to_act(world) and (moves is None or sum(made.values()) < moves):
        await world.env.advance_time(wait)
        member = to_act(world)[0]
        await play_from_dm(member)
        made[member.name] += 1
        assert all(count <= 1 for count in watch.most_alive.values()), "one live notice per channel"
    return made


def dm_channel(member) -> int:
    return member.user.dm_channel.id


def says_your_turn(text: str) -> bool:
    return "your turn" in text.lower() or "your move" in text.lower()


@pytest.mark.slow  # a whole game or event; its subject has shorter cases in the fast lane
async def test_players_who_are_playing_get_no_notice(simcord_env):
    world = make_world(simcord_env)
    watch = Watch(simcord_env)
    await three_members(world)
    made = await play_out(world, 5, watch)
    assert "Game over" in table_message(world).embeds[0].description or not to_act(world)
    assert sum(made.values()) > 30, made
    assert watch.pings == [], [p.content for p in watch.pings]
    assert watch.turn_dms == [], [p.content for p in watch.turn_dms]
    # Only the hands: a DM per deal and player, edited as the game goes on.
    assert watch.hand_dms and sum(p.edits for p in watch.hand_dms) > sum(made.values())


async def test_players_who_are_away_get_one_notice_per_wait_and_none_after_the_game(simcord_env):
    world = make_world(simcord_env)
    watch = Watch(simcord_env)
    await three_members(world)
    made = await play_out(world, 2 * 3600, watch)
    assert not to_act(world), "the game ended"
    for member in world.members[:3]:
        waits = made[member.name]
        assert waits > 5
        assert len(watch.dms_in(dm_channel(member))) == waits, (member.name, waits)
        assert len(watch.pings_of(member.id)) == waits, (member.name, waits)
        for dm in watch.dms_in(dm_channel(member)):
            assert f"#{table_id(world)}" in dm.content and "Your turn at" in dm.content
    # Each notice went out once the turn had waited the grace period, and lived until the move.
    for notice in watch.notices():
        assert notice.deleted is not None and notice.deleted - notice.created > 3600, notice
    assert max(watch.most_alive.values()) == 1, "at most one live notice per player, and per thread"
    assert watch.live_notices() == [], "nothing is left after the game"
    home = thread(world).history()
    assert not [m.content for m in home if m.author.bot and says_your_turn(m.content)]
    for member in world.members[:3]:
        assert not [m.content for m in dms(member) if says_your_turn(m.content)]


async def test_a_thread_ping_is_posted_after_the_grace_period_and_deleted_once_the_player_moves(simcord_env):
    world = make_world(simcord_env)
    watch = Watch(simcord_env)
    await three_members(world)
    (first,) = to_act(world)
    await simcord_env.advance_time(GRACE - 5)
    assert watch.notices() == [], "nothing before the grace period"
    await simcord_env.advance_time(10)
    (ping,) = watch.pings
    assert ping.pinged == [first.id] and first.mention in ping.content and "<t:" in ping.content
    (dm,) = watch.turn_dms
    assert dm.channel_id == dm_channel(first)
    await play_from_dm(first)
    assert not ping.live and not dm.live, "the turn has passed: its notices are deleted"
    (second,) = to_act(world)
    await simcord_env.advance_time(GRACE + 5)
    assert [p.pinged for p in watch.pings if p.live] == [[second.id]]


async def test_an_unclocked_table_tells_its_away_player_too(simcord_env):
    world = make_world(simcord_env)
    watch = Watch(simcord_env)
    await three_members(world, clock=None)
    (first,) = to_act(world)
    await simcord_env.advance_time(GRACE + 1)
    (ping,) = watch.pings
    assert ping.content == f"{first.mention}, it is your turn."
    (dm,) = watch.turn_dms
    assert dm.content.startswith("Your turn at Donguri") and "due" not in dm.content
    await play_from_dm(first)
    assert watch.live_notices() == []


async def test_the_clocks_reminder_replaces_the_turn_notice(simcord_env):
    world = make_world(simcord_env)
    watch = Watch(simcord_env)
    await three_members(world, clock=3600)
    (first,) = to_act(world)
    await simcord_env.advance_time(47 * 60)
    assert [p.content.split(",")[0] for p in watch.live_notices() if p in watch.pings] == [first.mention]
    await simcord_env.advance_time(2 * 60)
    live = watch.live_notices()
    assert len(live) == 2 and all("due" in p.content for p in live), [p.content for p in live]
    assert any(p.content.startswith("⏳ Reminder") for p in live)
    assert len(watch.turn_dms) == 2 and len(watch.pings) == 2, "the turn notices were replaced"


async def test_a_game_that_ends_on_time_leaves_no_notice(simcord_env):
    world = make_world(simcord_env)
    watch = Watch(simcord_env)
    await three_members(world, clock=300, policy="end")
    await simcord_env.advance_time(301)
    assert not to_act(world)
    assert len(watch.pings) == 2, "the turn notice at 2 minutes, the reminder at 4"
    assert watch.live_notices() == []
    record = "\n".join(m.content for m in thread(world).history() if m.author.bot)
    assert "Final result" in record and "it is your turn" not in record


async def test_always_sends_the_dm_at_once_and_never_sends_none(simcord_env):
    world = make_world(simcord_env)
    watch = Watch(simcord_env)
    alice, bob, carol = world.members[:3]
    answer = await bob.slash(world.channel, "notifications", mode="always")
    assert answer.ephemeral and "as soon as your turn starts" in answer.response.content
    answer = await carol.slash(world.channel, "notifications", mode="never")
    assert answer.ephemeral and "no DMs" in answer.response.content and "still mentions you" in answer.response.content
    await three_members(world)
    made = await play_out(world, 5, watch, moves=12)
    assert made["bob"] >= 3
    bobs = watch.dms_in(dm_channel(bob))
    waits = made["bob"] + (bob in to_act(world))  # his turn may have come round as the moves stopped
    assert 1 <= len(bobs) <= waits, "at once when his turn comes round (not when he leads again)"
    assert all(p.deleted is not None and p.deleted - p.created == 5 for p in bobs if p.deleted)
    assert watch.dms_in(dm_channel(alice)) == [] and watch.pings == [], "the others are playing"
    made = await play_out(world, 3600, watch, moves=9)
    assert made["carol"] >= 2
    assert watch.dms_in(dm_channel(carol)) == [], "never: no DMs"
    assert len(watch.pings_of(carol.id)) == made["carol"], "the thread still mentions her"
    assert len(watch.dms_in(dm_channel(alice))) == made["alice"], "away (the default): one DM per wait"


async def test_notifications_shows_the_choice_and_defaults_to_away(simcord_env):
    world = make_world(simcord_env)
    alice = world.members[0]
    answer = await alice.slash(world.channel, "notifications")
    text = answer.response.content
    assert answer.ephemeral and "When away" in text and "2 minutes" in text and "/notifications mode" in text
    await alice.slash(world.channel, "notifications", mode="never")
    answer = await alice.slash(world.channel, "notifications")
    assert "Never" in answer.response.content


async def test_a_pending_notice_goes_out_once_across_restarts(simcord_env, restart):
    world = make_world(simcord_env)
    watch = Watch(simcord_env)
    await three_members(world)
    (first,) = to_act(world)
    await simcord_env.advance_time(60)
    await restart()
    assert watch.notices() == []
    await simcord_env.advance_time(61)
    assert [p.pinged for p in watch.pings] == [[first.id]] and len(watch.turn_dms) == 1
    await restart()
    await simcord_env.advance_time(3600)
    assert len(watch.pings) == 1 and len(watch.turn_dms) == 1, "not sent again"


async def test_a_notice_due_while_the_bot_was_down_goes_out_once_at_start_up(simcord_env, restart):
    world = make_world(simcord_env)
    watch = Watch(simcord_env)
    await three_members(world)
    simcord_env.bot.scheduler.stop()  # the bot is "down": its timer no longer runs
    await simcord_env.advance_time(600)
    assert watch.notices() == []
    await restart()
    assert len(watch.pings) == 1 and len(watch.turn_dms) == 1
    await restart()
    await simcord_env.advance_time(600)
    assert len(watch.pings) == 1 and len(watch.turn_dms) == 1


async def test_a_notice_sent_just_before_a_crash_is_found_not_sent_twice(simcord_env, restart, monkeypatch):
    """The process dies after Discord took the DM and before its id was stored: the next process
    finds the message in the DM channel."""
    from bot.storage.notices import NoticeRows

    world = make_world(simcord_env)
    watch = Watch(simcord_env)
    await three_members(world)
    stored = NoticeRows.sent
    crashed = []

    async def crash_once(self, table_id, users, kind, message_id):
        if kind == "dm" and not crashed:
            crashed.append(message_id)
            raise OSError("the process died here")
        await stored(self, table_id, users, kind, message_id)

    monkeypatch.setattr(NoticeRows, "sent", crash_once)
    await simcord_env.advance_time(GRACE + 0.5)
    assert crashed and len(watch.turn_dms) == 1
    await restart()
    await simcord_env.advance_time(30)
    assert len(watch.turn_dms) == 1, "found in the channel, not sent again"
    (first,) = to_act(world)
    await play_from_dm(first)
    assert watch.live_notices() == [], "and deleted once the turn passed"


async def test_a_thread_ping_for_several_players_is_edited_as_each_moves(simcord_env):
    """Arsène's dummy cards are chosen by everyone at once: one ping names the three, and as each
    chooses it is edited to name only those still waited for, then deleted."""
    world = make_world(simcord_env)
    watch = Watch(simcord_env)
    alice, bob, carol = world.members[:3]
    lobby = await open_table(world, alice, "arsene", players=3)
    await bob.click(lobby, label="Join")
    await carol.click(lobby, label="Join")
    while len(to_act(world)) == 1:  # the aside card and the trump, by one player
        await simcord_env.advance_time(5)
        await play_from_dm(to_act(world)[0])
    assert set(to_act(world)) == {alice, bob, carol}
    await simcord_env.advance_time(GRACE + 1)
    (ping,) = watch.pings
    assert sorted(ping.pinged) == sorted(m.id for m in (alice, bob, carol))
    assert len(watch.turn_dms) == 3

    def shown() -> str:
        return simcord_env.backend.messages[ping.channel_id][ping.id].content

    await play_from_dm(bob)
    assert ping.live and bob.mention not in shown() and alice.mention in shown() and carol.mention in shown()
    assert [p.live for p in watch.dms_in(dm_channel(bob))] == [False]
    await play_from_dm(carol)
    assert ping.live and shown().startswith(f"{alice.mention}, it is your turn")
    await play_from_dm(alice)
    assert watch.live_notices() == [] and len(watch.pings) == 1, "deleted, and no new ping posted"
