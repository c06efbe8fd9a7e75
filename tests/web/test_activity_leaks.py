"""No browser in the Activity ever receives another seat's hidden card, in any game.

Each game is played through the API, each move a tap by the member to act. At every stop, each
seat's state (and its pictures) is asked for twice: of the game as it is, and of a lookalike
(``tests.support.lookalikes``) that this seat cannot tell from it but whose other hands differ. A
state drawn from anything this seat may not know would differ; it must be the same bytes. A member
looking on is given the same test against every seat's lookalike. Every stream message a member
got along the way is the state they would have been given at that version, and no action offered
to a seat names a card hidden from it (``Engine.hidden_from``).
"""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from bot.web.activity_auth import Buckets
from tests.support.activity import API, activity
from tests.support.lookalikes import lookalike, others_view
from tests.support.patience import patient
from tests.support.web import GAMES, seated_table
from tests.web.test_web_live import next_event

STOPS = (1, 3, 6, 10, 15)
PLAYERS = {"saizen": 3}  # with two, a lookalike would change what the other holds (test_web_leaks)
WATCHER = 9


def actions(state: dict) -> list[str]:
    prompt = state["you"]["prompt"] or {"choices": [], "menus": [], "table_choices": []}
    offered = [*prompt["choices"], *prompt["table_choices"], *(c for m in prompt["menus"] for c in m["choices"])]
    return [c["action"] for c in offered if c["action"]]


async def seen_by(act, site, table_id: int, session: str, language: str) -> tuple[str, bytes, bytes]:
    """What one member's browser gets now: the state, the table's picture and their own."""
    site.drawings.clear()
    state = await act.get(f"/table/{table_id}", session, locale=language)
    assert state.status == 200
    pictures = []
    for name in ("table.png", "hand.png"):
        answer = await act.get(f"/table/{table_id}/{name}", session, locale=language)
        pictures.append(await answer.read() if answer.status == 200 else b"")
    return await state.text(), pictures[0], pictures[1]


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_no_state_stream_or_picture_shows_a_seat_what_it_may_not_see(tables, site, game):
    rng = random.Random(game)
    table_id = await seated_table(tables, game, seed=5, players=PLAYERS.get(game))
    compared = 0
    async with activity(site, tables) as act:
        act.routes.requests = Buckets(rate=1000, burst=1000)  # a test's bursts, not a member's
        table = await tables.tables.table(table_id)
        members = [s.user_id for s in table.seats]
        sessions = {m: await act.sign_in(m) for m in [*members, WATCHER]}
        streams = {}
        for m, session in sessions.items():
            streams[m] = await act.web.get(f"{API}/table/{table_id}/events", params={"session": session, "locale": "en"})
        got: dict[int, list[dict]] = {m: [] for m in sessions}
        made = 0
        for stop in STOPS:
            while made < stop:
                table = await tables.tables.table(table_id)
                engine = await tables.tables.engine(table)
                if table.status != "running":
                    break
                seat = rng.choice(engine.to_act())
                member = table.seats[seat].user_id
                state = await (await act.get(f"/table/{table_id}", sessions[member])).json()
                tap = {"seen": state["table"]["seen"], "action": rng.choice(actions(state))}
                answer = await act.post(f"/table/{table_id}/move", sessions[member], tap)
                assert answer.status == 200
                made += 1
                for m, response in streams.items():  # every stream has this version before the next tap
                    while not got[m] or got[m][-1]["table"]["seen"] < made:
                        name, data = await asyncio.wait_for(next_event(response), patient(3))
                        if name == "state":
                            got[m].append(data)
                    now = await (await act.get(f"/table/{table_id}", sessions[m], locale="en")).json()
                    assert got[m][-1] == now, "a stream message is the member's state at its version"
                after = await answer.json()
                assert after.pop("again") is False and after == got[member][-1], "so is the tap's answer"
            table = await tables.tables.table(table_id)
            if table.status != "running":
                break
            engine = await tables.tables.engine(table)
            language = "ja" if stop % 2 else "en"
            for m in [*members, WATCHER]:
                seat = table.seat_of(m)
                real = await seen_by(act, site, table_id, sessions[m], language)
                state = json.loads(real[0])
                hidden = engine.hidden_from(seat)
                assert not {a.partition(":")[2] for a in actions(state)} & hidden, (game, stop, m)
                for s in [seat] if seat is not None else range(len(members)):
                    twin = lookalike(engine, s, rng)
                    if twin is None:
                        continue
                    assert any(others_view(twin, t) != others_view(engine, t) for t in range(len(members)))
                    tables.tables.engines[table_id] = (table.version, twin)  # what the Activity reads
                    try:
                        assert await seen_by(act, site, table_id, sessions[m], language) == real, (game, stop, m, s)
                    finally:
                        tables.tables.forget(table_id)
                    compared += 1
        for m, states in got.items():
            assert states and all(s["you"]["member"] == str(m) for s in states)
            assert all((s["you"]["prompt"] is None) == (m == WATCHER) for s in states)
        for response in streams.values():
            response.close()
    if game == "othello_torite":
        assert compared == 0, "Othello de Torite hides nothing"
    else:
        assert compared >= 6, f"only {compared} states of {game} had a lookalike"
