"""Asynchronous play on SimCord's virtual time: clocks, reminders, timeouts, restarts (the turn
notices themselves: ``test_turn_notices_cog.py``)."""

from __future__ import annotations

import pytest

from tests.support.table import (
    World,
    add_computer,
    components,
    dms,
    embed_text,
    make_world,
    open_table,
    play_from_dm,
    table_message,
    thread,
    to_act,
)

HOUR = 3600


async def timed_table(world, clock: int, policy: str = "computer_turn", humans: int = 1):
    """A 3-player Donguri table with the given clock; seats beyond ``humans`` are computers."""
    alice = world.members[0]
    lobby = await open_table(world, alice, "donguri", players=3, length="short")
    await alice.select(table_message(world), [str(clock)], custom_id=f"tt:clock:{table_id(world)}")
    await alice.select(table_message(world), [policy], custom_id=f"tt:tmo:{table_id(world)}")
    for member in world.members[1:humans]:
        await member.click(lobby, label="Join")
    for _ in range(3 - humans):
        await add_computer(alice, table_message(world))
    return alice


def table_id(world) -> int:
    return int(table_message(world).embeds[0].title.split("#")[-1].split()[0])


def record(world) -> str:
    return "\n".join(m.content for m in thread(world).history() if m.author.bot)


# Plays the game to its end after the timeout (about 5 s): the timeouts themselves are in the fast
# lane in the tests below.
@pytest.mark.slow
async def test_clock_is_shown_and_a_computer_moves_for_a_player_who_times_out(simcord_env):
    world = make_world(simcord_env)
    alice = await timed_table(world, 60)
    assert "⏰ move due <t:" in table_message(world).content
    assert to_act(world) == [alice]
    notices = lambda: [m for m in dms(alice) if not m.embeds]  # noqa: E731
    assert notices() == [], "no notice as the turn starts: she may be playing"
    before = embed_text(table_message(world))
    await simcord_env.advance_time(59)
    assert embed_text(table_message(world)) == before, "nothing happens before the deadline"
    (reminder,) = notices()
    assert reminder.content.startswith("⏳ Reminder: your move at"), "the clock's reminder by DM, at 48 s"
    await simcord_env.advance_time(2)
    assert "ran out of time" in record(world)
    (reminder,) = notices()
    assert reminder.content.startswith("✓"), "the turn passed: its reminder says so (too young to delete)"
    assert "11 cards" in embed_text(table_message(world)), "a computer played one of alice's cards"
    # Alice plays the rest of the game herself; the timeout count resets and nothing else times out.
    while to_act(world):
        await play_from_dm(alice)
    assert "Game over" in embed_text(table_message(world))
    assert record(world).count("ran out of time") == 1


async def test_reminder_fires_once_when_a_fifth_of_the_clock_is_left(simcord_env):
    world = make_world(simcord_env)
    await timed_table(world, HOUR)
    alice = world.members[0]
    reminders = lambda: [m for m in dms(alice) if m.content.startswith("⏳ Reminder")]  # noqa: E731
    await simcord_env.advance_time(47 * 60)
    assert reminders() == []
    notices = lambda: [m for m in dms(alice) if m.content.startswith("Your turn at")]  # noqa: E731
    assert len(notices()) == 1, "the turn DM, sent once the turn had waited 2 minutes"
    await simcord_env.advance_time(2 * 60)
    assert len(reminders()) == 1
    assert notices() == [], "the reminder takes the turn notice's place: one live notice"
    await simcord_env.advance_time(10 * 60)
    assert len(reminders()) == 1, "no second reminder for the same move"


async def test_restart_in_the_middle_of_a_clock_keeps_the_deadline(simcord_env, restart):
    world = make_world(simcord_env)
    await timed_table(world, HOUR)
    await simcord_env.advance_time(HOUR // 2)
    await restart()
    await simcord_env.advance_time(HOUR // 2 - 60)
    assert "ran out of time" not in record(world)
    await simcord_env.advance_time(120)
    assert record(world).count("ran out of time") == 1


async def test_a_deadline_passed_while_the_bot_was_down_is_handled_once_at_start_up(simcord_env, restart):
    world = make_world(simcord_env)
    await timed_table(world, HOUR)
    simcord_env.bot.scheduler.stop()  # the bot is "down": its timer no longer runs
    await simcord_env.advance_time(3 * HOUR)
    assert "ran out of time" not in record(world)
    await restart()
    assert record(world).count("ran out of time") == 1
    await restart()
    assert record(world).count("ran out of time") == 1, "handled once, not again on the next start"


async def test_pause_stops_the_clock_for_everyone(simcord_env):
    world = make_world(simcord_env)
    alice = await timed_table(world, HOUR)
    result = await alice.slash(thread(world), "table pause")
    assert result.ephemeral and "paused" in result.response.content
    assert "Paused" in table_message(world).content
    await simcord_env.advance_time(5 * HOUR)
    assert "ran out of time" not in record(world)
    await alice.slash(thread(world), "table resume")
    await simcord_env.advance_time(HOUR - 60)
    assert "ran out of time" not in record(world)
    await simcord_env.advance_time(120)
    assert "ran out of time" in record(world)


async def test_only_the_host_pauses(simcord_env):
    world = make_world(simcord_env)
    await timed_table(world, HOUR, humans=2)
    bob = world.members[1]
    result = await bob.slash(thread(world), "table pause")
    assert result.ephemeral and "Only the host" in result.response.content


async def test_timeout_policy_end_ranks_the_absent_player_last(simcord_env):
    world = make_world(simcord_env)
    alice = await timed_table(world, 300, policy="end", humans=2)
    (first,) = to_act(world)
    await simcord_env.advance_time(301)
    text = record(world)
    assert "the table ends" in text and "Final result:" in text
    standings = text.split("Final result:**")[1]
    assert standings.strip().startswith("🥇") and f"🥉 {first.name} (⌛ ran out of time)" in standings
    final = embed_text(table_message(world))
    assert final.index("Final result") < final.index(f"🥉 {first.name} · ⌛ ran out of time"), "shown there too"
    assert to_act(world) == []
    assert alice is not None


async def test_computer_takes_the_seat_after_repeated_timeouts_and_the_host_hands_it_on(simcord_env):
    world = make_world(simcord_env)
    alice, bob, _carol, dave = world.members[:4]
    await timed_table(world, 60, policy="computer_seat", humans=2)
    for _ in range(12):
        if "takes the seat" in record(world) or "plays this seat from now on" in record(world):
            break
        (member,) = to_act(world)
        if member is bob:
            await simcord_env.advance_time(61)
        else:
            await play_from_dm(member)
    assert "plays this seat from now on" in record(world)
    assert bob not in to_act(world)
    result = await alice.slash(thread(world), "table replace", seat=bob_seat(world) + 1, member=dave)
    assert result.ephemeral and "dave" in result.response.content
    assert len(dms(dave)) == 1, "the new player receives the seat's private hand"
    mine = await dave.slash(world.channel, "mygames")
    assert "Donguri to Yamaneko" in mine.response.embeds[0].description


def bob_seat(world) -> int:
    return next(i for i, line in enumerate(seat_lines(world)) if "bob" in line)


def seat_lines(world) -> list[str]:
    return [line for line in embed_text(table_message(world)).splitlines() if "cards ·" in line]


async def test_mygames_lists_running_tables_with_whose_turn_and_a_link(simcord_env):
    world = make_world(simcord_env)
    alice = await timed_table(world, HOUR)
    result = await alice.slash(world.channel, "mygames")
    assert result.ephemeral
    text = result.response.embeds[0].description
    assert "Donguri to Yamaneko" in text and "your turn" in text and "discord.com/channels" in text
    assert "<t:" in text


async def test_the_lobby_shows_the_timeout_policy_only_with_a_clock(simcord_env, client_locales):
    for name, locale, no_clock, with_clock in (
        ("Chess club", None, "No clock: live play, no time limit", "1 hour per move · if time runs out: "),
        ("将棋部", "ja", "持ち時間なし(その場で対局)", "1手につき1時間 · 時間切れになったら: "),
    ):
        guild = simcord_env.create_guild(name, **({"preferred_locale": locale} if locale else {}))
        world = World(simcord_env, guild, guild.create_text_channel("games"))
        host = guild.add_member(simcord_env.create_user(f"host-{name}"))
        lobby = await open_table(world, host, "donguri", players=3)
        text = embed_text(lobby)
        assert no_clock in text and with_clock.split(" · ")[1] not in text
        tid = table_id(world)
        assert f"tt:tmo:{tid}" not in [c.get("custom_id") for c in components(lobby)]
        await host.select(table_message(world), [str(HOUR)], custom_id=f"tt:clock:{tid}")
        lobby = table_message(world)
        assert with_clock in embed_text(lobby) and no_clock not in embed_text(lobby)
        assert f"tt:tmo:{tid}" in [c.get("custom_id") for c in components(lobby)]
