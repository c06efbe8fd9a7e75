"""A tap in the Activity goes through the move service as a button does: the same version check,
the same transaction, the same refusals (409 out of date, 400 illegal, 403 not their turn or not
their seat), each with its catalog code; asked again with the same id, a move is played once; a
body that is not what the API takes answers 400 and changes nothing. The lobby's join, leave,
computer and start go the same way."""

from __future__ import annotations

import json
import random

from tests.support.activity import API, activity
from tests.support.web import CHANNEL, GUILD, seated_table


async def acting(tables, table_id):
    table = await tables.tables.table(table_id)
    engine = await tables.tables.engine(table)
    (seat,) = engine.to_act()
    return table, engine, seat


async def test_a_tap_plays_the_move_and_answers_the_members_new_state(tables, site):
    table_id = await seated_table(tables, "donguri")
    async with activity(site, tables) as act:
        table, engine, seat = await acting(tables, table_id)
        member = table.seats[seat].user_id
        session = await act.sign_in(member)
        state = await (await act.get(f"/table/{table_id}", session)).json()
        action = next(c["action"] for c in state["you"]["prompt"]["choices"] if c["enabled"])
        answer = await act.post(f"/table/{table_id}/move", session, {"seen": state["table"]["seen"], "action": action, "request": "tap-1"})
        assert answer.status == 200, await answer.text()
        after = await answer.json()
        assert after["table"]["seen"] == state["table"]["seen"] + 1 and not after["again"] and not after["your_turn"]
        assert await tables.store.actions(table_id) == [(seat, action)]
        assert (await tables.tables.table(table_id)).version == after["table"]["version"]
        played_card = action.removeprefix("play:")
        assert all(played_card not in (c["action"] or "") for c in after["you"]["prompt"]["choices"])


async def test_the_same_tap_sent_twice_is_played_once(tables, site):
    table_id = await seated_table(tables, "othello_torite")
    async with activity(site, tables) as act:
        table, engine, seat = await acting(tables, table_id)
        session = await act.sign_in(table.seats[seat].user_id)
        move = {"seen": len(engine.history), "action": engine.legal_actions(seat)[0], "request": "same-tap"}
        first = await act.post(f"/table/{table_id}/move", session, move)
        again = await act.post(f"/table/{table_id}/move", session, move)
        assert first.status == again.status == 200
        assert (await again.json())["again"] and (await again.json())["table"]["seen"] == len(engine.history) + 1
        assert len(await tables.store.actions(table_id)) == 1
        # Without the id, the same tap again is out of date: the member has moved since.
        stale = await act.post(f"/table/{table_id}/move", session, {k: v for k, v in move.items() if k != "request"})
        assert stale.status == 409 and (await stale.json())["error"]["code"] == "error.stale"
        assert len(await tables.store.actions(table_id)) == 1


async def test_a_move_not_theirs_to_make_is_refused_with_the_rules_words(tables, site):
    table_id = await seated_table(tables, "donguri")
    async with activity(site, tables) as act:
        rng = random.Random(4)
        while True:  # on to a turn with a card the rules forbid (a suit to follow)
            table, engine, seat = await acting(tables, table_id)
            legal = set(engine.legal_actions(seat))
            forbidden = [f"play:{c}" for c in engine.observation(seat)["hand"] if f"play:{c}" not in legal]
            if forbidden:
                break
            await tables.tables.act(table_id, table.seats[seat].user_id, len(engine.history), rng.choice(sorted(legal)))
        seen = len(engine.history)
        mover = await act.sign_in(table.seats[seat].user_id)
        illegal = await act.post(f"/table/{table_id}/move?locale=ja", mover, {"seen": seen, "action": forbidden[0]})
        assert illegal.status == 400
        error = (await illegal.json())["error"]
        assert error["code"] == "donguri.error.must_follow" and "出" in error["message"]
        other = table.seats[(seat + 1) % 3].user_id
        turn = await act.post(f"/table/{table_id}/move", await act.sign_in(other), {"seen": seen, "action": sorted(legal)[0]})
        assert turn.status == 403 and (await turn.json())["error"]["code"] == "error.not_your_turn"
        watcher = await act.post(f"/table/{table_id}/move", await act.sign_in(9), {"seen": seen, "action": sorted(legal)[0]})
        assert watcher.status == 403 and (await watcher.json())["error"]["code"] == "error.not_seated"
        assert len(await tables.store.actions(table_id)) == seen


async def test_a_malformed_move_answers_400_and_changes_nothing(tables, site):
    table_id = await seated_table(tables, "saizen")
    async with activity(site, tables) as act:
        table, engine, seat = await acting(tables, table_id)
        session = await act.sign_in(table.seats[seat].user_id)
        action = engine.legal_actions(seat)[0]
        bodies = [
            {"action": action},
            {"seen": "0", "action": action},
            {"seen": True, "action": action},
            {"seen": -1, "action": action},
            {"seen": 2**63, "action": action},
            {"seen": 0},
            {"seen": 0, "action": 7},
            {"seen": 0, "action": "play card"},
            {"seen": 0, "action": "x" * 61},
            {"seen": 0, "action": action, "request": "no spaces"},
            {"seen": 0, "action": action, "request": 5},
            [0, action],
        ]
        for body in bodies:
            answer = await act.post(f"/table/{table_id}/move", session, body)
            assert answer.status == 400, body
            assert (await answer.json())["error"]["code"] == "activity.bad_request"
        raw = await act.web.post(f"{API}/table/{table_id}/move", data=b'{"seen": 0,', headers={"Authorization": f"Bearer {session}", "Content-Type": "application/json"})
        assert raw.status == 400
        form = await act.web.post(f"{API}/table/{table_id}/move", data={"seen": "0", "action": action}, headers={"Authorization": f"Bearer {session}"})
        assert form.status == 400
        assert (await tables.tables.table(table_id)).version == table.version
        assert await tables.store.actions(table_id) == []


async def test_a_change_needs_the_session_in_a_header(tables, site):
    table_id = await seated_table(tables, "othello_torite")
    async with activity(site, tables) as act:
        table, engine, seat = await acting(tables, table_id)
        session = await act.sign_in(table.seats[seat].user_id)
        move = json.dumps({"seen": 0, "action": engine.legal_actions(seat)[0]})
        kinds = {"Content-Type": "application/json"}
        in_query = await act.web.post(f"{API}/table/{table_id}/move", data=move, params={"session": session}, headers=kinds)
        in_cookie = await act.web.post(f"{API}/table/{table_id}/move", data=move, headers={**kinds, "Cookie": f"session={session}"})
        assert in_query.status == in_cookie.status == 401
        assert await tables.store.actions(table_id) == []
        by_header = await act.web.post(f"{API}/table/{table_id}/move", data=move, headers={**kinds, "X-Session": session})
        assert by_header.status == 200


async def test_the_lobby_is_joined_filled_and_started_from_the_activity(tables, site):
    table = await tables.lobby.open("donguri", guild_id=GUILD, channel_id=CHANNEL, host=(1, "alice"), size=4, options={"length": "short"}, language="en")
    async with activity(site, tables) as act:
        host, bob, carol = await act.sign_in(1), await act.sign_in(2), await act.sign_in(3)
        joined = await act.post(f"/table/{table.id}/join", bob)
        assert joined.status == 200 and (await joined.json())["you"]["seat"] == 1
        again = await act.post(f"/table/{table.id}/join", bob)
        assert again.status == 409 and (await again.json())["error"]["code"] == "error.already_seated"
        assert (await act.post(f"/table/{table.id}/join", carol)).status == 200
        left = await act.post(f"/table/{table.id}/leave", carol)
        assert left.status == 200 and (await left.json())["you"]["seat"] is None
        not_host = await act.post(f"/table/{table.id}/start", bob)
        assert not_host.status == 403 and (await not_host.json())["error"]["code"] == "error.host_only"
        assert (await act.post(f"/table/{table.id}/computer", bob, {"level": "easy"})).status == 403
        assert (await act.post(f"/table/{table.id}/computer", host, {"level": "godlike"})).status == 400
        seated = await (await act.post(f"/table/{table.id}/computer", host, {"level": "hard"})).json()
        assert [s["computer"] for s in seated["seats"]] == [False, False, True]
        started = await act.post(f"/table/{table.id}/start", host)
        assert started.status == 200
        state = await started.json()
        assert state["table"]["status"] == "running" and state["you"]["prompt"] is not None
        names = [s["name"] for s in state["seats"]]
        assert {"alice", "Bob"} <= set(names), "a member joins under the name Discord gave at sign-in"


async def test_a_lobby_change_needs_the_activity_opened_in_the_tables_server(tables, site):
    table = await tables.lobby.open("donguri", guild_id=GUILD, channel_id=CHANNEL, host=(1, "alice"), size=3, options={"length": "short"}, language="en")
    elsewhere = await tables.lobby.open("donguri", guild_id=GUILD + 1, channel_id=CHANNEL, host=(5, "erin"), size=3, options={"length": "short"}, language="en")
    async with activity(site, tables) as act:
        unplaced = await act.post(f"/table/{table.id}/join", await act.sign_in(2, guild=None))
        assert unplaced.status == 403 and (await unplaced.json())["error"]["code"] == "activity.no_instance"
        other = await act.post(f"/table/{elsewhere.id}/join", await act.sign_in(2))
        assert other.status == 403 and (await other.json())["error"]["code"] == "error.wrong_server"
        assert len((await tables.tables.table(elsewhere.id)).seats) == 1
