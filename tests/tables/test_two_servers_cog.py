"""Two servers with different settings, their tables running at the same time: each table in its
server's language, each server's organizer role running events there and nowhere else, and each
server's Final Quest channels in its own category."""

from __future__ import annotations

from tests.support.servers import server, table_messages
from tests.support.table import add_computer, embed_text, enabled_ids, hand_dm


async def test_two_servers_run_tables_side_by_side_each_with_its_own_settings(simcord_env, simcord_bot, client_locales):
    english = server(simcord_env, "Cards club", members=("alice", "bob"))  # an English server ...
    japanese = server(simcord_env, "将棋部", locale="ja", members=("taro", "hana"))  # ... and a Japanese one
    staff_a = english.guild.create_role("club staff")
    staff_b = japanese.guild.create_role("運営")
    tables_a = english.guild.create_category("Club tables")
    tables_b = japanese.guild.create_category("卓")
    # ... whose admins chose the other language for their tables.
    await english.settings(language="ja", organizer_role=staff_a, category=tables_a)
    await japanese.settings(language="en", organizer_role=staff_b, category=tables_b)

    # One member of both, organizer in the first only.
    mio_user = simcord_env.create_user("mio")
    mio_a = english.guild.add_member(mio_user, roles=[staff_a])
    mio_b = japanese.guild.add_member(mio_user)
    hana = japanese.members[1]
    simcord_env.backend.add_member_role(japanese.guild.id, hana.id, staff_b.id)
    await simcord_env.settle()

    # A table in each server, both in play at once.
    players = [(english, english.members[0]), (japanese, japanese.members[0])]
    for srv, host in players:
        await host.slash(srv.channel, "donguri new", players=3, length="short")
        label = "CPUを追加" if srv is english else "Add computer"
        for _ in range(2):
            await add_computer(host, table_messages(srv.channel)[-1], label=label)
    running = await simcord_bot.store.tables_with_status("running")
    assert sorted(t.guild_id for t in running) == sorted([english.guild.id, japanese.guild.id])
    for _ in range(3):  # moves alternate between the servers
        for _srv, host in players:
            await simcord_env.settle()
            message = hand_dm(host)
            ids = enabled_ids(message)
            if ids:
                await host.user.click(message, custom_id=ids[0])
    await simcord_env.settle()
    for table in running:
        assert len(await simcord_bot.store.actions(table.id)) >= 6, "both games went on"
    text_a, text_b = (embed_text(table_messages(s.channel)[-1]) for s in (english, japanese))
    assert "どんぐりと山猫" in text_a and "Donguri" not in text_a
    assert "Donguri to Yamaneko" in text_b and "どんぐり" not in text_b
    assert english.channel.threads[-1].name.startswith("どんぐりと山猫")
    assert japanese.channel.threads[-1].name.startswith("Donguri to Yamaneko")
    assert {t.language for t in await simcord_bot.store.tables_with_status("running")} == {"ja", "en"}

    # Final Quest: each server's table channel in its own category.
    for srv, host in players:
        await host.slash(srv.channel, "finalquest new")
    backend = simcord_env.backend
    for srv, category in ((english, tables_a), (japanese, tables_b)):
        made = [c for c in backend.channels.values() if c.guild_id == srv.guild.id and c.parent_id == category.id]
        assert len(made) == 1, f"{srv.guild.name}: one table channel in {category.name}"

    # Organizer roles: each server's own.
    created = await mio_a.slash(english.channel, "tournament create", game="donguri", name="Club cup")
    assert created.response.content == "Tournament #1 is open for sign-up."
    refused = await mio_b.slash(japanese.channel, "tournament create", game="donguri", name="Cup")
    assert refused.ephemeral and refused.response.content.startswith("Only the organizer")
    client_locales[hana.id] = "en-US"
    created = await hana.slash(japanese.channel, "tournament create", game="donguri", name="Spring cup")
    assert created.response.content == "Tournament #2 is open for sign-up."
    events = await simcord_bot.tournaments.service.store.with_status("signup")
    assert sorted((e.guild_id, e.language) for e in events) == sorted(
        [(english.guild.id, "ja"), (japanese.guild.id, "en")]
    )
