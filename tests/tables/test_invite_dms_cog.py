"""Invitation DMs: each member invited gets one DM in their own language with **Accept** and
**Decline**; the lobby shows who has answered; Accept seats them with the lobby's own checks, and
says so when it comes too late; a DM that cannot be sent is named to the host; the buttons work
after a restart. Two servers side by side, in both languages."""

from __future__ import annotations

from tests.support.forged import answer_text, forge
from tests.support.locales import japanese, reply_text
from tests.support.servers import server, table_messages
from tests.support.table import add_computer, components, dms, embed_text, labels

INVITATION_MARKS = ("⚔", "✅", "❌", "⌛", "▶", "⏹", "🚫")  # an invitation DM, as it follows the lobby


async def two_servers(simcord_env, client_locales):
    english = server(simcord_env, "Cards club", members=("alice", "bob", "carol", "dave", "erin"))
    ja_server = server(simcord_env, "将棋部", locale="ja", members=("taro", "hana"))
    for member in ja_server.members:
        client_locales[member.id] = "ja"
    return english, ja_server


def invitation(member):
    """The member's invitation DMs (the bot's DMs with Accept), newest last."""
    return [m for m in dms(member) if (m.content or "")[:1] in INVITATION_MARKS and m.embeds]


def guests_field(message) -> str:
    embed = message.embeds[0].to_dict()
    return next(f["value"] for f in embed["fields"] if f["name"] in ("Invited", "招待"))


async def test_each_guest_gets_one_dm_answers_show_in_the_lobby_in_both_languages(
    simcord_env, simcord_bot, client_locales
):
    english, ja_server = await two_servers(simcord_env, client_locales)
    alice, bob, carol, dave, _erin = english.members
    taro, hana = ja_server.members
    client_locales[carol.id] = "ja"  # carol reads Discord in Japanese: her DM is in Japanese, once
    await carol.slash(english.channel, "tables")  # the bot has seen her language
    opened = await alice.slash(english.channel, "donguri new", players=4, invite=bob, invite2=carol, invite3=dave)
    told = reply_text(opened)
    assert f"Invitations on their way by DM to <@{bob.id}>, <@{carol.id}> and <@{dave.id}>; unanswered, they lapse <t:" in told
    await simcord_env.settle()

    (bobs,) = invitation(bob)
    assert bobs.content.startswith("⚔️ **alice** invites you to a game of **Donguri to Yamaneko** in **Cards club**")
    assert labels(bobs) == ["Accept", "Decline", "Go to the table"]
    assert [c["custom_id"] for c in components(bobs) if c.get("custom_id")] == ["tt:inv:accept:1", "tt:inv:decline:1"]
    assert "A table for 4 players" in embed_text(bobs) and "Invited: **bob**, **carol** and **dave**" in embed_text(bobs)
    (carols,) = invitation(carol)
    assert carols.content.startswith("⚔️ **alice** さんから、**Cards club** の") and labels(carols)[:2] == ["受ける", "辞退する"]
    lobby = table_messages(english.channel)[-1]
    assert "by invitation" in embed_text(lobby)
    assert guests_field(lobby).splitlines()[:3] == [
        "⏳ **bob**: waiting for an answer", "⏳ **carol**: waiting for an answer", "⏳ **dave**: waiting for an answer"
    ]

    accepted = await bob.user.click(bobs, label="Accept")
    assert not accepted.ephemeral
    (bobs,) = invitation(bob)
    assert bobs.content.startswith("✅ You accepted: you are seated at [table #1]") and labels(bobs) == ["Go to the table"]
    declined = await carol.user.click(carols, label="辞退する")
    assert not declined.ephemeral
    (carols,) = invitation(carol)
    assert carols.content.startswith("❌ [卓 #1]") and "辞退しました" in carols.content
    await simcord_env.settle()
    lobby = table_messages(english.channel)[-1]
    assert guests_field(lobby).splitlines()[:3] == [
        "✅ **bob** accepted", "❌ **carol** declined", "⏳ **dave**: waiting for an answer"
    ]
    assert "Players (2/4)\n1. alice\n2. bob" in embed_text(lobby), "bob is seated"
    table = await simcord_bot.store.get_table(1)
    assert [s.user_id for s in table.seats] == [alice.id, bob.id]

    # A decline once answered, a forged answer by someone not invited: refused, nothing changes.
    again = await forge(carol.user, carols, "tt:inv:decline:1", carried=True)
    assert answer_text(again) == "この招待にはもう返事をしています。"

    # The Japanese server: its own table, its own DM, in Japanese.
    await taro.slash(ja_server.channel, "othello new", invite=hana)
    await simcord_env.settle()
    (hanas,) = invitation(hana)
    assert "**将棋部**" in hanas.content and japanese(embed_text(hanas))
    stranger = await forge(hana.user, hanas, "tt:inv:accept:1", carried=True)  # the other server's table
    assert answer_text(stranger) == "この卓には招待されていません。"
    assert len((await simcord_bot.store.get_table(1)).seats) == 2
    ja_lobby = table_messages(ja_server.channel)[-1]
    assert guests_field(ja_lobby).startswith("⏳ **hana** さん: 返事待ち")
    assert invitation(bob) and len(invitation(bob)) == 1, "nothing more for the other server's members"
    started = await hana.user.click(hanas, label="受ける")  # Othello seats two: it starts
    assert not started.ephemeral
    assert (await simcord_bot.store.get_table(2)).status == "running"


async def test_accept_after_the_table_started_or_closed_says_so(simcord_env, simcord_bot, client_locales):
    english, ja_server = await two_servers(simcord_env, client_locales)
    alice, bob, carol = english.members[:3]
    taro, hana = ja_server.members
    await alice.slash(english.channel, "donguri new", players=3, invite=bob, invite2=carol)
    await simcord_env.settle()
    lobby = table_messages(english.channel)[-1]
    await add_computer(alice, lobby)
    await bob.click(lobby, label="Join")  # the third seat taken: it starts
    assert (await simcord_bot.store.get_table(1)).status == "running"
    await simcord_env.settle()
    (carols,) = invitation(carol)
    assert carols.content.startswith("⏹️ [Table #1]") and labels(carols) == ["Go to the table"]
    late = await forge(carol.user, carols, "tt:inv:accept:1", carried=True)  # a click from before the edit
    assert answer_text(late) == "The table started without you: this invitation is closed."
    (bobs,) = invitation(bob)
    assert labels(bobs) == ["Go to the table"], "joined from the lobby: his DM follows"
    seated = await forge(bob.user, bobs, "tt:inv:accept:1", carried=True)
    assert answer_text(seated) == "You are already seated at this table."

    await taro.slash(ja_server.channel, "othello new", invite=hana)
    await simcord_env.settle()
    await taro.click(table_messages(ja_server.channel)[-1], label="中止")
    await simcord_env.settle()
    (hanas,) = invitation(hana)
    assert hanas.content.startswith("🚫 [卓 #2]") and labels(hanas) == ["卓へ"]
    closed = await forge(hana.user, hanas, "tt:inv:accept:2", carried=True)
    assert answer_text(closed) == "この卓は閉じられました。招待は無効です。"


def thread_lines(channel) -> list[str]:
    return [m.content for m in channel.threads[-1].history() if m.author.bot and (m.content or "").startswith("✉")]


async def test_a_member_whose_dms_are_closed_is_named_once_in_the_thread(simcord_env, simcord_bot, client_locales):
    english, ja_server = await two_servers(simcord_env, client_locales)
    alice, bob, carol = english.members[:3]
    taro, hana = ja_server.members
    for closed in (carol, hana):
        simcord_env.inject_error(
            "POST", f"/channels/{closed.user.dm_channel.id}/messages", status=403, code=50007,
            message="Cannot send messages to this user", times=None,
        )
    opened = reply_text(await alice.slash(english.channel, "donguri new", players=3, invite=bob, invite2=carol))
    assert f"Invitations on their way by DM to <@{bob.id}> and <@{carol.id}>;" in opened
    await simcord_env.settle()
    assert len(invitation(bob)) == 1 and dms(carol) == []
    lobby = table_messages(english.channel)[-1]
    assert thread_lines(english.channel) == [
        f"✉️ <@{carol.id}>, **alice** invites you to [this table]({lobby.jump_url}), but your DMs are closed,"
        " so no invitation could reach you. Press **Join** on the table to take your seat."
    ]
    await carol.click(lobby, label="Join")
    await simcord_env.settle()
    assert carol.id in [s.user_id for s in (await simcord_bot.store.get_table(1)).seats], "unreached, still invited"
    assert len(thread_lines(english.channel)) == 1, "named once"

    await taro.slash(ja_server.channel, "othello new", invite=hana)
    await simcord_env.settle()
    (ja_line,) = thread_lines(ja_server.channel)
    assert ja_line.startswith(f"✉️ <@{hana.id}> さん、**taro** さんから[この卓](") and "DM を受け付けていない" in ja_line


async def test_the_invitation_buttons_work_after_a_restart(simcord_env, simcord_bot, restart, client_locales):
    english, _ja = await two_servers(simcord_env, client_locales)
    alice, bob = english.members[:2]
    await alice.slash(english.channel, "othello new", invite=bob)
    await simcord_env.settle()
    bot = await restart()
    answered = await bob.user.click(invitation(bob)[0], label="Accept")
    assert not answered.ephemeral
    assert (await bot.store.get_table(1)).status == "running"
    await simcord_env.settle()
    assert invitation(bob)[0].content.startswith("▶️ [Table #1]"), "the game started: his DM says so"


async def test_tables_marks_an_invite_only_lobby_and_offers_its_join_only_to_guests(
    simcord_env, simcord_bot, client_locales
):
    english, ja_server = await two_servers(simcord_env, client_locales)
    alice, bob, carol = english.members[:3]
    taro, hana = ja_server.members
    await alice.slash(english.channel, "donguri new", players=3, invite=bob)

    def joins(result) -> list[str]:
        return [c["custom_id"] for c in components(result.response) if c.get("custom_id", "").startswith("tt:join:")]

    listed = await bob.slash(english.channel, "tables")
    assert "🔒 by invitation" in reply_text(listed) and joins(listed) == ["tt:join:1"]
    assert joins(await carol.slash(english.channel, "tables")) == [], "carol is not invited"
    await taro.slash(ja_server.channel, "donguri new", players=3, invite=hana)
    ja_listed = await hana.slash(ja_server.channel, "tables")
    assert "🔒 招待制" in reply_text(ja_listed) and joins(ja_listed) == ["tt:join:2"]
