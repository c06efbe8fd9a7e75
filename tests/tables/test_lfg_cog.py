"""A call for players: a server names a role (``/settings lfg_role``); a lobby still short of players
five minutes after it opened has that role mentioned once in its channel, pinging the role and
nobody else; at most one call per channel every 15 minutes, kept in the database across a restart.
Two servers side by side, in both languages, on SimCord's virtual clock."""

from __future__ import annotations

from tests.support.locales import reply_text
from tests.support.servers import server, table_messages

MINUTE = 60


async def two_servers(simcord_env, client_locales):
    english = server(simcord_env, "Cards club", members=("alice", "bob", "carol"))
    ja_server = server(simcord_env, "将棋部", locale="ja", members=("taro", "hana"))
    for member in [*ja_server.members, ja_server.admin]:
        client_locales[member.id] = "ja"
    return english, ja_server


def calls(channel) -> list:
    return [m for m in channel.history() if m.author.bot and (m.content or "").startswith("📣")]


def pings(env, message) -> tuple[list[int], list[int], bool]:
    stored = env.backend.get_message(message.channel.id, message.id)
    return stored.ping_role_ids, stored.ping_user_ids, stored.mention_everyone


async def test_a_lobby_still_short_after_five_minutes_calls_the_role_once_per_channel_window(
    simcord_env, simcord_bot, client_locales, restart
):
    english, ja_server = await two_servers(simcord_env, client_locales)
    alice, bob, carol = english.members
    taro, hana = ja_server.members
    players = english.guild.create_role("players", mentionable=True)
    boshu = ja_server.guild.create_role("募集", mentionable=True)
    shown = reply_text(await english.settings(lfg_role=players))
    assert "Call for players" in shown and f"<@&{players.id}>" in shown and "⚠️" not in shown
    assert "参加者募集の通知ロール" in reply_text(await ja_server.settings(lfg_role=boshu))

    await alice.slash(english.channel, "donguri new", players=3)
    await taro.slash(ja_server.channel, "saizen new", players=3)
    await alice.slash(english.channel, "othello new")
    await bob.click(table_messages(english.channel)[-1], label="Join")  # Othello fills and starts: no call
    await alice.slash(english.channel, "donguri new", players=3, invite=carol)  # invite-only: no call
    await simcord_env.advance_time(4 * MINUTE)
    assert calls(english.channel) == [] and calls(ja_server.channel) == []

    await simcord_env.advance_time(MINUTE + 1)
    (call,) = calls(english.channel)
    url = f"https://discord.com/channels/{english.guild.id}/{english.channel.id}/{table_messages(english.channel)[0].id}"
    assert call.content == (
        f"📣 <@&{players.id}>: 1 table here is waiting for players: [Donguri to Yamaneko #1]({url}) (1/3 seated)."
        " Press **Join** on it to play."
    )
    assert pings(simcord_env, call) == ([players.id], [], False), "the role, and nobody else"
    (ja_call,) = calls(ja_server.channel)
    assert ja_call.content.startswith(f"📣 <@&{boshu.id}> 参加者を募集中の卓が1卓あります。[")
    assert "(1/3人)" in ja_call.content and "Donguri" not in ja_call.content
    assert pings(simcord_env, ja_call) == ([boshu.id], [], False)

    # Another lobby in the same channel, due five minutes later (at 10 min): the channel was called
    # at 5 min, so it waits for the window to pass (20 min), across a restart, and is called alone.
    await carol.slash(english.channel, "saizen new", players=4)
    await simcord_env.advance_time(6 * MINUTE)
    await restart()
    await simcord_env.advance_time(8 * MINUTE)
    assert len(calls(english.channel)) == 1, "at most one call per channel every 15 minutes"
    await simcord_env.advance_time(MINUTE)
    later = calls(english.channel)
    assert len(later) == 2 and "Saizen" in later[-1].content and "Donguri" not in later[-1].content
    await simcord_env.advance_time(60 * MINUTE)
    assert len(calls(english.channel)) == 2 and len(calls(ja_server.channel)) == 1, "each lobby once"


async def test_no_role_no_call_and_the_settings_warn_when_the_role_cannot_be_mentioned(
    simcord_env, simcord_bot, client_locales
):
    english, ja_server = await two_servers(simcord_env, client_locales)
    alice = english.members[0]
    taro = ja_server.members[0]
    await alice.slash(english.channel, "donguri new", players=3)
    await simcord_env.advance_time(10 * MINUTE)
    assert calls(english.channel) == [], "no role chosen: nobody is called"
    shown = reply_text(await english.settings())
    assert "Call for players\nNone: lobbies call nobody" in shown

    english.bot_permissions(mention_everyone=False)
    quiet = english.guild.create_role("quiet", mentionable=False)
    warned = reply_text(await english.settings(lfg_role=quiet))
    assert f"⚠️ I cannot mention <@&{quiet.id}> yet: make it mentionable" in warned
    refused = reply_text(await english.settings(lfg_role=english.guild.default_role))
    assert refused == "Choose a role members take to hear of open tables, not @everyone."
    ja_server.bot_permissions(mention_everyone=False)
    ja_quiet = ja_server.guild.create_role("静か", mentionable=False)
    assert f"⚠️ 今のままでは <@&{ja_quiet.id}> をメンションできません" in reply_text(await ja_server.settings(lfg_role=ja_quiet))

    # The role deleted since: nobody is called, and /settings says so.
    gone = english.guild.create_role("gone", mentionable=True)
    await english.settings(lfg_role=gone)
    simcord_env.backend.delete_role(english.guild.id, gone.id)
    await alice.slash(english.channel, "othello new")
    await taro.slash(ja_server.channel, "othello new")
    await simcord_env.advance_time(6 * MINUTE)
    assert calls(english.channel) == []
    assert "The chosen role was deleted: lobbies call nobody" in reply_text(await english.settings())
    (ja_call,) = calls(ja_server.channel)
    assert pings(simcord_env, ja_call) == ([], [], False), "a role that cannot be mentioned pings nobody"
