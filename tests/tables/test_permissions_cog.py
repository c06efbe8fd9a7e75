"""Permissions checked before anything opens, through the real bot: each permission a table needs,
taken away from the bot, is named in the member's language, and nothing opens (no table, no
message, no thread, no channel). In a thread, Send Messages in Threads is what counts. The same
check runs before a tournament round opens and tells the organizer."""

from __future__ import annotations

import pytest

from tests.support.servers import answer, server, table_messages
from tests.support.table import components, dms

pytestmark = pytest.mark.simcord(settle_timeout=40)

NAMES = {
    "view_channel": ("View Channel", "チャンネルを見る"),
    "send_messages": ("Send Messages", "メッセージを送信"),
    "embed_links": ("Embed Links", "埋め込みリンク"),
    "attach_files": ("Attach Files", "ファイルを添付"),
    "read_message_history": ("Read Message History", "メッセージ履歴を読む"),
    "create_public_threads": ("Create Public Threads", "公開スレッドの作成"),
    "send_messages_in_threads": ("Send Messages in Threads", "スレッドでメッセージを送信"),
}
REFUSAL = "I am missing permissions in this channel: {}. Ask a server admin to grant them."


async def nothing_opened(env, bot, srv) -> None:
    await env.settle()
    assert await bot.store.tables_with_status("lobby", "running") == []
    assert not [m for m in srv.channel.history() if m.author.bot] and not srv.channel.threads


@pytest.mark.parametrize("permission", sorted(NAMES))
async def test_each_missing_permission_is_named_and_nothing_opens(simcord_env, simcord_bot, client_locales, permission):
    srv = server(simcord_env)
    srv.deny_bot(srv.channel, permission)
    await simcord_env.settle()
    alice, bob = srv.members[:2]
    refused = await alice.slash(srv.channel, "donguri new", players=3)
    assert refused.ephemeral and refused.response.content == REFUSAL.format(NAMES[permission][0])
    client_locales[bob.id] = "ja"
    refused = await bob.slash(srv.channel, "othello new")
    assert f"({NAMES[permission][1]})" in refused.response.content, refused.response.content
    await nothing_opened(simcord_env, simcord_bot, srv)


async def test_every_permission_missing_is_named_at_once(simcord_env, simcord_bot):
    srv = server(simcord_env)
    srv.deny_bot(srv.channel, "send_messages", "create_public_threads", "attach_files")
    await simcord_env.settle()
    refused = await srv.members[0].slash(srv.channel, "saizen new", players=3)
    assert refused.response.content == REFUSAL.format("Send Messages, Attach Files and Create Public Threads")
    await nothing_opened(simcord_env, simcord_bot, srv)


async def test_in_a_thread_it_is_send_messages_in_threads_that_counts(simcord_env, simcord_bot):
    srv = server(simcord_env)
    alice = srv.members[0]
    await alice.slash(srv.channel, "donguri new", players=3)
    hall = srv.channel.threads[-1]
    # A channel where the bot may not post, but may post in threads: a table opens in the thread.
    srv.deny_bot(srv.channel, "send_messages")
    await simcord_env.settle()
    opened = await alice.slash(hall, "othello new")
    assert opened.response is None or "missing" not in (opened.response.content or "")
    assert len(table_messages(hall)) == 1
    srv.allow_bot(srv.channel)
    srv.deny_bot(srv.channel, "send_messages_in_threads")
    await simcord_env.settle()
    refused = await alice.slash(hall, "saizen new", players=3)
    assert refused.response.content == REFUSAL.format("Send Messages in Threads")
    assert len(table_messages(hall)) == 1


async def test_final_quest_needs_to_manage_channels_where_its_channels_go(simcord_env, simcord_bot, client_locales):
    srv = server(simcord_env)
    tables = srv.guild.create_category("Final Quest tables")
    await srv.settings(category=tables)
    srv.deny_bot(tables, "manage_channels")
    await simcord_env.settle()
    alice = srv.members[0]
    refused = await alice.slash(srv.channel, "finalquest new")
    assert refused.response.content == (
        "I am missing permissions in the category where this game's tables get a channel of their own:"
        " Manage Channels. Ask a server admin to grant them there."
    ), "the category is named as the place, not the channel"
    client_locales[alice.id] = "ja"
    refused = await alice.slash(srv.channel, "finalquest new")
    assert "カテゴリーで" in refused.response.content and "(チャンネルの管理)" in refused.response.content
    srv.allow_bot(tables)
    srv.deny_bot(tables, "manage_roles", "manage_messages")  # neither way to keep speaking turns
    await simcord_env.settle()
    refused = await alice.slash(srv.channel, "finalquest new")
    assert "(権限の管理(または少なくともメッセージの管理))" in refused.response.content, "both ways are named"
    client_locales[alice.id] = "en"
    srv.deny_bot(srv.channel, "embed_links")
    await simcord_env.settle()
    refused = await alice.slash(srv.channel, "finalquest new")
    assert refused.response.content == (
        "I am missing permissions in this channel: Embed Links; and in the category where this game's tables get"
        " a channel of their own: Manage Permissions (or at least Manage Messages). Ask a server admin to grant them."
    )
    assert not [c for c in simcord_env.backend.channels.values() if c.parent_id == tables.id]
    await nothing_opened(simcord_env, simcord_bot, srv)


async def event_with_signups(srv, **options):
    result = await srv.admin.slash(
        srv.channel, "tournament create", game="donguri", name="Cup", table_size=3, clock=60, **options
    )
    assert result.ephemeral, result
    message = next(m for m in srv.channel.history() if m.author.bot and m.embeds and "🏆" in m.embeds[0].title)
    join = next(c["custom_id"] for c in components(message) if c.get("custom_id", "").startswith("tt:ev:join:"))
    for member in srv.members:
        await member.click(message, custom_id=join)
    return message, int(join.split(":")[-1])


async def test_a_tournament_checks_before_it_is_created_and_before_its_round_opens(simcord_env, simcord_bot):
    srv = server(simcord_env)
    srv.deny_bot(srv.channel, "create_public_threads")
    await simcord_env.settle()
    refused = await srv.admin.slash(srv.channel, "tournament create", game="donguri", name="Cup")
    assert refused.response.content == REFUSAL.format("Create Public Threads")
    srv.allow_bot(srv.channel)
    await simcord_env.settle()
    message, event_id = await event_with_signups(srv)
    srv.deny_bot(srv.channel, "embed_links")  # taken away after sign-up opened
    await simcord_env.settle()
    start = next(c["custom_id"] for c in components(message) if c.get("custom_id", "").startswith("tt:ev:start:"))
    refused = await srv.admin.click(message, custom_id=start)
    assert answer(refused) == REFUSAL.format("Embed Links")
    tournament = await simcord_bot.tournaments.service.get(event_id)
    assert (tournament.status, tournament.round) == ("signup", 0), "nothing of round 1 was drawn"
    assert await simcord_bot.store.tables_with_status("lobby", "running") == []


async def test_a_round_due_to_start_by_itself_tells_the_organizer_and_waits(simcord_env, simcord_bot):
    srv = server(simcord_env)
    _message, event_id = await event_with_signups(srv, signup_hours=1)
    srv.deny_bot(srv.channel, "send_messages_in_threads")
    await simcord_env.settle()
    await simcord_env.advance_time(3601)
    tournament = await simcord_bot.tournaments.service.get(event_id)
    assert (tournament.status, tournament.round) == ("signup", 0), "not cancelled: it waits"
    (told,) = [m for m in dms(srv.admin) if "Cup" in m.content]
    assert "could not start at its sign-up deadline" in told.content and "Send Messages in Threads" in told.content
    await simcord_env.advance_time(3600)
    assert len([m for m in dms(srv.admin) if "Cup" in m.content]) == 1, "told once"
    # Once the permission is back, the organizer starts it.
    srv.allow_bot(srv.channel)
    await simcord_env.settle()
    started = await srv.admin.slash(srv.channel, "tournament start")
    assert started.ephemeral
    tournament = await simcord_bot.tournaments.service.get(event_id)
    assert (tournament.status, tournament.round) == ("running", 1)
    assert len(table_messages(srv.channel)) == 1


async def test_an_automatic_next_round_waits_for_the_permissions_and_next_opens_it(simcord_env, simcord_bot, client_locales):
    srv = server(simcord_env)
    client_locales[srv.admin.id] = "ja"
    message, event_id = await event_with_signups(srv, rounds=2)
    start = next(c["custom_id"] for c in components(message) if c.get("custom_id", "").startswith("tt:ev:start:"))
    await srv.admin.click(message, custom_id=start)
    assert (await simcord_bot.tournaments.service.get(event_id)).round == 1
    # Round 1 is played by computers for the absent players; meanwhile a permission goes.
    srv.deny_bot(srv.channel, "attach_files")
    await simcord_env.settle()
    for _ in range(200):
        tournament = await simcord_bot.tournaments.service.get(event_id)
        if tournament.round_done == 1:
            break
        await simcord_env.advance_time(61)
    tournament = await simcord_bot.tournaments.service.get(event_id)
    assert (tournament.round, tournament.round_done, tournament.status) == (1, 1, "running")
    (told,) = [m for m in dms(srv.admin) if "Cup" in m.content]
    assert "次の回戦を始められませんでした" in told.content and "ファイルを添付" in told.content, told.content
    srv.allow_bot(srv.channel)
    await simcord_env.settle()
    await srv.admin.slash(srv.channel, "tournament next")
    tournament = await simcord_bot.tournaments.service.get(event_id)
    assert tournament.round == 2 and len(table_messages(srv.channel)) == 2


async def test_a_tournament_without_pin_messages_is_created_and_its_organizer_told_the_standings_stay_unpinned(
    simcord_env, simcord_bot
):
    srv = server(simcord_env)
    srv.deny_bot(srv.channel, "pin_messages")
    await simcord_env.settle()
    created = await srv.admin.slash(srv.channel, "tournament create", game="donguri", name="Cup")
    text = answer(created)
    assert "is open for sign-up" in text
    assert "Its standings message will stay unpinned: I am missing **Pin Messages** in this channel." in text
    srv.allow_bot(srv.channel)
    await simcord_env.settle()
    again = await srv.admin.slash(srv.channel, "tournament create", game="saizen", name="Second")
    assert "is open for sign-up" in answer(again) and "unpinned" not in answer(again)
