"""What the Activity shows a member: the table as everyone sees it, their own hand and choices as
their DM's buttons offer them (the greyed ones with why), and nothing of a seat not theirs; only at
a table of the server the Activity runs in, in the member's language."""

from __future__ import annotations

from bot.core.games import REGISTRY
from bot.core.i18n import Lang
from bot.tables import render
from tests.support.activity import activity
from tests.support.web import CHANNEL, GUILD, play, seated_table

OTHER_GUILD = 1001


def labels(choices: list[dict]) -> list[str]:
    return [c["label"] for c in choices]


async def test_a_player_sees_their_own_hand_with_the_buttons_choices_and_why_the_greyed_are_greyed(tables, site):
    table_id = await seated_table(tables, "donguri")
    await play(tables, table_id, 2)
    async with activity(site, tables) as act:
        table = await tables.tables.table(table_id)
        engine = await tables.tables.engine(table)
        (seat,) = engine.to_act()
        member = table.seats[seat].user_id
        answer = await act.get(f"/table/{table_id}", await act.sign_in(member))
        assert answer.status == 200 and answer.headers["Cache-Control"] == "no-store"
        state = await answer.json()
        assert state["you"]["seat"] == seat and state["your_turn"] and state["to_act"] == [seat]
        assert state["table"]["seen"] == len(engine.history) and state["table"]["version"] == table.version
        tr = Lang("en")
        expected = REGISTRY["donguri"].prompt(engine, seat, render.seat_names(table, tr), tr)
        prompt = state["you"]["prompt"]
        assert labels(prompt["choices"]) == [c.label for c in expected.choices]
        legal = set(engine.legal_actions(seat))
        for got, want in zip(prompt["choices"], expected.choices, strict=True):
            assert got["enabled"] == (want.action in legal) and got["action"] == (want.action if got["enabled"] else None)
            if not got["enabled"]:
                assert got["reason"] and got["reason"] in " · ".join(prompt["reasons"])
        assert [s["name"] for s in state["seats"]] == ["alice", "bob", "carol"]
        assert [s["you"] for s in state["seats"]] == [i == seat for i in range(3)]
        assert "Waiting for" in state["status_html"] and state["view"]["html"].startswith('<section class="view"')
        assert state["labels"]["join"] == "Join" and state["labels"]["your_turn"] == "Your turn"


async def test_a_member_not_seated_sees_the_public_table_and_no_hand(tables, site):
    table_id = await seated_table(tables, "arsene")
    await play(tables, table_id, 3)
    async with activity(site, tables) as act:
        state = await (await act.get(f"/table/{table_id}", await act.sign_in(9))).json()
        assert state["you"] == {"member": "9", "seat": None, "host": False, "prompt": None}
        assert not state["your_turn"] and state["view"]["html"] and state["lobby"] is None
        assert all(not s["you"] for s in state["seats"])


async def test_a_table_of_another_server_is_refused(tables, site):
    elsewhere = await tables.lobby.create_seated(
        "othello_torite", guild_id=OTHER_GUILD, channel_id=CHANNEL + 1, host_id=1, players=[(1, "alice"), (2, "bob")],
        options={}, language="en", clock=None, on_timeout="computer_turn",
    )
    await tables.lobby.start(elsewhere, None, 3, shuffle=False)
    here = await seated_table(tables, "othello_torite")
    async with activity(site, tables) as act:
        session = await act.sign_in(1)  # in an Activity of GUILD
        refused = await act.get(f"/table/{elsewhere}", session)
        assert refused.status == 403 and (await refused.json())["error"]["code"] == "error.wrong_server"
        assert (await act.get(f"/table/{here}", session, guild=GUILD)).status == 200
        other = await act.get(f"/table/{here}", session, guild=OTHER_GUILD)
        assert other.status == 403 and (await other.json())["error"]["code"] == "activity.wrong_guild"
        # A session Discord placed in no instance: the member's own tables only, as from a DM.
        unplaced = await act.sign_in(1, guild=None)
        assert (await act.get(f"/table/{here}", unplaced)).status == 200
        assert (await act.get(f"/table/{elsewhere}", unplaced, guild=GUILD)).status == 403
        watcher = await act.get(f"/table/{here}", await act.sign_in(9, guild=None))
        assert watcher.status == 403 and (await watcher.json())["error"]["code"] == "error.not_seated"


async def test_the_table_speaks_the_members_language(tables, site):
    table_id = await seated_table(tables, "donguri")
    async with activity(site, tables) as act:
        session = await act.sign_in(1)
        ja = await (await act.get(f"/table/{table_id}", session, locale="ja")).json()
        en = await (await act.get(f"/table/{table_id}", session, locale="en-US")).json()
        assert ja["table"]["language"] == "ja" and en["table"]["language"] == "en"
        assert ja["table"]["game_name"] == Lang("ja")("donguri.name") != en["table"]["game_name"]
        assert ja["labels"]["join"] == Lang("ja")("button.join")
        for bad in ("j@", "x" * 20):
            answer = await act.get(f"/table/{table_id}", session, locale=bad)
            assert answer.status == 400 and (await answer.json())["error"]["code"] == "activity.bad_request"


async def test_an_unknown_table_answers_404_and_a_bad_query_400(tables, site):
    async with activity(site, tables) as act:
        session = await act.sign_in(1)
        missing = await act.get("/table/999", session)
        assert missing.status == 404 and (await missing.json())["error"]["code"] == "error.no_such_table"
        assert (await act.get("/table/9999999999999999999", session)).status == 404
        assert (await act.get("/table/1", session, guild="x1")).status == 400
        assert (await act.get("/table/999", None)).status == 401


async def test_a_lobby_says_what_the_member_may_do(tables, site):
    table = await tables.lobby.open("donguri", guild_id=GUILD, channel_id=CHANNEL, host=(1, "alice"), size=3, options={"length": "short"}, language="en")
    async with activity(site, tables) as act:
        host = await (await act.get(f"/table/{table.id}", await act.sign_in(1))).json()
        guest = await (await act.get(f"/table/{table.id}", await act.sign_in(2))).json()
        assert host["table"]["status"] == "lobby" and host["you"]["host"]
        assert host["lobby"]["can"] == {"join": False, "leave": False, "start": False, "add_computer": True}
        assert guest["lobby"]["can"] == {"join": True, "leave": False, "start": False, "add_computer": False}
        assert guest["lobby"]["levels"] == ["easy", "normal", "hard"] and "<ol>" in guest["view"]["html"]


async def test_the_pictures_are_the_tables_and_the_members_own(tables, site):
    table_id = await seated_table(tables, "othello_torite")
    async with activity(site, tables) as act:
        player, watcher = await act.sign_in(1), await act.sign_in(9)
        state = await (await act.get(f"/table/{table_id}", player)).json()
        assert state["view"]["image"] and state["you"]["prompt"]["image"]
        board = await act.web.get(f"/activity/api/table/{table_id}/table.png", params={"session": player, "v": "1"})
        assert board.status == 200 and (await board.read()).startswith(b"\x89PNG")
        hand = await act.get(f"/table/{table_id}/hand.png", player)
        assert hand.status == 200 and (await hand.read()).startswith(b"\x89PNG")
        assert (await act.get(f"/table/{table_id}/table.png", watcher)).status == 200
        none = await act.get(f"/table/{table_id}/hand.png", watcher)
        assert none.status == 404 and (await none.json())["error"]["code"] == "activity.picture_none"
        assert (await act.get(f"/table/{table_id}/hand.png", None)).status == 401
