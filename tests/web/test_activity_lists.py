"""What the Activity's page asks before a table: the application's id for the SDK (with the words
it shows until a table speaks), and the tables it may open from where the Activity runs: the
channel's first, then the rest of the server's, never another server's nor a closed one; and the
table the member launched it from, while that is open here."""

from __future__ import annotations

from tests.support.activity import activity
from tests.support.web import CHANNEL, GUILD, play, seated_table

OTHER_GUILD = 1001


async def test_the_config_names_the_application_and_speaks_the_members_language(tables, site):
    async with activity(site, tables) as act:
        answer = await act.get("/config", None, locale="ja")
        assert answer.status == 200 and answer.headers["Cache-Control"] == "no-store"
        found = await answer.json()
        assert found["client_id"] == act.fake.application_id
        assert found["labels"]["signing_in"] == "Discord でサインインしています…"
        assert found["labels"]["time_left"] == "残り {time}"  # the script fills the time in
        english = await (await act.get("/config", None, locale="en-US")).json()
        assert english["labels"]["outside"].startswith("This is the bot's Discord Activity")
        assert (await act.get("/config", None, locale="not a locale!")).status == 400


async def test_the_tables_are_the_channels_then_the_servers_and_never_another_servers(tables, site):
    here = await seated_table(tables, "donguri")
    elsewhere = await seated_table(tables, "saizen", channel=CHANNEL + 1)
    finished = await seated_table(tables, "othello_torite")
    await play(tables, finished)
    lobby = await tables.lobby.create_seated(
        "othello_torite", guild_id=GUILD, channel_id=CHANNEL, host_id=2, players=[(2, "bob")],
        options={}, language="en", clock=None, on_timeout="computer_turn",
    )
    await tables.lobby.create_seated(
        "othello_torite", guild_id=OTHER_GUILD, channel_id=CHANNEL, host_id=1, players=[(1, "alice")],
        options={}, language="en", clock=None, on_timeout="computer_turn",
    )
    async with activity(site, tables) as act:
        session = await act.sign_in(1)
        answer = await act.get("/tables", session, locale="en")
        assert answer.status == 200
        found = await answer.json()
        assert found["placed"] and found["launched"] is None
        assert [t["id"] for t in found["here"]] == [lobby, here]  # newest first
        assert [t["id"] for t in found["elsewhere"]] == [elsewhere]
        by_id = {t["id"]: t for t in found["here"] + found["elsewhere"]}
        assert by_id[here]["title"] == f"Donguri to Yamaneko · table #{here}" and by_id[here]["game"] == "donguri"
        assert by_id[here]["summary"] == "running · alice, bob and carol" and by_id[here]["seated"]
        assert by_id[lobby]["summary"] == "in the lobby · bob" and not by_id[lobby]["seated"]
        assert found["labels"]["choose"] == "Choose a table"
        japanese = await (await act.get("/tables", session, locale="ja")).json()
        assert [t["summary"] for t in japanese["here"]] == ["参加者募集中 · bob", "進行中 · alice、bob、carol"]


async def test_an_activity_no_instance_placed_lists_only_the_members_own_tables(tables, site):
    mine = await seated_table(tables, "donguri")
    await seated_table(tables, "saizen", players=2)  # alice and bob: not dave's
    async with activity(site, tables) as act:
        assert (await act.get("/tables", None)).status == 401
        found = await (await act.get("/tables", await act.sign_in(3, guild=None))).json()
        assert not found["placed"] and found["here"] == []
        assert [t["id"] for t in found["elsewhere"]] == [mine]
        nobody = await (await act.get("/tables", await act.sign_in(4, guild=None))).json()
        assert nobody["here"] == nobody["elsewhere"] == []


async def test_the_launched_table_is_offered_while_it_is_open_in_this_server(tables, site):
    launched = await seated_table(tables, "donguri", channel=CHANNEL + 1)
    other = await tables.lobby.create_seated(
        "othello_torite", guild_id=OTHER_GUILD, channel_id=CHANNEL, host_id=1, players=[(1, "alice")],
        options={}, language="en", clock=None, on_timeout="computer_turn",
    )
    remembered: dict[tuple[int, int, int], int] = {}

    async def launched_table(user_id: int, guild_id: int, channel_id: int) -> int | None:
        return remembered.get((user_id, guild_id, channel_id))

    tables.store.launched_table = launched_table  # what the launch button's store method answers
    async with activity(site, tables) as act:
        session = await act.sign_in(1)
        assert (await (await act.get("/tables", session)).json())["launched"] is None
        remembered[(1, GUILD, CHANNEL)] = launched
        assert (await (await act.get("/tables", session)).json())["launched"] == launched
        remembered[(1, GUILD, CHANNEL)] = other  # another server's table: never opened from here
        assert (await (await act.get("/tables", session)).json())["launched"] is None
        await play(tables, launched)
        remembered[(1, GUILD, CHANNEL)] = launched  # over: nothing to open
        assert (await (await act.get("/tables", session)).json())["launched"] is None
