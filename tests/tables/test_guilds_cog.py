"""Joining and leaving servers through the real bot: a welcome in the system channel where the bot
may post; on leaving, open tables end without results or ratings and events are cancelled, while
the data is kept for 30 days, then purged by the sweeper (on SQLite too) unless the bot came back."""

from __future__ import annotations

import pytest
from simcord.backend import serializers

from tests.support.servers import server, table_messages
from tests.support.table import add_computer, components, hand_dm

DAY = 86400

pytestmark = pytest.mark.simcord(settle_timeout=40)


def playable(message) -> list[str]:
    return [c["custom_id"] for c in components(message) if c.get("custom_id", "").startswith("tt:a:") and not c.get("disabled")]


def invite(env, guild) -> None:
    """The bot is invited to ``guild`` (again): Discord sends the whole server (GUILD_CREATE)."""
    backend = env.backend
    payload = dict(serializers.guild_create_payload(backend, backend.get_guild(guild.id)))
    payload.pop("unavailable")  # a server joined, not one coming back from an outage
    backend.emit("GUILD_CREATE", payload)


def kick(env, guild) -> None:
    """The bot is removed from ``guild``, which goes on without it (it may be invited again)."""
    env.backend.emit("GUILD_DELETE", {"id": str(guild.id)})


def with_system_channel(env, name: str, locale: str | None = None):
    guild = env.create_guild(name, preferred_locale=locale) if locale else env.create_guild(name)
    general = guild.create_text_channel("general")
    env.backend.edit_guild(guild.id, {"system_channel_id": general.id})
    return guild, general


async def test_joining_a_server_says_how_to_start_in_its_system_channel(simcord_env, simcord_bot):
    guild, general = with_system_channel(simcord_env, "Cards club")
    assert not general.history(), "no system channel when the server was made: nothing was posted"
    invite(simcord_env, guild)
    await simcord_env.settle()
    (welcome,) = [m for m in general.history() if m.author.bot]
    ids = {c["name"]: c["id"] for c in simcord_env.backend.commands[None].values()}
    text = welcome.content
    assert text.startswith("👋 Thanks for inviting me!")
    for mention in (
        f"</donguri new:{ids['donguri']}>",
        f"</donguri rules:{ids['donguri']}>",
        f"</mygames:{ids['mygames']}>",
        f"</settings:{ids['settings']}>",
    ):
        assert mention in text, f"{mention} in {text!r}"
    assert not welcome.mentions and not welcome.role_mentions


async def test_the_welcome_follows_the_servers_language(simcord_env, simcord_bot):
    guild, general = with_system_channel(simcord_env, "将棋部", locale="ja")
    invite(simcord_env, guild)
    await simcord_env.settle()
    (welcome,) = [m for m in general.history() if m.author.bot]
    assert welcome.content.startswith("👋 招待ありがとうございます！") and "**管理者の方へ:**" in welcome.content


async def test_no_welcome_where_the_bot_may_not_post(simcord_env, simcord_bot):
    srv = server(simcord_env)
    simcord_env.backend.edit_guild(srv.guild.id, {"system_channel_id": srv.channel.id})
    srv.deny_bot(srv.channel, "send_messages")
    invite(simcord_env, srv.guild)
    await simcord_env.settle()
    assert not [m for m in srv.channel.history() if m.author.bot]


async def open_running_table(srv, rated: bool = False) -> None:
    alice, bob = srv.members[:2]
    await alice.slash(srv.channel, "donguri new", players=3, length="short", rated=rated)
    await bob.click(table_messages(srv.channel)[-1], label="Join")
    await add_computer(alice, table_messages(srv.channel)[-1])


async def test_leaving_ends_tables_unrated_cancels_events_and_keeps_the_data(simcord_env, simcord_bot):
    srv = server(simcord_env, members=("alice", "bob", "carol", "dave"))
    other = server(simcord_env, "Other club")
    await open_running_table(srv, rated=True)
    await srv.members[2].slash(srv.channel, "saizen new", players=3)  # a lobby
    await srv.admin.slash(srv.channel, "tournament create", game="donguri", name="Cup", table_size=3)
    await open_running_table(other)
    store = simcord_bot.store
    mine = {t.id: t for t in await store.tables_with_status("lobby", "running") if t.guild_id == srv.guild.id}
    assert sorted(t.status for t in mine.values()) == ["lobby", "running"]
    held = await store.servers.holds(srv.guild.id)
    assert held["game_tables"] == 2 and held["tournaments"] == 1

    channels = [str(c.id) for c in (srv.channel, *srv.channel.threads)]
    before = len(simcord_env.http_requests)
    simcord_env.backend.remove_guild(srv.guild.id)
    await simcord_env.settle()
    await simcord_env.advance_time(120)
    calls = [r.path for r in simcord_env.http_requests[before:]]
    assert not [p for p in calls if any(c in p for c in channels)], "nothing more is sent where the bot is gone"
    for table_id in mine:
        table = await store.get_table(table_id)
        assert (table.status, table.rated, table.settled, table.dirty) == ("cancelled", False, True, False)
    (event,) = await simcord_bot.tournaments.service.store.in_guild(srv.guild.id, ("signup", "running", "cancelled"))
    assert event.status == "cancelled"
    assert await store.servers.holds(srv.guild.id) == held, "everything is kept, for now"
    assert await store.servers.left_at(srv.guild.id) is not None
    rated = await store.db.fetchval("SELECT COUNT(*) FROM rating_history WHERE guild_id = ?", (srv.guild.id,))
    assert rated == 0, "no rating from a table the bot left"
    # The other server plays on.
    (still,) = [t for t in await store.tables_with_status("running") if t.guild_id == other.guild.id]
    assert still.status == "running"
    # The hand DM of the player who was to move answers that the table has ended.
    offers = {m: ids for m in srv.members[:2] if (ids := playable(hand_dm(m)))}
    (player, ids), = offers.items()  # (the computer had moved: a member was to move)
    answer = await player.user.click(hand_dm(player), custom_id=ids[0])
    assert answer.ephemeral and answer.response.content == "This table is not running."


async def test_a_server_left_is_purged_after_30_days_unless_the_bot_came_back(simcord_env, simcord_bot):
    gone = server(simcord_env, "Gone club")
    back = server(simcord_env, "Back club")
    for srv in (gone, back):
        await open_running_table(srv)
        await srv.settings(language="ja", web=False)
    store = simcord_bot.store
    kept = {srv.guild.id: await store.servers.holds(srv.guild.id) for srv in (gone, back)}
    assert all(h["game_tables"] == 1 and h["server_settings"] == 2 for h in kept.values())
    kick(simcord_env, gone.guild)
    kick(simcord_env, back.guild)
    await simcord_env.settle()
    await simcord_env.advance_time(10 * DAY)
    invite(simcord_env, back.guild)  # invited again within 30 days: nothing of it goes
    await simcord_env.settle()
    await simcord_env.advance_time(19 * DAY)
    assert await store.servers.holds(gone.guild.id) == kept[gone.guild.id], "29 days: still kept"
    await simcord_env.advance_time(2 * DAY)
    assert await store.servers.holds(gone.guild.id) == dict.fromkeys(kept[gone.guild.id], 0), "purged"
    assert await store.servers.left_at(gone.guild.id) is None
    assert await store.servers.holds(back.guild.id) == kept[back.guild.id]
    assert (await simcord_bot.settings.of(back.guild.id)).language == "ja", "its settings too"
    assert not store.db.shared, "on SQLite, where the sweeper runs for this alone"


async def test_a_member_leaving_is_not_the_bot_leaving(simcord_env, simcord_bot):
    srv = server(simcord_env)
    await open_running_table(srv)
    srv.guild.remove_member(srv.members[2])
    await simcord_env.settle()
    assert [t.status for t in await simcord_bot.store.tables_with_status("running")] == ["running"]
    assert await simcord_bot.store.servers.left_at(srv.guild.id) is None

