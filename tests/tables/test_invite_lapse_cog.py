"""Invitations lapse: after 24 hours by default (``/settings invite_lapse``), those still unanswered
lapse; the lobby shows it, the host is told once in the table's thread, and Accept says it lapsed.
Driven by the bot's scheduler, on SimCord's virtual clock; two servers side by side, in both
languages."""

from __future__ import annotations

from tests.support.forged import answer_text, forge
from tests.support.locales import reply_text
from tests.support.servers import server, table_messages
from tests.support.table import dms, embed_text, labels

HOUR = 3600

INVITATION_MARKS = ("⚔", "✅", "❌", "⌛", "▶", "⏹", "🚫")  # an invitation DM, as it follows the lobby


async def two_servers(simcord_env, client_locales):
    english = server(simcord_env, "Cards club", members=("alice", "bob", "carol", "dave"))
    ja_server = server(simcord_env, "将棋部", locale="ja", members=("taro", "hana", "jiro"))
    for member in [*ja_server.members, ja_server.admin]:
        client_locales[member.id] = "ja"
    return english, ja_server


def invitation(member):
    return [m for m in dms(member) if (m.content or "")[:1] in INVITATION_MARKS and m.embeds][-1]


def told(thread) -> list[str]:
    return [m.content for m in thread.history() if m.author.bot and (m.content or "").startswith("⌛")]


async def test_unanswered_invitations_lapse_after_a_day_and_the_host_is_told_once(
    simcord_env, simcord_bot, client_locales
):
    english, ja_server = await two_servers(simcord_env, client_locales)
    alice, bob, carol, dave = english.members
    taro, hana, jiro = ja_server.members
    await alice.slash(english.channel, "donguri new", players=4, invite=bob, invite2=carol, invite3=dave)
    await taro.slash(ja_server.channel, "saizen new", players=3, invite=hana, invite2=jiro)
    await simcord_env.settle()
    await bob.user.click(invitation(bob), label="Accept")
    await hana.user.click(invitation(hana), label="受ける")

    await simcord_env.advance_time(23 * HOUR)
    lobby = table_messages(english.channel)[-1]
    assert "⏳ **carol**: waiting for an answer" in embed_text(lobby), "still open after 23 h"
    assert told(english.channel.threads[-1]) == []

    await simcord_env.advance_time(HOUR + 1)
    lobby = table_messages(english.channel)[-1]
    text = embed_text(lobby)
    assert "✅ **bob** accepted" in text and "⌛ **carol**: the invitation lapsed" in text
    assert "⌛ **dave**: the invitation lapsed" in text and "Invitations not answered lapse" not in text
    (notice,) = told(english.channel.threads[-1])
    assert notice.startswith(f"⌛ <@{alice.id}>, your invitations to **carol** and **dave** lapsed unanswered.")
    ja_notice = told(ja_server.channel.threads[-1])
    assert ja_notice == [
        f"⌛ <@{taro.id}> さん、**jiro** さんへの招待は返事がないまま期限切れになりました。"
        f"[卓](https://discord.com/channels/{ja_server.guild.id}/{ja_server.channel.id}/{table_messages(ja_server.channel)[-1].id})"
        "は開いたままです。着席中のプレイヤーで開始するか、CPUを追加するか、中止してください。"
    ]
    assert "⌛ **jiro** さん: 招待の期限切れ" in embed_text(table_messages(ja_server.channel)[-1])
    assert f"<#{english.channel.id}>" not in ja_notice[0] and "carol" not in ja_notice[0], "each server its own"

    carols = invitation(carol)
    assert carols.content.startswith("⌛ Your invitation to [table #1](") and labels(carols) == ["Go to the table"]
    late = await forge(carol.user, carols, "tt:inv:accept:1", carried=True)  # a click from before the edit
    assert answer_text(late) == "Your invitation to this table has lapsed."
    joined = await dave.click(lobby, label="Join")
    assert reply_text(joined) == "Your invitation to this table has lapsed."
    jiros = invitation(jiro)
    assert jiros.content.startswith("⌛ [卓 #2](") and "期限切れ" in jiros.content and labels(jiros) == ["卓へ"]
    ja_late = await forge(jiro.user, jiros, "tt:inv:accept:2", carried=True)
    assert answer_text(ja_late) == "この卓への招待は期限が切れました。"
    table = await simcord_bot.store.get_table(1)
    assert [s.user_id for s in table.seats] == [alice.id, bob.id] and table.status == "lobby"

    await simcord_env.advance_time(2 * HOUR)
    assert len(told(english.channel.threads[-1])) == 1, "told once"
    # bob joined: the lobby stays a day past the lapse, for its host to start it; then it closes.
    await simcord_env.advance_time(22 * HOUR)
    assert (await simcord_bot.store.get_table(1)).status == "cancelled"
    assert "This lobby closed: nobody joined it for 1 day." in embed_text(table_messages(english.channel)[-1])


async def test_a_server_sets_how_long_invitations_wait_and_a_restart_keeps_the_time(
    simcord_env, simcord_bot, client_locales, restart
):
    english, ja_server = await two_servers(simcord_env, client_locales)
    alice, bob = english.members[:2]
    taro, hana = ja_server.members[:2]
    shown = await english.settings(invite_lapse=HOUR)
    assert "Invitations lapse after" in reply_text(shown) and "1 hour" in reply_text(shown)
    ja_shown = await ja_server.settings(invite_lapse=4 * HOUR)
    assert "招待の期限" in reply_text(ja_shown) and "4時間" in reply_text(ja_shown)
    opened = await alice.slash(english.channel, "othello new", invite=bob)
    assert "unanswered, it lapses <t:" in reply_text(opened)
    await taro.slash(ja_server.channel, "othello new", invite=hana)
    await simcord_env.settle()
    await restart()
    await simcord_env.advance_time(HOUR + 1)
    assert len(told(english.channel.threads[-1])) == 1
    assert told(ja_server.channel.threads[-1]) == [], "the Japanese server waits four hours"
    await simcord_env.advance_time(3 * HOUR)
    assert len(told(ja_server.channel.threads[-1])) == 1
