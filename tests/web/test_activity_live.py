"""The Activity follows its table: each member's stream gets their own state at every committed
version, whoever moved and however (a tap, or a button through the same move service), catches up
at once after a dropped connection without anything twice, and says when the table or the session
is over."""

from __future__ import annotations

import asyncio

from tests.support.activity import API, activity
from tests.support.patience import patient
from tests.support.web import play, seated_table
from tests.web.test_web_live import next_event


async def stream(act, table_id: int, session: str, **query):
    params = {"session": session, **{k: str(v) for k, v in query.items()}}
    response = await act.web.get(f"{API}/table/{table_id}/events", params=params)
    assert response.status == 200 and response.content_type == "text/event-stream"
    return response


async def event(response) -> tuple[str, dict]:
    return await asyncio.wait_for(next_event(response), patient(3))


async def test_every_member_follows_a_tap_with_their_own_state(tables, site):
    table_id = await seated_table(tables, "donguri")
    async with activity(site, tables) as act:
        table = await tables.tables.table(table_id)
        engine = await tables.tables.engine(table)
        (seat,) = engine.to_act()
        sessions = {n: await act.sign_in(n) for n in (1, 2, 3, 9)}
        streams = {n: await stream(act, table_id, s) for n, s in sessions.items()}
        for n, response in streams.items():
            name, state = await event(response)
            assert name == "state" and state["table"]["version"] == table.version
            assert (state["you"]["prompt"] is None) == (n == 9)
        mover = table.seats[seat].user_id
        tap = {"seen": len(engine.history), "action": engine.legal_actions(seat)[0]}
        assert (await act.post(f"/table/{table_id}/move", sessions[mover], tap)).status == 200
        for n, response in streams.items():
            name, state = await event(response)
            assert name == "state" and state["table"]["seen"] == len(engine.history) + 1, n
            assert state["you"]["member"] == str(n) and state["you"]["seat"] == (None if n == 9 else n - 1)


async def test_a_move_made_elsewhere_reaches_the_stream_and_a_reconnect_gets_only_what_it_lacks(tables, site):
    table_id = await seated_table(tables, "othello_torite")
    async with activity(site, tables) as act:
        session = await act.sign_in(1)
        first = await stream(act, table_id, session)
        _, state = await event(first)
        await play(tables, table_id, 1)  # not through the Activity: the feed polls, as for another process
        _, later = await event(first)
        assert later["table"]["seen"] == state["table"]["seen"] + 1
        first.close()  # the connection drops
        await play(tables, table_id, 1)
        again = await act.web.get(
            f"{API}/table/{table_id}/events", params={"session": session}, headers={"Last-Event-ID": str(later["table"]["version"])}
        )
        _, caught_up = await event(again)
        assert caught_up["table"]["seen"] == later["table"]["seen"] + 1, "the move missed while away, once"
        current = await stream(act, table_id, session, v=caught_up["table"]["version"])
        await play(tables, table_id, 1)
        _, next_one = await event(current)
        assert next_one["table"]["seen"] == caught_up["table"]["seen"] + 1, "nothing sent twice"


async def test_the_stream_ends_with_the_game(tables, site):
    table_id = await seated_table(tables, "othello_torite")
    async with activity(site, tables) as act:
        response = await stream(act, table_id, await act.sign_in(2))
        await play(tables, table_id)  # to the end
        name, state = await event(response)
        while name != "end":
            last = state
            name, state = await event(response)
        assert last["table"]["status"] == "finished"


async def test_the_stream_says_when_the_session_is_over_and_needs_one(tables, site):
    table_id = await seated_table(tables, "donguri")
    async with activity(site, tables) as act:
        session = await act.sign_in(1)
        response = await stream(act, table_id, session)
        await event(response)
        act.clock.at += 3600
        await play(tables, table_id, 1)  # the stream wakes, and finds its session ended
        name, _ = await event(response)
        assert name == "expired"
        missing = await act.web.get(f"{API}/table/{table_id}/events")
        assert missing.status == 401 and (await missing.json())["error"]["code"] == "activity.session_missing"


async def test_a_member_holds_a_few_streams_at_most(tables, site):
    table_id = await seated_table(tables, "donguri")
    async with activity(site, tables) as act:
        session = await act.sign_in(1)
        held = [await stream(act, table_id, session) for _ in range(4)]
        refused = await act.web.get(f"{API}/table/{table_id}/events", params={"session": session})
        assert refused.status == 429
        held[0].close()
        await play(tables, table_id, 1)  # the server learns of a closed stream when it next writes to it

        async def let_go() -> None:
            while act.routes.streams[1] >= 4:
                await asyncio.sleep(0.01)

        await asyncio.wait_for(let_go(), patient(3))
        assert (await stream(act, table_id, session)).status == 200
