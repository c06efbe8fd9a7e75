"""``/<game> new invite:``: a host invites members of their server; only those invited (and the
host) may join. Inviting a bot, oneself, a member of another server, someone who cannot read the
channel or who refuses challenges answers why, privately, and opens nothing. Two servers side by
side, in both languages."""

from __future__ import annotations

import discord
from simcord.backend.models.channel import Overwrite, OverwriteType

from bot.storage.invitations import ACCEPTED, PENDING
from tests.support.locales import japanese, reply_text
from tests.support.servers import server, table_messages


async def two_servers(simcord_env, client_locales):
    english = server(simcord_env, "Cards club", members=("alice", "bob", "carol", "dave"))
    ja_server = server(simcord_env, "将棋部", locale="ja", members=("taro", "hana", "jiro"))
    for member in ja_server.members:
        client_locales[member.id] = "ja"
    return english, ja_server


async def tables(bot):
    return await bot.store.tables_with_status("lobby", "running")


async def test_a_host_invites_members_and_only_they_may_join(simcord_env, simcord_bot, client_locales):
    english, ja_server = await two_servers(simcord_env, client_locales)
    alice, bob, carol, dave = english.members
    taro, hana, _jiro = ja_server.members
    opened = await alice.slash(english.channel, "donguri new", players=3, invite=bob, invite2=carol)
    assert opened.ephemeral and "Your table is open" in reply_text(opened)
    (table,) = await tables(simcord_bot)
    assert [(g.user_id, g.name, g.state) for g in table.guests] == [(bob.id, "bob", PENDING), (carol.id, "carol", PENDING)]
    assert table.invites_lapse is not None

    lobby = table_messages(english.channel)[-1]
    refused = await dave.click(lobby, label="Join")
    assert reply_text(refused) == "This table is by invitation only: ask its host to invite you."
    await bob.click(lobby, label="Join")
    table = await simcord_bot.store.get_table(table.id)
    assert [s.user_id for s in table.seats] == [alice.id, bob.id] and table.guest(bob.id).state == ACCEPTED

    # The Japanese server: the same, in Japanese; nothing of the other server's table there.
    await taro.slash(ja_server.channel, "saizen new", players=2, invite=hana)
    saizen = next(t for t in await tables(simcord_bot) if t.game == "saizen")
    assert saizen.guild_id == ja_server.guild.id and [g.user_id for g in saizen.guests] == [hana.id]
    outsider = await hana.slash(ja_server.channel, "tables")
    assert f"#{table.id}" not in reply_text(outsider)


async def test_bad_invitations_answer_why_and_open_nothing(simcord_env, simcord_bot, client_locales):
    english, ja_server = await two_servers(simcord_env, client_locales)
    alice, bob, carol, dave = english.members
    taro, hana, jiro = ja_server.members
    robot = english.guild.add_member(simcord_env.create_user("robot", bot=True))
    stranger = simcord_env.create_user("stranger")

    async def refusal(member, where, **options):
        result = await member.slash(where.channel, "donguri new", players=3, **options)
        assert result.ephemeral
        return reply_text(result)

    assert await refusal(alice, english, invite=robot) == (
        f"<@{robot.id}> is a bot: invite members, or add a computer player in the lobby."
    )
    assert await refusal(alice, english, invite=bob, invite2=alice) == "You host the table: invite other members."
    assert await refusal(alice, english, invite=taro.user) == (
        f"<@{taro.id}> is not a member of this server: only its members can be invited."
    ), "a member of the other server"
    assert "is not a member of this server" in await refusal(alice, english, invite=stranger)
    assert await refusal(alice, english, invite=bob, invite2=carol, invite3=dave) == (
        "The table has 2 seats besides yours: invite at most 2 members."
    )
    await bob.slash(english.channel, "notifications", challenges="refuse")
    await carol.slash(english.channel, "notifications", challenges="refuse")
    assert await refusal(alice, english, invite=bob, invite2=dave) == (
        f"<@{bob.id}> refuses challenges (/notifications): they cannot be invited. Nothing was opened."
    )
    assert await refusal(alice, english, invite=carol, invite2=bob) == (
        f"<@{carol.id}> and <@{bob.id}> refuse challenges (/notifications): they cannot be invited. Nothing was opened."
    )

    # In Japanese, for a Japanese member.
    assert await refusal(hana, ja_server, invite=hana) == "あなたはこの卓のホストです。ほかのメンバーを招待してください。"
    text = await refusal(hana, ja_server, invite=alice.user)
    assert text == f"<@{alice.id}> はこのサーバーのメンバーではありません。招待できるのはこのサーバーのメンバーだけです。"
    await jiro.slash(ja_server.channel, "notifications", challenges="refuse")
    text = await refusal(hana, ja_server, invite=taro, invite2=jiro)
    assert text.startswith(f"<@{jiro.id}> は対戦の申し込みを断っているため") and japanese(text)
    assert await tables(simcord_bot) == [], "nothing was opened"


async def test_a_member_who_cannot_read_the_channel_is_not_invited(simcord_env, simcord_bot, client_locales):
    english, _ja = await two_servers(simcord_env, client_locales)
    alice, bob = english.members[:2]
    staff = english.guild.create_text_channel(
        "staff",
        overwrites={
            english.guild.default_role: discord.PermissionOverwrite(view_channel=False),
            alice: discord.PermissionOverwrite(view_channel=True),
        },
    )
    bot_may = discord.Permissions(view_channel=True).value
    simcord_env.backend.set_overwrite(staff.id, Overwrite(english.bot_id, OverwriteType.MEMBER, bot_may, 0))
    result = await alice.slash(staff, "donguri new", players=3, invite=bob)
    assert reply_text(result) == (
        f"<@{bob.id}> cannot read <#{staff.id}>, where the table opens: invite them from a channel they can read."
    )
    assert await tables(simcord_bot) == []


async def test_each_game_offers_as_many_invitations_as_its_other_seats_in_both_languages(simcord_env, simcord_bot):
    await simcord_env.settle()
    commands = simcord_env.backend.commands[None]

    def new_options(game: str) -> dict[str, dict]:
        group = next(c for c in commands.values() if c["name"] == game)
        new = next(o for o in group["options"] if o["name"] == "new")
        return {o["name"]: o for o in new.get("options", []) if o["type"] == discord.AppCommandOptionType.user.value}

    assert list(new_options("othello")) == ["invite"], "two seats: one to invite"
    for game in ("donguri", "saizen", "arsene", "finalquest"):
        options = new_options(game)
        assert list(options) == ["invite", "invite2", "invite3"], game
        assert options["invite"]["name_localizations"]["ja"] == "招待"
        assert options["invite2"]["description_localizations"]["ja"] == "もう1人招待する"
