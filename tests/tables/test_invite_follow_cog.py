"""An invitation DM follows its invitation: once it lapses, or the table starts (with the guest or
without) or is closed, by its host or for want of players, the guest's DM says so, without its
buttons; a decline stays as it was. Edited once by the delivery pass: a restart and later passes
change nothing more. Two servers side by side, in both languages, on SimCord's virtual clock."""

from __future__ import annotations

from tests.support.servers import server, table_messages
from tests.support.table import add_computer, dms, labels

HOUR = 3600
INVITATION_MARKS = ("⚔", "✅", "❌", "⌛", "▶", "⏹", "🚫")


async def two_servers(simcord_env, client_locales):
    english = server(simcord_env, "Cards club", members=("alice", "bob", "carol", "dave"))
    ja_server = server(simcord_env, "将棋部", locale="ja", members=("taro", "hana", "jiro"))
    for member in ja_server.members:
        client_locales[member.id] = "ja"
    return english, ja_server


def invitation(member):
    (dm,) = [m for m in dms(member) if (m.content or "")[:1] in INVITATION_MARKS and m.embeds]
    return dm


def shown(member) -> tuple[str, list[str], object]:
    dm = invitation(member)
    return dm.content, labels(dm), dm.edited_at


async def test_the_dms_say_when_invitations_lapse_and_when_the_table_starts(
    simcord_env, simcord_bot, client_locales, restart
):
    english, ja_server = await two_servers(simcord_env, client_locales)
    alice, bob, carol, dave = english.members
    await alice.slash(english.channel, "donguri new", players=4, invite=bob, invite2=carol, invite3=dave)
    await simcord_env.settle()
    await bob.user.click(invitation(bob), label="Accept")
    await carol.user.click(invitation(carol), label="Decline")
    await simcord_env.advance_time(24 * HOUR + 1)

    lapsed = invitation(dave)
    assert lapsed.content.startswith("⌛ Your invitation to [table #1](") and "lapsed unanswered" in lapsed.content
    assert labels(lapsed) == ["Go to the table"] and "lapses <t:" not in lapsed.embeds[0].description
    assert invitation(bob).content.startswith("✅ You accepted") and invitation(carol).content.startswith("❌ You declined")

    lobby = table_messages(english.channel)[-1]
    await add_computer(alice, lobby)
    await add_computer(alice, lobby)  # the fourth seat: it starts
    await simcord_env.settle()
    table = await simcord_bot.store.get_table(1)
    assert table.status == "running" and not table.posts, "followed through: its passes read no posts now"
    assert invitation(bob).content.startswith("▶️ [Table #1](") and "has started: you play there" in invitation(bob).content
    assert invitation(dave).content.startswith("⏹️ [Table #1](") and "started without you" in invitation(dave).content
    assert invitation(carol).content.startswith("❌ You declined"), "a decline stays"
    assert [labels(invitation(m)) for m in (bob, carol, dave)] == [["Go to the table"]] * 3
    before = [shown(m) for m in (bob, carol, dave)]
    assert all(b[2] is not None for b in before if b[0][0] != "❌")

    bot = await restart()
    bot.services.delivery.request(1)
    await simcord_env.advance_time(HOUR)
    assert [shown(m) for m in (bob, carol, dave)] == before, "edited once"
    posts = await bot.store.lobby_posts.of(1)
    assert [posts[f"invite:{m.id}"].shows for m in (bob, carol, dave)] == ["started", "declined", "started_without"]


async def test_the_dms_say_when_the_table_is_closed_by_its_host_or_for_want_of_players(
    simcord_env, simcord_bot, client_locales, restart
):
    english, ja_server = await two_servers(simcord_env, client_locales)
    alice, bob = english.members[:2]
    taro, hana, jiro = ja_server.members
    await taro.slash(ja_server.channel, "saizen new", players=3, invite=hana, invite2=jiro)
    await alice.slash(english.channel, "othello new", invite=bob)
    await simcord_env.settle()
    await hana.user.click(invitation(hana), label="受ける")
    await taro.click(table_messages(ja_server.channel)[-1], label="中止")
    await simcord_env.settle()
    for member in (hana, jiro):
        closed = invitation(member)
        assert closed.content.startswith("🚫 [卓 #1](") and "閉じられました" in closed.content
        assert labels(closed) == ["卓へ"]
    assert invitation(bob).content.startswith("⚔️ **alice** invites you"), "the other server's invitation holds"

    # Nobody answered bob: the lobby closes when his invitation lapses, and his DM says it closed.
    await simcord_env.advance_time(24 * HOUR + 1)
    assert (await simcord_bot.store.get_table(2)).status == "cancelled"
    closed = invitation(bob)
    assert closed.content.startswith("🚫 [Table #2](") and "was closed" in closed.content
    assert labels(closed) == ["Go to the table"]
    before = [shown(m) for m in (hana, jiro, bob)]
    await restart()
    await simcord_env.advance_time(HOUR)
    assert [shown(m) for m in (hana, jiro, bob)] == before, "edited once"
