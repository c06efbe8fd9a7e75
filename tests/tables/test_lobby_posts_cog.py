"""A lobby's own messages go out once, crash or not: the invitation DMs (the command only commits
the lobby; its delivery pass sends them), the host's notice that invitations lapsed, a call for
players. A send Discord refuses for a while is retried; a process that dies before sending, or
after sending but before storing it, is followed by one that sends it once, never twice. Two
servers side by side, in both languages, on SimCord's virtual clock."""

from __future__ import annotations

import pytest

from bot.storage.lobby_posts import LobbyPostRows
from tests.support.locales import reply_text
from tests.support.servers import server, table_messages
from tests.support.table import dms, embed_text, labels

HOUR = 3600
MINUTE = 60

INVITATION_MARKS = ("⚔", "✅", "❌", "⌛", "▶", "⏹", "🚫")  # an invitation DM, as it follows the lobby


async def two_servers(simcord_env, client_locales):
    english = server(simcord_env, "Cards club", members=("alice", "bob", "carol"))
    ja_server = server(simcord_env, "将棋部", locale="ja", members=("taro", "hana", "jiro"))
    for member in [*ja_server.members, ja_server.admin]:
        client_locales[member.id] = "ja"
    return english, ja_server


def invitations(member) -> list:
    return [m for m in dms(member) if (m.content or "")[:1] in INVITATION_MARKS and m.embeds]


def lapse_notices(channel) -> list[str]:
    return [m.content for m in channel.threads[-1].history() if m.author.bot and (m.content or "").startswith("⌛ <@")]


def calls(channel) -> list[str]:
    return [m.content for m in channel.history() if m.author.bot and (m.content or "").startswith("📣")]


def fail_posts(simcord_env, channel_id: int, times: int | None = 1) -> None:
    """Discord answers 503 (which discord.py does not retry itself)."""
    simcord_env.inject_error("POST", f"/channels/{channel_id}/messages", status=503, message="Unavailable", times=times)


@pytest.fixture
def crash_after_send(monkeypatch):
    """The first row stored for a message sent (``surface`` begins so) fails, as a process dying
    between Discord's answer and the commit would leave it: the message is out, its id unknown."""
    stored = LobbyPostRows.set
    crashed: list[str] = []

    def arm(start: str) -> list[str]:
        async def crash_once(self, table_id, post):
            if post.surface.startswith(start) and post.message_id and not crashed:
                crashed.append(post.surface)
                raise OSError("the process died here")
            await stored(self, table_id, post)

        monkeypatch.setattr(LobbyPostRows, "set", crash_once)
        return crashed

    return arm


def dies_before_its_passes(bot) -> None:
    """The process dies right after its commits: no delivery pass runs (the next process's does)."""
    bot.services.delivery.request = lambda table_id: None


async def test_an_invitation_dm_discord_refuses_is_retried_and_sent_once(simcord_env, simcord_bot, client_locales):
    english, ja_server = await two_servers(simcord_env, client_locales)
    alice, bob, carol = english.members
    taro, hana = ja_server.members[:2]
    fail_posts(simcord_env, bob.user.dm_channel.id)
    fail_posts(simcord_env, hana.user.dm_channel.id, times=2)
    await alice.slash(english.channel, "donguri new", players=3, invite=bob, invite2=carol)
    await taro.slash(ja_server.channel, "othello new", invite=hana)
    await simcord_env.settle()
    assert simcord_env.backend.faults == [], "every refusal was met"
    assert len(invitations(bob)) == 1 and labels(invitations(bob)[0]) == ["Accept", "Decline", "Go to the table"]
    (hanas,) = invitations(hana)
    assert "**将棋部**" in hanas.content and labels(hanas)[:2] == ["受ける", "辞退する"]
    await simcord_env.advance_time(HOUR)
    assert [len(invitations(m)) for m in (bob, carol, hana)] == [1, 1, 1], "each once"


async def test_the_dms_of_a_lobby_opened_just_before_a_crash_go_out_after_the_restart(
    simcord_env, simcord_bot, client_locales, restart
):
    english, ja_server = await two_servers(simcord_env, client_locales)
    alice, bob, carol = english.members
    taro, hana = ja_server.members[:2]
    dies_before_its_passes(simcord_bot)
    opened = await alice.slash(english.channel, "donguri new", players=3, invite=bob)
    assert f"Invitation on its way by DM to <@{bob.id}>" in reply_text(opened), "committed: the host is answered"
    await taro.slash(ja_server.channel, "othello new", invite=hana)
    await simcord_env.settle()
    assert invitations(bob) == [] and invitations(hana) == []
    bot = await restart()
    await simcord_env.settle()
    (bobs,) = invitations(bob)
    assert bobs.content.startswith("⚔️ **alice** invites you")
    assert len(invitations(hana)) == 1 and invitations(hana)[0].content.startswith("⚔️ **taro** さんから")
    answered = await bob.user.click(bobs, label="Accept")
    assert not answered.ephemeral and [s.user_id for s in (await bot.store.get_table(1)).seats] == [alice.id, bob.id]
    await restart()
    await simcord_env.advance_time(HOUR)
    assert [len(invitations(m)) for m in (bob, carol, hana)] == [1, 0, 1]


async def test_an_invitation_dm_sent_just_before_a_crash_is_found_not_sent_twice(
    simcord_env, simcord_bot, client_locales, restart, crash_after_send
):
    english, ja_server = await two_servers(simcord_env, client_locales)
    alice, bob, carol = english.members
    crashed = crash_after_send("invite:")
    await alice.slash(english.channel, "donguri new", players=3, invite=bob, invite2=carol)
    await simcord_env.settle()
    assert crashed == [f"invite:{bob.id}"]
    bot = await restart()
    await simcord_env.settle()
    assert [len(invitations(m)) for m in (bob, carol)] == [1, 1], "found in the DM channel, not sent again"
    posts = await bot.store.lobby_posts.of(1)
    assert posts[f"invite:{bob.id}"].message_id == invitations(bob)[0].id
    await bob.user.click(invitations(bob)[0], label="Accept")
    await simcord_env.settle()
    assert "✅ **bob** accepted" in embed_text(table_messages(english.channel)[-1])


async def test_the_hosts_lapse_notice_is_retried_and_sent_once_across_a_crash(
    simcord_env, simcord_bot, client_locales, restart, crash_after_send
):
    english, ja_server = await two_servers(simcord_env, client_locales)
    alice, bob, carol = english.members
    taro, hana, jiro = ja_server.members
    await alice.slash(english.channel, "donguri new", players=3, invite=bob, invite2=carol)
    await taro.slash(ja_server.channel, "saizen new", players=3, invite=hana, invite2=jiro)
    await simcord_env.settle()
    await bob.user.click(invitations(bob)[0], label="Accept")  # a guest joined: the lobby outlives the lapse
    await hana.user.click(invitations(hana)[0], label="受ける")
    fail_posts(simcord_env, english.channel.threads[-1].id)  # Discord refuses the English notice once
    crashed = crash_after_send("lapse")  # the Japanese one is sent, then the process dies
    await simcord_env.advance_time(24 * HOUR + 1)
    assert simcord_env.backend.faults == [] and crashed == ["lapse"]
    (notice,) = lapse_notices(english.channel)
    assert notice.startswith(f"⌛ <@{alice.id}>, your invitation to **carol** lapsed unanswered.")
    (ja_notice,) = lapse_notices(ja_server.channel)
    assert ja_notice.startswith(f"⌛ <@{taro.id}> さん、**jiro** さんへの招待は返事がないまま期限切れになりました。")
    await restart()
    await simcord_env.advance_time(HOUR)
    assert len(lapse_notices(english.channel)) == 1 and len(lapse_notices(ja_server.channel)) == 1, "told once"


async def servers_calling(simcord_env, client_locales):
    english, ja_server = await two_servers(simcord_env, client_locales)
    players = english.guild.create_role("players", mentionable=True)
    boshu = ja_server.guild.create_role("募集", mentionable=True)
    await english.settings(lfg_role=players)
    await ja_server.settings(lfg_role=boshu)
    await english.members[0].slash(english.channel, "donguri new", players=3)
    await ja_server.members[0].slash(ja_server.channel, "saizen new", players=3)
    return english, ja_server, players, boshu


def check_calls(english, ja_server, players, boshu) -> None:
    (call,) = calls(english.channel)
    assert call.startswith(f"📣 <@&{players.id}>: 1 table here is waiting for players: [Donguri to Yamaneko #1](")
    (ja_call,) = calls(ja_server.channel)
    assert ja_call.startswith(f"📣 <@&{boshu.id}> 参加者を募集中の卓が1卓あります。")


async def test_a_call_for_players_refused_or_cut_short_is_sent_once(
    simcord_env, simcord_bot, client_locales, restart, crash_after_send
):
    english, ja_server, players, boshu = await servers_calling(simcord_env, client_locales)
    fail_posts(simcord_env, english.channel.id)  # Discord refuses the English call once
    crashed = crash_after_send("call")  # the Japanese one is sent, then the process dies
    await simcord_env.advance_time(5 * MINUTE + 1)
    assert simcord_env.backend.faults == [] and crashed == ["call"]
    check_calls(english, ja_server, players, boshu)
    await restart()
    await simcord_env.advance_time(HOUR)
    check_calls(english, ja_server, players, boshu)


async def test_a_call_decided_just_before_a_crash_is_made_after_the_restart(
    simcord_env, simcord_bot, client_locales, restart
):
    english, ja_server, players, boshu = await servers_calling(simcord_env, client_locales)
    dies_before_its_passes(simcord_bot)
    await simcord_env.advance_time(5 * MINUTE + 1)
    assert calls(english.channel) == [] and calls(ja_server.channel) == []
    await restart()
    await simcord_env.settle()
    check_calls(english, ja_server, players, boshu)
    await restart()
    await simcord_env.advance_time(HOUR)
    check_calls(english, ja_server, players, boshu)
