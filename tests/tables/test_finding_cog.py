"""``/tables``: two servers side by side, each member sees their own server's lobbies and games in
their own language, joins from the list with the lobby's own checks, and nothing of the other
server appears."""

from __future__ import annotations

import dataclasses

import discord
import pytest
from simcord.backend.models.channel import Overwrite, OverwriteType

from bot.core.config import Config
from tests.support.forged import answer_text, forge
from tests.support.locales import japanese, reply_text
from tests.support.servers import server, table_messages
from tests.support.table import add_computer, components, embed_text

PUBLIC_URL = "https://games.example/tabletop"


def join_ids(result) -> list[str]:
    return [c["custom_id"] for c in components(result.response) if c.get("custom_id", "").startswith("tt:join:")]


async def two_servers(simcord_env, client_locales):
    english = server(simcord_env, "Cards club", members=("alice", "bob", "carol"))
    japanese_server = server(simcord_env, "将棋部", locale="ja", members=("taro", "hana"))
    for member in japanese_server.members:
        client_locales[member.id] = "ja"
    return english, japanese_server


async def test_each_server_lists_its_own_tables_and_a_member_joins_from_the_list(
    simcord_env, simcord_bot, client_locales
):
    english, ja_server = await two_servers(simcord_env, client_locales)
    alice, bob, carol = english.members
    taro, hana = ja_server.members
    await alice.slash(english.channel, "donguri new", players=3, length="short")
    await alice.slash(english.channel, "othello new")
    await taro.slash(ja_server.channel, "saizen new", players=2)
    # A game in play in the Japanese server: taro's Saizen table, filled with a computer.
    await add_computer(taro, table_messages(ja_server.channel)[-1], label="CPUを追加")
    tables = {t.game: t for t in await simcord_bot.store.tables_with_status("lobby", "running")}
    donguri, othello, saizen = tables["donguri"], tables["othello_torite"], tables["saizen"]
    assert saizen.status == "running"

    listed = await bob.slash(english.channel, "tables")
    assert listed.ephemeral
    text = reply_text(listed)
    assert f"#{donguri.id}" in text and f"#{othello.id}" in text and "Waiting for players (2 lobbies)" in text
    assert "2/3 seats free" in text and f"host <@{alice.id}>" in text and "Length: short" in text
    assert f"/{english.guild.id}/{donguri.channel_id}/{donguri.message_id}" in text, "the table message's link"
    assert f"#{saizen.id}" not in text and "Saizen" not in text and "In play" not in text, "nothing of the other server"
    assert not japanese(text)
    assert join_ids(listed) == [f"tt:join:{othello.id}", f"tt:join:{donguri.id}"]

    # Join from the list: the same join as the lobby's button; the lobby message follows.
    joined = await bob.click(listed.response, custom_id=f"tt:join:{donguri.id}")
    assert joined.ephemeral and reply_text(joined).startswith(f"You are seated at [table #{donguri.id}]")
    await simcord_env.settle()
    assert "bob" in embed_text(table_messages(english.channel)[0])
    assert [s.user_id for s in (await simcord_bot.store.get_table(donguri.id)).seats] == [alice.id, bob.id]
    again = await bob.click(listed.response, custom_id=f"tt:join:{donguri.id}")
    assert "You are already seated at this table." in reply_text(again)
    assert join_ids(await bob.slash(english.channel, "tables")) == [f"tt:join:{othello.id}"], "no button where seated"

    # Full, then started: a click on an old list answers why, and nothing changes.
    carols = await carol.slash(english.channel, "tables")
    await carol.click(carols.response, custom_id=f"tt:join:{othello.id}")  # Othello seats two: it starts
    late = await bob.click(listed.response, custom_id=f"tt:join:{othello.id}")
    assert "This table has already started or closed." in reply_text(late)
    started = await simcord_bot.store.get_table(othello.id)
    assert started.status == "running" and bob.id not in [s.user_id for s in started.seats]
    now = reply_text(await alice.slash(english.channel, "tables"))
    assert "In play (1 game)" in now and f"#{othello.id}" in now and "Waiting for players (1 lobby)" in now

    # The Japanese server: its own table only, in the member's language.
    ja_list = await hana.slash(ja_server.channel, "tables")
    text = reply_text(ja_list)
    assert "このサーバーで開いている卓" in text and "対局中(1卓)" in text and f"#{saizen.id}" in text
    assert "参加者を募集中の卓はありません。" in text
    assert f"#{donguri.id}" not in text and f"#{othello.id}" not in text and "Donguri" not in text
    assert join_ids(ja_list) == []

    # A button of one server's list pressed in the other (a forged click): refused, nothing changes.
    forged = await forge(hana, table_messages(ja_server.channel)[-1], f"tt:join:{donguri.id}", carried=True)
    assert answer_text(forged) == "その卓は別のサーバーのものです。"
    assert len((await simcord_bot.store.get_table(donguri.id)).seats) == 2


async def test_a_server_without_tables_and_a_table_in_a_channel_the_member_cannot_read(
    simcord_env, simcord_bot, client_locales
):
    english, ja_server = await two_servers(simcord_env, client_locales)
    alice, bob, _carol = english.members
    taro, hana = ja_server.members
    assert reply_text(await bob.slash(english.channel, "tables")).startswith("No table is open in this server.")
    assert reply_text(await hana.slash(ja_server.channel, "tables")).startswith("このサーバーで開いている卓はありません。")

    staff = english.guild.create_text_channel(
        "staff",
        overwrites={
            english.guild.default_role: discord.PermissionOverwrite(view_channel=False),
            english.admin: discord.PermissionOverwrite(view_channel=True),
        },
    )
    bot_may = discord.Permissions(view_channel=True).value
    simcord_env.backend.set_overwrite(staff.id, Overwrite(english.bot_id, OverwriteType.MEMBER, bot_may, 0))
    opened = await english.admin.slash(staff, "donguri new", players=3)
    assert "Your table is open" in reply_text(opened)
    await alice.slash(english.channel, "donguri new", players=3)
    text = reply_text(await bob.slash(english.channel, "tables"))
    assert "#2" in text and "#1" not in text, "bob cannot read #staff: its table is not named to him"
    assert "#1" in reply_text(await english.admin.slash(english.channel, "tables"))
    await taro.slash(ja_server.channel, "donguri new", players=3)
    assert "#3" in reply_text(await hana.slash(ja_server.channel, "tables"))
    assert "#3" not in reply_text(await bob.slash(english.channel, "tables"))


@pytest.fixture
def bot_config(bot_config) -> Config:
    """With a public address for the pages: the list links to each table's page."""
    return dataclasses.replace(bot_config, public_url=PUBLIC_URL)


async def test_with_pages_on_each_table_links_to_its_page(simcord_env, simcord_bot, client_locales):
    english, ja_server = await two_servers(simcord_env, client_locales)
    await english.members[0].slash(english.channel, "donguri new", players=3)
    await ja_server.members[0].slash(ja_server.channel, "donguri new", players=3)
    page = f"{PUBLIC_URL}{simcord_bot.site.path(1)}"
    assert f"[page]({page})" in reply_text(await english.members[1].slash(english.channel, "tables"))
    ja_text = reply_text(await ja_server.members[1].slash(ja_server.channel, "tables"))
    assert f"[ページ]({PUBLIC_URL}{simcord_bot.site.path(2)})" in ja_text and page not in ja_text
    await english.settings(web=False)
    assert "[page]" not in reply_text(await english.members[1].slash(english.channel, "tables"))


async def test_a_member_refuses_challenges_with_notifications_in_either_language(
    simcord_env, simcord_bot, client_locales
):
    english, ja_server = await two_servers(simcord_env, client_locales)
    bob, hana = english.members[1], ja_server.members[1]
    shown = reply_text(await bob.slash(english.channel, "notifications"))
    assert "Challenges accepted" in shown and "Only when your turn waits" in shown, "both choices, the defaults"
    refused = await bob.slash(english.channel, "notifications", challenges="refuse")
    assert refused.ephemeral and reply_text(refused).startswith("🛡️ **Challenges refused**")
    assert "Only when your turn waits" not in reply_text(refused), "only what changed"
    assert await simcord_bot.store.invitations.refusing([bob.id, hana.id]) == {bob.id}
    assert "Challenges refused" in reply_text(await bob.slash(english.channel, "notifications"))

    both = reply_text(await hana.slash(ja_server.channel, "notifications", mode="never", challenges="refuse"))
    assert "対戦の申し込みを断る" in both and "Never" not in both and japanese(both)
    assert await simcord_bot.store.invitations.refusing([hana.id]) == {hana.id}
    assert (await simcord_bot.store.notices.modes([hana.id])) == {hana.id: "never"}
    again = reply_text(await hana.slash(ja_server.channel, "notifications", challenges="accept"))
    assert "対戦の申し込みを受け付ける" in again
    assert await simcord_bot.store.invitations.refusing([hana.id]) == set()
