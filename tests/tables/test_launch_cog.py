"""**Play in Discord** through the real bot: offered on lobby and running table messages when the
config says the application has an Activity (``activity = true``), never otherwise; where Discord
opens no Activity (a table in a thread, a click in a DM) the member is told where to open it, in
their language, and the table is remembered for the channel where they can.

SimCord 3.2.1 knows neither the ``LAUNCH_ACTIVITY`` answer (callback type 12) nor Entry Point
commands: the launch itself and the sync that keeps the Entry Point command are tested against the
loopback fake Discord (``test_launch_process.py``), and here the commands sync as without one.
"""

from __future__ import annotations

import pytest

from bot.tables import entry_point
from tests.support.forged import forge
from tests.support.table import (
    components,
    hand_dm,
    labels,
    make_world,
    open_table,
    start_donguri,
    table_message,
)

PLAY, PLAY_JA = "Play in Discord", "Discordで遊ぶ"
OFF = pytest.mark.parametrize("bot_config", [False], indirect=True)


@pytest.fixture
def bot_config(bot_config, request, monkeypatch):
    """Activities on, unless a test is given ``False`` (``OFF``)."""
    bot_config.activity = getattr(request, "param", True)
    monkeypatch.setattr(entry_point, "with_entry_point", lambda tree: tree.sync())
    return bot_config


def table_id(message) -> int:
    return int(message.embeds[0].title.split("#")[-1].split()[0])


def play_ids(message) -> list[str]:
    return [c["custom_id"] for c in components(message) if c.get("custom_id", "").startswith("tt:play:")]


@OFF
async def test_without_an_activity_no_table_message_offers_it(simcord_env, simcord_bot):
    world = make_world(simcord_env)
    lobby = await open_table(world, world.members[0], "donguri", players=3, length="short")
    assert PLAY not in labels(lobby) and not play_ids(lobby)
    await start_donguri_joined(world, lobby)
    assert labels(table_message(world)) == ["My hand / Play", "?"], "the running table as it always was"


async def start_donguri_joined(world, lobby) -> None:
    for member in world.members[1:3]:
        await member.click(lobby, label="Join")


async def test_the_lobby_and_the_running_table_offer_it(simcord_env, simcord_bot):
    world = make_world(simcord_env)
    alice = world.members[0]
    lobby = await open_table(world, alice, "donguri", players=3, length="short")
    tid = table_id(lobby)
    assert play_ids(lobby) == [f"tt:play:{tid}"], "a lobby without a clock has its row free"
    assert labels(lobby)[:5] == ["Join", "Leave", "Start", "Cancel", "Add computer"], "the lobby keeps its buttons"
    await world.members[1].click(lobby, label="Join")
    assert play_ids(table_message(world)) == [f"tt:play:{tid}"], "it stays as members join"
    await alice.select(table_message(world), ["ja"], custom_id=f"tt:lang:{tid}")
    assert PLAY_JA in labels(table_message(world)), "in the table's language"
    await alice.select(table_message(world), ["en"], custom_id=f"tt:lang:{tid}")
    await world.members[2].click(table_message(world), label="Join")
    running = table_message(world)
    assert labels(running) == ["My hand / Play", "?", PLAY], "beside My hand and ?, before the moves"
    assert play_ids(running) == [f"tt:play:{tid}"]


async def test_a_lobby_with_a_clock_has_no_row_for_it(simcord_env, simcord_bot):
    world = make_world(simcord_env)
    alice = world.members[0]
    lobby = await open_table(world, alice, "donguri", players=3, length="short")
    await alice.select(lobby, ["3600"], custom_id=f"tt:clock:{table_id(lobby)}")
    assert not play_ids(table_message(world)), "the timeout menu takes its row"
    await start_donguri_joined(world, table_message(world))
    assert play_ids(table_message(world)), "the running table offers it"


async def test_in_a_thread_the_member_is_told_to_open_it_from_the_channel(
    simcord_env, simcord_bot, client_locales
):
    world = make_world(simcord_env)
    alice, hana = world.members[0], world.members[1]
    client_locales.update({alice.id: "en-US", hana.id: "ja"})
    await alice.slash(world.channel, "donguri new", players=3)
    hall = world.channel.threads[-1]
    await alice.slash(hall, "othello new")
    message = next(m for m in reversed(hall.history()) if m.author.bot and m.embeds and "#" in (m.embeds[0].title or ""))
    tid = table_id(message)
    assert play_ids(message) == [f"tt:play:{tid}"], "offered there too: the press says what to do"

    told = await alice.click(message, custom_id=f"tt:play:{tid}")
    assert told.ephemeral and told.response.content == (
        f"Activities cannot open in a thread. In <#{world.channel.id}>, open the App Launcher (the apps button"
        f" beside the message box) and choose **{simcord_bot.user.display_name}**: it opens at this table."
    )
    japanese = await hana.click(message, custom_id=f"tt:play:{tid}")
    assert japanese.ephemeral and japanese.response.content.startswith(
        f"スレッドではアクティビティを開けません。<#{world.channel.id}> でメッセージ入力欄の横にあるアプリランチャーを開き"
    )
    store = simcord_bot.store
    assert await store.launched_table(alice.id, world.guild.id, world.channel.id) == tid, "under the parent channel"
    assert await store.launched_table(hana.id, world.guild.id, world.channel.id) == tid
    assert await store.launched_table(alice.id, world.guild.id, hall.id) is None, "no Activity opens in the thread"


async def test_a_click_in_a_dm_is_told_to_open_it_in_the_server(simcord_env, simcord_bot, client_locales):
    world = make_world(simcord_env)
    alice, bob, _carol = await start_donguri(world)
    client_locales.update({alice.id: "en-US", bob.id: "ja"})
    tid = table_id(table_message(world))
    # No DM offers the button (an Activity there could not play the server's tables): a DM click
    # comes from a modified client, or a message of ours yet to come.
    told = await forge(alice.user, hand_dm(alice), f"tt:play:{tid}", carried=True)
    text = told.response.content
    assert told.ephemeral and text.startswith(
        f"Activities open in the server, not in DMs. In <#{world.channel.id}>, open the App Launcher"
    ), text
    assert f"it opens at [this table](https://discord.com/channels/{world.guild.id}/{world.channel.id}/" in text
    japanese = await forge(bob.user, hand_dm(bob), f"tt:play:{tid}", carried=True)
    assert japanese.response.content.startswith("アクティビティはDMでは開けません。サーバーで開いてください。")
    assert await simcord_bot.store.launched_table(alice.id, world.guild.id, world.channel.id) == tid


async def test_a_press_on_another_servers_table_or_a_finished_one_launches_nothing(simcord_env, simcord_bot):
    world = make_world(simcord_env)
    lobby = await open_table(world, world.members[0], "donguri", players=3, length="short")
    tid = table_id(lobby)
    other = make_world(simcord_env, names=("mallory",))
    own = await open_table(other, other.members[0], "donguri", players=3)
    refused = await forge(other.members[0], own, f"tt:play:{tid}", carried=True)
    assert refused.ephemeral and "another server" in refused.response.content.lower()
    await world.members[0].click(lobby, label="Cancel")
    closed = await forge(world.members[0], table_message(world), f"tt:play:{tid}", carried=True)
    assert closed.ephemeral and closed.response.content == "This table is not running."
    store = simcord_bot.store
    assert await store.launched_table(other.members[0].id, other.guild.id, other.channel.id) is None
    assert await store.launched_table(world.members[0].id, world.guild.id, world.channel.id) is None


async def test_a_press_once_the_activity_is_off_says_so(simcord_env, simcord_bot, bot_config, restart, client_locales):
    world = make_world(simcord_env)
    alice = world.members[0]
    client_locales[alice.id] = "ja"
    lobby = await open_table(world, alice, "donguri", players=3, length="short")
    tid = table_id(lobby)
    bot_config.activity = False
    fresh = await restart()
    told = await forge(alice, table_message(world), f"tt:play:{tid}", carried=True)
    assert told.ephemeral and told.response.content.startswith("このボットのアクティビティは現在使えません。")
    assert await fresh.store.launched_table(alice.id, world.guild.id, world.channel.id) is None
    await world.members[1].click(table_message(world), label="Join")
    assert not play_ids(table_message(world)), "the lobby drawn again has no button"
