"""/settings through the real bot: a server's admins see every setting with its value and whether
it is the default, change them with typed options and pickers, and what is opened afterwards
follows them. A member without Manage Server is refused; a deleted role or category falls back
to the default and /settings says so; a channel of another server is refused."""

from __future__ import annotations

import pytest

from tests.support.servers import command_id, field, server, table_messages
from tests.support.table import World, add_computer, dms, embed_text, labels, thread

DEFAULT, CHOSEN = "· *default*", "· *set here*"
HOUR = 3600


def world_of(srv) -> World:
    return World(srv.env, srv.guild, srv.channel, srv.members)


async def test_settings_shows_each_value_and_whether_it_is_the_default(simcord_env, simcord_bot):
    srv = server(simcord_env)
    shown = await srv.settings()
    assert shown.response.content in ("", None)
    fields = {f["name"]: f["value"] for f in shown.response.embeds[0].to_dict()["fields"]}
    assert fields == {
        "Language of table messages": f"From the server's locale: English {DEFAULT}",
        "Tournament organizer role": f"None (members with Manage Server only) {DEFAULT}",
        "Final Quest category": f"The category of the channel where a table is opened {DEFAULT}",
        "Channels for tables": f"Anywhere I can post {DEFAULT}",
        "Turn clock of new tables": f"No clock (live play) {DEFAULT}",
        "When a player runs out of time": f"A computer plays that move {DEFAULT}",
        "Computer level": f"Normal {DEFAULT}",
        "Turn pings in the table's thread": f"On {DEFAULT}",
        "Web pages": f"On {DEFAULT}",
        "Invitations lapse after": f"1 day {DEFAULT}",
        "Call for players": f"None: lobbies call nobody {DEFAULT}",
    }
    staff = srv.guild.create_role("staff")
    tables = srv.guild.create_category("Card tables")
    changed = await srv.settings(
        language="ja", organizer_role=staff, category=tables, clock=HOUR, on_timeout="end",
        computer_level="hard", thread_pings=False, web=False,
    )
    assert changed.response.content.startswith("Saved: Language of table messages, Tournament organizer role,")
    assert field(changed, "Language of table messages") == f"Japanese {CHOSEN}"
    assert field(changed, "Tournament organizer role") == f"<@&{staff.id}> {CHOSEN}"
    assert field(changed, "Final Quest category") == f"<#{tables.id}> {CHOSEN}"
    assert field(changed, "Turn clock of new tables") == f"1 hour {CHOSEN}"
    assert field(changed, "When a player runs out of time").endswith(CHOSEN)
    assert field(changed, "Computer level") == f"Hard {CHOSEN}"
    assert field(changed, "Turn pings in the table's thread") == f"Off {CHOSEN}"
    assert field(changed, "Web pages") == f"Off {CHOSEN}"
    assert field(changed, "Channels for tables") == f"Anywhere I can post {DEFAULT}"
    # Back to the defaults, one at a time; the rest stays.
    again = await srv.settings(reset="computer_level")
    assert field(again, "Computer level") == f"Normal {DEFAULT}"
    assert field(again, "Turn clock of new tables") == f"1 hour {CHOSEN}"
    again = await srv.settings(language="server", clock=0)
    assert field(again, "Language of table messages") == f"From the server's locale: English {DEFAULT}"
    assert field(again, "Turn clock of new tables") == f"No clock (live play) {CHOSEN}", "no clock, chosen"
    stored = await simcord_bot.settings.of(srv.guild.id)
    assert (stored.web, stored.thread_pings, stored.clock, stored.language) == (False, False, None, None)


async def test_settings_in_japanese(simcord_env, simcord_bot, client_locales):
    srv = server(simcord_env, "将棋部", locale="ja")
    client_locales[srv.admin.id] = "ja"
    shown = await srv.settings(computer_level="easy")
    assert shown.response.content == "CPUの強さを保存しました。"
    assert field(shown, "卓のメッセージの言語") == "サーバーの言語に合わせる: 日本語 · *既定*"
    assert field(shown, "CPUの強さ").endswith("· *このサーバーで設定*")
    assert shown.response.embeds[0].title == "将棋部 の設定"


async def test_a_member_without_manage_server_is_refused_and_nothing_changes(simcord_env, simcord_bot):
    srv = server(simcord_env)
    bob = srv.members[1]
    # Discord offers /settings to Manage Server only; a server may open it to others (Integrations).
    srv.guild.set_command_permissions(command_id(simcord_env, "settings"), {bob: True})
    refused = await bob.slash(srv.channel, "settings", language="ja", web=False)
    assert refused.ephemeral
    assert refused.response.content == (
        "Only members with the Manage Server permission can see and change this server's settings."
    )
    assert not refused.response.embeds
    assert (await simcord_bot.settings.of(srv.guild.id)).chosen == frozenset()


async def test_tables_open_with_the_servers_language_clock_and_level(simcord_env, simcord_bot):
    srv = server(simcord_env)  # an English server whose tables are in Japanese
    await srv.settings(language="ja", clock=HOUR, on_timeout="computer_seat", computer_level="hard")
    alice, bob = srv.members[:2]
    opened = await alice.slash(srv.channel, "donguri new", players=3, length="short")
    assert opened.response is not None or opened.followups
    lobby = table_messages(srv.channel)[-1]
    text = embed_text(lobby)
    assert "どんぐりと山猫" in text and "1時間" in text, text
    assert {"参加", "CPUを追加"} <= set(labels(lobby))
    await bob.click(lobby, label="参加")
    (table,) = await simcord_bot.store.tables_with_status("lobby")
    assert (table.language, table.clock, table.on_timeout, table.computer_level) == ("ja", HOUR, "computer_seat", "hard")
    assert [s.level for s in table.seats] == ["hard", "hard"], "a computer playing for them plays hard"
    # The host still decides for this table; the next one starts from the server's choice again.
    await add_computer(alice, table_messages(srv.channel)[-1], "easy", label="CPUを追加")
    seats = (await simcord_bot.service.table(table.id)).seats  # full: started, seats drawn
    levels = {s.user_id: s.level for s in seats}
    assert levels == {alice.id: "hard", bob.id: "hard", None: "easy"}, "a computer added by the host plays as chosen"


async def test_tables_open_only_in_the_chosen_channels(simcord_env, simcord_bot, client_locales):
    srv = server(simcord_env)
    cards = srv.guild.create_text_channel("cards")
    chat = srv.guild.create_text_channel("chat")
    saved = await srv.settings(table_channels=f"{srv.channel.mention}, {cards.mention}")
    assert field(saved, "Channels for tables") == f"{srv.channel.mention} and {cards.mention} {CHOSEN}"
    alice = srv.members[0]
    refused = await alice.slash(chat, "donguri new", players=3)
    assert refused.ephemeral and refused.response.content == (
        f"Tables are not opened in this channel on this server. Open one in {srv.channel.mention} and {cards.mention}."
    )
    assert not table_messages(chat) and not await simcord_bot.store.tables_with_status("lobby")
    client_locales[alice.id] = "ja"
    refused = await alice.slash(chat, "othello new")
    assert "このチャンネルに卓を立てられません" in refused.response.content
    refused = await srv.admin.slash(chat, "tournament create", game="donguri", name="Cup")
    assert "Tables are not opened in this channel" in refused.response.content
    await alice.slash(cards, "donguri new", players=3)
    assert len(table_messages(cards)) == 1
    # A thread of a chosen channel is part of it.
    own = cards.threads[-1]
    await alice.slash(own, "othello new")
    assert len(await simcord_bot.store.tables_with_status("lobby")) == 2


async def test_a_channel_list_is_checked_channel_by_channel(simcord_env, simcord_bot):
    srv = server(simcord_env)
    elsewhere = simcord_env.create_guild("Another server").create_text_channel("theirs")
    voice = srv.guild.create_voice_channel("voice")
    cases = {
        f"{srv.channel.mention} {elsewhere.mention}": f"{elsewhere.mention} is not in this server",
        f"{voice.mention}": f"{voice.mention} is not a text channel",
        "games cards": "“games” is not a channel: name channels like #games",
        " , ": "Name at least one channel, like #games",
    }
    for text, answer in cases.items():
        refused = await srv.settings(table_channels=text, web=False)
        assert refused.response.content.startswith(answer), refused.response.content
        assert not refused.response.embeds
    assert (await simcord_bot.settings.of(srv.guild.id)).chosen == frozenset(), "nothing was saved"
    too_many = " ".join(srv.guild.create_text_channel(f"t{i}").mention for i in range(26))
    assert (await srv.settings(table_channels=too_many)).response.content == "Name at most 25 channels."


async def test_a_chosen_channel_where_the_bot_cannot_post_is_saved_with_a_warning(simcord_env, simcord_bot):
    srv = server(simcord_env)
    quiet = srv.guild.create_text_channel("quiet")
    srv.deny_bot(quiet, "send_messages", "create_public_threads")
    await simcord_env.settle()
    saved = await srv.settings(table_channels=quiet.mention)
    assert f"⚠️ In {quiet.mention} I cannot open tables yet: I am missing Send Messages and Create Public Threads." in (
        saved.response.content
    )
    assert field(saved, "Channels for tables") == f"{quiet.mention} {CHOSEN}"


@pytest.fixture
def config_defaults(bot_config):
    """config.toml's per-server fields: the defaults of servers that set nothing (before the bot starts)."""
    bot_config.organizer_role = "Tournament staff"
    bot_config.games = {"final_quest": {"category": "Final Quest tables"}}
    return bot_config


async def test_a_deleted_role_category_or_channel_falls_back_to_the_default(config_defaults, simcord_env):
    srv = server(simcord_env)
    staff = srv.guild.create_role("Tournament staff")
    chosen_role = srv.guild.create_role("organizers")
    tables = srv.guild.create_category("Our tables")
    cards = srv.guild.create_text_channel("cards")
    shown = await srv.settings()
    assert field(shown, "Tournament organizer role") == f"<@&{staff.id}> {DEFAULT}", "config's role, by name"
    assert field(shown, "Final Quest category") == f"“Final Quest tables” (created when first needed) {DEFAULT}"
    await srv.settings(organizer_role=chosen_role, category=tables, table_channels=cards.mention)
    backend = simcord_env.backend
    backend.delete_role(srv.guild.id, chosen_role.id)
    backend.delete_channel(tables.id)
    backend.delete_channel(cards.id)
    await simcord_env.settle()
    shown = await srv.settings()
    assert field(shown, "Tournament organizer role") == (
        f"<@&{staff.id}> {DEFAULT}\n⚠️ The chosen role was deleted: the default applies until you choose another."
    )
    assert field(shown, "Final Quest category").startswith("“Final Quest tables” (created when first needed) · *default*\n⚠️")
    assert field(shown, "Channels for tables").startswith(f"Anywhere I can post {DEFAULT}\n⚠️ The chosen channels")
    # ... and what is opened follows the default: anywhere, in config's category.
    alice = srv.members[0]
    await alice.slash(srv.channel, "finalquest new")
    created = [c for c in srv.guild.channels.values() if c.name.startswith("final-quest")]
    assert len(created) == 1
    category = simcord_env.backend.channels[simcord_env.backend.channels[created[0].id].parent_id]
    assert category.name == "Final Quest tables"


async def test_turn_pings_off_keeps_the_thread_quiet_and_the_dms_coming(simcord_env, simcord_bot):
    srv = server(simcord_env)
    await srv.settings(thread_pings=False, clock=HOUR)
    alice = srv.members[0]
    await alice.slash(srv.channel, "donguri new", players=3, length="short")
    world = world_of(srv)
    await add_computer(alice, table_messages(srv.channel)[-1])
    await add_computer(alice, table_messages(srv.channel)[-1])
    await simcord_env.settle()
    (table,) = await simcord_bot.store.tables_with_status("running")
    assert table.clock == HOUR
    table = await simcord_bot.service.table(table.id)
    assert [table.seats[s].user_id for s in table.turn_seats] == [alice.id], "the computers have moved"
    await simcord_env.advance_time(180)  # past the grace period: alice is away
    assert not [m for m in thread(world).history() if "<@" in m.content], "no turn ping in the thread"
    assert [m for m in dms(alice) if "Your turn at" in m.content], "the turn DM still comes"
    await simcord_env.advance_time(HOUR * 0.85 - 180)
    assert [m for m in dms(alice) if "Reminder" in m.content], "so does the reminder, by DM"
    assert not [m for m in thread(world).history() if "<@" in m.content], "and not in the thread"


@pytest.mark.parametrize("on", [True, False])
async def test_web_pages_are_a_stored_setting_the_web_server_reads(simcord_env, simcord_bot, on):
    srv = server(simcord_env)
    assert (await simcord_bot.settings.of(srv.guild.id)).web is True
    await srv.settings(web=on)
    assert (await simcord_bot.settings.of(srv.guild.id)).web is on
