"""Lobbies left behind: a lobby nobody joins for a day closes, its message and a line in its thread
say so; each join gives it another day; a lobby whose invitations lapse at that moment only closes.
On SimCord's virtual clock, across a restart; two servers side by side, in both languages."""

from __future__ import annotations

from tests.support.locales import reply_text
from tests.support.servers import server, table_messages
from tests.support.table import embed_text

HOUR = 3600
CLOSED = "This lobby closed: nobody joined it for 1 day."
JA_CLOSED = "1日のあいだ参加者がいなかったため、この卓を閉じました。"


async def two_servers(simcord_env, client_locales):
    english = server(simcord_env, "Cards club", members=("alice", "bob", "carol"))
    ja_server = server(simcord_env, "将棋部", locale="ja", members=("taro", "hana"))
    for member in ja_server.members:
        client_locales[member.id] = "ja"
    return english, ja_server


def lines(thread) -> list[str]:
    return [m.content for m in thread.history() if m.author.bot and (m.content or "").startswith("⌛")]


async def test_a_lobby_nobody_joins_closes_after_a_day_and_says_so(
    simcord_env, simcord_bot, client_locales, restart
):
    english, ja_server = await two_servers(simcord_env, client_locales)
    alice, bob = english.members[:2]
    taro = ja_server.members[0]
    await alice.slash(english.channel, "donguri new", players=3)
    await taro.slash(ja_server.channel, "othello new")
    await simcord_env.advance_time(12 * HOUR)
    bot = await restart()
    await simcord_env.advance_time(11 * HOUR)
    assert (await bot.store.get_table(1)).status == "lobby", "still open after 23 h"
    await simcord_env.advance_time(HOUR + 1)

    table = await bot.store.get_table(1)
    assert (table.status, table.closed_why) == ("cancelled", "idle")
    assert CLOSED in embed_text(table_messages(english.channel)[-1])
    assert lines(english.channel.threads[-1]) == [f"⌛ {CLOSED}"]
    assert JA_CLOSED in embed_text(table_messages(ja_server.channel)[-1])
    assert lines(ja_server.channel.threads[-1]) == [f"⌛ {JA_CLOSED}"]
    late = await bob.click(table_messages(english.channel)[-1], label="Join") if table_messages(english.channel)[-1].components else None
    assert late is None, "a closed lobby has no buttons"
    listed = reply_text(await bob.slash(english.channel, "tables"))
    assert listed.startswith("No table is open in this server.")


async def test_each_join_gives_the_lobby_another_day(simcord_env, simcord_bot, client_locales):
    english, ja_server = await two_servers(simcord_env, client_locales)
    alice, bob = english.members[:2]
    taro, hana = ja_server.members
    await alice.slash(english.channel, "donguri new", players=4)
    await taro.slash(ja_server.channel, "donguri new", players=3)
    await simcord_env.advance_time(20 * HOUR)
    await bob.click(table_messages(english.channel)[-1], label="Join")
    await simcord_env.advance_time(4 * HOUR + 1)
    assert (await simcord_bot.store.get_table(1)).status == "lobby", "bob joined 4 h ago"
    assert (await simcord_bot.store.get_table(2)).status == "cancelled", "nobody joined taro's"
    assert lines(english.channel.threads[-1]) == []
    closed = await hana.click(table_messages(ja_server.channel)[-1], label="参加") if table_messages(ja_server.channel)[-1].components else None
    assert closed is None
    await simcord_env.advance_time(20 * HOUR)
    assert (await simcord_bot.store.get_table(1)).status == "cancelled"
    assert lines(english.channel.threads[-1]) == [f"⌛ {CLOSED}"]


async def test_a_lobby_whose_invitations_lapse_as_it_closes_only_closes(simcord_env, simcord_bot, client_locales):
    english, ja_server = await two_servers(simcord_env, client_locales)
    alice, bob = english.members[:2]
    taro, hana = ja_server.members
    await alice.slash(english.channel, "donguri new", players=3, invite=bob)
    await ja_server.settings(invite_lapse=3 * 86400)
    await taro.slash(ja_server.channel, "othello new", invite=hana)
    await simcord_env.advance_time(24 * HOUR + 1)
    unanswered = "This lobby closed: none of the members invited joined it."
    assert lines(english.channel.threads[-1]) == [f"⌛ {unanswered}"], "closed, without a lapse notice first"
    assert (await simcord_bot.store.get_table(2)).status == "lobby", "its invitation waits three days"
    await simcord_env.advance_time(48 * HOUR)
    assert lines(ja_server.channel.threads[-1]) == ["⌛ 招待したメンバーがだれも参加しなかったため、この卓を閉じました。"]
