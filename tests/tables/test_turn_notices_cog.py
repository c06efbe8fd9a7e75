"""Turn notices are for players who are away (issues 35 and 46), on SimCord's virtual time.

Three members play a whole Donguri game with a one-day clock. Each waits a set time after their
turn starts, then plays from their DM. Every message the bot posts, edits and deletes is followed
(``tests/support/notices.py``): a turn ping notifies a member in the thread, a turn DM is a DM
without a hand. An away player gets one notice, and one ping: a DM, unless they chose ``never``
(then the thread's mention) or their DMs are closed. A notice whose turn has passed is edited to
say so, and deleted at its member's next notice or after the game, never within a minute.
"""

from __future__ import annotations

import pytest

from tests.support.notices import Watch
from tests.support.table import dms, make_world, open_table, play_from_dm, table_message, thread, to_act

DAY = 86400
GRACE = 120  # the default grace period
MIN_LIFE = 60  # a notice lives at least this long


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
        assert all(count <= 1 for count in watch.most_live.values()), "one live notice per player"
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


async def test_players_who_are_away_get_one_dm_per_wait_and_none_after_the_game(simcord_env):
    world = make_world(simcord_env)
    watch = Watch(simcord_env)
    await three_members(world)
    made = await play_out(world, 2 * 3600, watch)
    assert not to_act(world), "the game ended"
    for member in world.members[:3]:
        waits = made[member.name]
        assert waits > 5
        assert len(watch.dms_in(dm_channel(member))) == waits, (member.name, waits)
        assert watch.pings_of(member.id) == [], "the DM is their one ping: the thread does not mention them"
        for dm in watch.dms_in(dm_channel(member)):
            assert f"#{table_id(world)}" in dm.original and "Your turn at" in dm.original
    # Each notice went out once the turn had waited the grace period, said so once the member had
    # moved, and went at their next notice (or after the game).
    for notice in watch.notices():
        done = notice.spent or notice.deleted  # the last, after the game: deleted at once, being old enough
        assert done is not None and done - notice.created > 3600, notice
    assert max(watch.most_live.values()) == 1, "at most one live notice per player"
    await simcord_env.advance_time(MIN_LIFE)
    assert watch.deleted_young() == [] and watch.left() == [], "nothing is left after the game"
    home = thread(world).history()
    assert not [m.content for m in home if m.author.bot and says_your_turn(m.content)]
    for member in world.members[:3]:
        assert not [m.content for m in dms(member) if says_your_turn(m.content) or m.content.startswith("✓")]


async def test_a_dm_is_sent_after_the_grace_period_and_says_played_once_the_player_moves(simcord_env):
    world = make_world(simcord_env)
    watch = Watch(simcord_env)
    await three_members(world)
    (first,) = to_act(world)
    await simcord_env.advance_time(GRACE - 5)
    assert watch.notices() == [], "nothing before the grace period"
    await simcord_env.advance_time(10)
    (dm,) = watch.turn_dms
    assert dm.channel_id == dm_channel(first) and not dm.silent and "<t:" in dm.content
    assert watch.pings == [], "one ping: the DM"
    await simcord_env.advance_time(20)
    await play_from_dm(first)
    assert dm.alive and not dm.live, "not deleted 35 s after it pinged: edited"
    assert dm.content.startswith("✓ Played: your turn at Donguri") and f"#{table_id(world)}" in dm.content
    while to_act(world) != [first]:  # the others play at once
        await play_out(world, 5, watch, moves=1)
    # Their move took 145 s: their turn now waits twice that before they are told.
    await simcord_env.advance_time(2 * 145 - 5)
    assert len(watch.dms_in(dm_channel(first))) == 1
    await simcord_env.advance_time(10)
    first_dms = watch.dms_in(dm_channel(first))
    assert len(first_dms) == 2 and first_dms[1].live
    assert dm.deleted is not None, "the old notice goes at the member's next notice"


async def test_an_unclocked_table_tells_its_away_player_too(simcord_env):
    world = make_world(simcord_env)
    watch = Watch(simcord_env)
    await three_members(world, clock=None)
    (first,) = to_act(world)
    await simcord_env.advance_time(GRACE + 1)
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
    (notice,) = watch.live_notices()
    assert notice.recipient == first.id and "due" in notice.content
    await simcord_env.advance_time(2 * 60)
    (live,) = watch.live_notices()
    assert live.content.startswith("⏳ Reminder") and live.recipient == first.id
    assert notice.deleted is not None and len(watch.turn_dms) == 2, "the turn notice was replaced"
    assert watch.pings == []


async def test_a_reminder_too_soon_after_the_notice_is_an_edit_of_it(simcord_env):
    """A player who takes about 100 s a move waits 200 s before they are told (twice their pace);
    on a five-minute clock the reminder comes 40 s later: the notice becomes the reminder."""
    world = make_world(simcord_env)
    watch = Watch(simcord_env)
    await three_members(world, clock=300)
    await play_out(world, 100, watch, moves=6)  # everyone's pace: 100 s
    assert watch.notices() == [], "within twice their pace: nobody is told"
    (first,) = to_act(world)
    await simcord_env.advance_time(205)
    (notice,) = watch.turn_dms
    assert notice.recipient == first.id and notice.content.startswith("Your turn")
    await simcord_env.advance_time(40)
    assert len(watch.turn_dms) == 1 and notice.live, "not deleted 40 s after it pinged"
    assert notice.content.startswith("⏳ Reminder"), "edited into the reminder"


async def test_a_game_that_ends_on_time_leaves_no_notice(simcord_env):
    world = make_world(simcord_env)
    watch = Watch(simcord_env)
    await three_members(world, clock=300, policy="end")
    await simcord_env.advance_time(301)
    assert not to_act(world)
    assert len(watch.turn_dms) == 2, "the turn notice at 2 minutes, the reminder at 4"
    assert watch.live_notices() == [] and watch.deleted_young() == []
    record = "\n".join(m.content for m in thread(world).history() if m.author.bot)
    assert "Final result" in record and "it is your turn" not in record
    await simcord_env.advance_time(MIN_LIFE)
    assert watch.left() == [], "the reminder goes once it has lived a minute"


async def test_always_sends_the_dm_at_once_and_never_mentions_in_the_thread_instead(simcord_env):
    world = make_world(simcord_env)
    watch = Watch(simcord_env)
    alice, bob, carol = world.members[:3]
    answer = await bob.slash(world.channel, "notifications", mode="always")
    assert answer.ephemeral and "as soon as your turn comes round" in answer.response.content
    answer = await carol.slash(world.channel, "notifications", mode="never")
    assert answer.ephemeral and "no DMs" in answer.response.content and "mentions you instead" in answer.response.content
    await three_members(world)
    made = await play_out(world, 5, watch, moves=12)
    assert made["bob"] >= 3
    bobs = watch.dms_in(dm_channel(bob))
    waits = made["bob"] + (bob in to_act(world))  # his turn may have come round as the moves stopped
    assert 1 <= len(bobs) <= waits, "at once when his turn comes round (not when he leads again)"
    assert all(p.spent is not None and p.spent - p.created == 5 for p in bobs if not p.live)
    assert watch.deleted_young() == [], "each says played, and stays a minute at least"
    assert watch.dms_in(dm_channel(alice)) == [] and watch.pings == [], "the others are playing"
    made = await play_out(world, 3600, watch, moves=9)
    assert made["carol"] >= 2
    assert watch.dms_in(dm_channel(carol)) == [], "never: no DMs"
    assert len(watch.pings_of(carol.id)) == made["carol"], "the thread mentions her instead"
    assert all(p.pinged == [carol.id] for p in watch.pings), "and nobody else"
    assert len(watch.dms_in(dm_channel(alice))) == made["alice"], "away (the default): one DM per wait"
    assert watch.deleted_young() == []


async def test_a_server_without_thread_pings_leaves_a_never_member_untold(simcord_env, simcord_bot):
    world = make_world(simcord_env)
    watch = Watch(simcord_env)
    alice, bob, carol = world.members[:3]
    await simcord_bot.settings.change(world.guild.id, {"thread_pings": False})
    await carol.slash(world.channel, "notifications", mode="never")
    await three_members(world)
    made = await play_out(world, 3600, watch, moves=6)
    assert made["carol"] >= 1 and watch.pings == [] and watch.dms_in(dm_channel(carol)) == []
    assert len(watch.dms_in(dm_channel(alice))) == made["alice"]


async def test_a_member_whose_dms_are_closed_is_mentioned_in_the_thread(simcord_env):
    world = make_world(simcord_env)
    watch = Watch(simcord_env)
    await three_members(world)
    (first,) = to_act(world)
    simcord_env.inject_error(  # the member closes their DMs
        "POST", f"/channels/{dm_channel(first)}/messages", status=403, code=50007,
        message="Cannot send messages to this user", times=None,
    )
    await simcord_env.advance_time(GRACE + 1)
    assert watch.turn_dms == []
    (ping,) = watch.pings
    assert ping.pinged == [first.id] and first.mention in ping.content


@pytest.mark.parametrize("notify", ["away", "never"])
async def test_notifications_shows_the_choice_and_defaults_to_away(simcord_env, notify):
    world = make_world(simcord_env)
    alice = world.members[0]
    answer = await alice.slash(world.channel, "notifications")
    text = answer.response.content
    assert answer.ephemeral and "Only when your turn waits" in text and "2 minutes" in text and "/notifications mode" in text
    await alice.slash(world.channel, "notifications", mode=notify)
    answer = await alice.slash(world.channel, "notifications")
    assert ("Never" if notify == "never" else "Only when your turn waits") in answer.response.content


async def test_a_pending_notice_goes_out_once_across_restarts(simcord_env, restart):
    world = make_world(simcord_env)
    watch = Watch(simcord_env)
    await three_members(world)
    (first,) = to_act(world)
    await simcord_env.advance_time(60)
    await restart()
    assert watch.notices() == []
    await simcord_env.advance_time(61)
    assert [p.recipient for p in watch.turn_dms] == [first.id] and watch.pings == []
    await restart()
    await simcord_env.advance_time(3600)
    assert len(watch.turn_dms) == 1, "not sent again"


async def test_a_notice_due_while_the_bot_was_down_goes_out_once_at_start_up(simcord_env, restart):
    world = make_world(simcord_env)
    watch = Watch(simcord_env)
    await three_members(world)
    simcord_env.bot.scheduler.stop()  # the bot is "down": its timer no longer runs
    await simcord_env.advance_time(600)
    assert watch.notices() == []
    await restart()
    assert len(watch.turn_dms) == 1
    await restart()
    await simcord_env.advance_time(600)
    assert len(watch.turn_dms) == 1


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
    assert watch.live_notices() == [], "and it says played once the turn passed"


async def test_a_thread_ping_for_several_players_is_edited_as_each_moves(simcord_env):
    """Arsène's dummy cards are chosen by everyone at once: one ping names the three (who chose no
    DMs), and as each chooses it is edited to name only those still waited for, then to say
    they have played; it goes after the game."""
    world = make_world(simcord_env)
    watch = Watch(simcord_env)
    alice, bob, carol = world.members[:3]
    for member in (alice, bob, carol):
        await member.slash(world.channel, "notifications", mode="never")
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
    assert watch.turn_dms == []

    await play_from_dm(bob)
    assert ping.live and bob.mention not in ping.content and alice.mention in ping.content
    await play_from_dm(carol)
    assert ping.live and ping.content.startswith(f"{alice.mention}, it is your turn")
    await play_from_dm(alice)
    assert not ping.live and ping.alive and len(watch.pings) == 1, "edited, and no new ping posted"
    assert ping.content == "✓ alice has played."
