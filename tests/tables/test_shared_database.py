"""Two bot processes sharing one PostgreSQL database, each with its own connections and memory
(two stores and services in one test stand for them): a click for the same table reaching both
applies once, a passed deadline is claimed by one, a table is rated once, and a tournament round
opens once. The end-to-end version with real processes is ``test_processes_postgres.py``."""

from __future__ import annotations

import asyncio
import json
import time

import pytest

from bot.core.errors import UserError
from bot.core.games import REGISTRY
from bot.ratings import model as rating_model
from bot.ratings.store import RatingStore, side_places
from bot.storage.ratings import RatingRows
from bot.storage.store import Store
from bot.tables.lobby_ops import LobbyOps
from bot.tables.seat_ops import SeatOps
from bot.tables.service import TableService
from tests.support.platform import platform

pytestmark = pytest.mark.usefixtures("games_registered")


@pytest.fixture
def games_registered():
    from bot.core.games import register
    from cogs.donguri.render import DonguriUI
    from cogs.othello_torite.render import OthelloToriteUI

    for ui in (DonguriUI(), OthelloToriteUI()):
        if ui.game_id not in REGISTRY:
            register(ui)


@pytest.fixture
async def two(pg_cluster):
    """Two processes' stores on one fresh PostgreSQL database."""
    from tests.support.postgres import fresh_database

    url = await fresh_database(pg_cluster.url)
    stores = [await Store.open(url), await Store.open(url)]
    yield stores
    for store in stores:
        await store.close()


async def started_table(
    service: TableService, players: int = 2, game: str = "othello_torite", seed: int = 5, **extra
) -> int:
    lobby = LobbyOps(service)
    table = await lobby.open(
        game, guild_id=1, channel_id=2, host=(10, "p0"), size=players, options={}, language="en", **extra
    )
    for i in range(1, players):
        await lobby.join(table.id, (10 + i, f"p{i}"))
    await lobby.start(table.id, None, seed=seed)
    return table.id


async def to_act(service: TableService, table_id: int) -> tuple[int, list[str], int]:
    table = await service.table(table_id)
    engine = await service.engine(table)
    seat = engine.to_act()[0]
    return table.seats[seat].user_id, engine.legal_actions(seat), len(engine.history)


async def test_the_same_click_reaching_two_processes_is_applied_once(two):
    a, b = TableService(two[0]), TableService(two[1])
    table_id = await started_table(a)
    for _ in range(6):
        user, legal, version = await to_act(a, table_id)
        assert len(legal) >= 1
        results = await asyncio.gather(
            a.act(table_id, user, version, legal[0]),
            b.act(table_id, user, version, legal[-1]),
            return_exceptions=True,
        )
        refused = [r for r in results if isinstance(r, Exception)]
        assert len(refused) == 1 and isinstance(refused[0], UserError), results
        assert refused[0].key in ("error.stale", "error.not_your_turn"), refused[0].key
        assert len(await two[0].actions(table_id)) == version + 1
    # Each process's cached engine follows the moves the other stored.
    log = await two[0].actions(table_id)
    for service in (a, b):
        engine = await service.engine(await service.table(table_id))
        assert list(engine.history) == log


async def test_a_cached_engine_catches_up_with_moves_stored_by_the_other_process(two):
    a, b = TableService(two[0]), TableService(two[1])
    table_id = await started_table(a)
    for turn in range(8):
        service = (a, b)[turn % 2]
        user, legal, version = await to_act(service, table_id)
        await service.act(table_id, user, version, legal[0])
    replayed = REGISTRY["othello_torite"].engine.replay(
        2, (await a.table(table_id)).seed, {}, await two[0].actions(table_id)
    )
    for service in (a, b):
        engine = await service.engine(await service.table(table_id))
        assert engine.public_view() == replayed.public_view()


async def test_a_passed_deadline_is_claimed_by_one_process_until_its_claim_runs_out(two):
    a = TableService(two[0])
    ids = [await started_table(a) for _ in range(6)]
    past = time.time() - 5
    for table_id in ids:
        await two[0].update_table(table_id, deadline=past)
    now = time.time()
    first, second = await asyncio.gather(two[0].shared_work.claim_due(now, now + 60), two[1].shared_work.claim_due(now, now + 60))
    assert sorted(first + second) == ids and not set(first) & set(second)
    assert await two[1].shared_work.claim_due(now + 1, now + 61) == []
    assert await two[0].next_due() == pytest.approx(now + 60)
    await two[0].shared_work.release_due(ids[0])
    assert await two[1].shared_work.claim_due(now + 1, now + 61) == [ids[0]]
    # A process that died holding claims: they run out, and another process takes the tables.
    assert await two[1].shared_work.claim_due(now + 70, now + 130) == ids


def ratings_after(tables) -> dict[int, float]:
    """Each player's mu after rating these tables one after the other."""
    current = {10: rating_model.fresh(), 11: rating_model.fresh()}
    for table in tables:
        places = side_places(table, json.loads(table.result))
        users = [table.seats[s].user_id for s in range(2)]
        updated = rating_model.rate([[current[u]] for u in users], places)
        current.update({u: team[0] for u, team in zip(users, updated, strict=True)})
    return {u: r.mu for u, r in current.items()}


async def test_a_finished_table_is_rated_once_and_no_rating_update_is_lost(two):
    a = TableService(two[0])
    ratings = [RatingStore(RatingRows(two[0].db), two[0]), RatingStore(RatingRows(two[1].db), two[1])]
    tables = []
    for _ in range(3):
        table_id = await started_table(a, rated=True)
        for user in (10, 11):
            await SeatOps(a).hand_to_computer(table_id, user)
        await a.play_computers(table_id)
        tables.append(await a.table(table_id))
    assert all(t.status == "finished" for t in tables)
    # The same table finishing in both processes: rated by one of them.
    settled = await asyncio.gather(ratings[0].settle(tables[0]), ratings[1].settle(tables[0]))
    assert sorted(settled) == [False, True]
    # Two tables of the same players settled at once in two processes: each reads the ratings the
    # other wrote, so both count, in one order or the other.
    await asyncio.gather(ratings[0].settle(tables[1]), ratings[1].settle(tables[2]))
    final = {u: (await ratings[0].player(1, "othello_torite", u)).rating.mu for u in (10, 11)}
    orders = [ratings_after([tables[0], tables[1], tables[2]]), ratings_after([tables[0], tables[2], tables[1]])]
    assert any(all(final[u] == pytest.approx(order[u]) for u in final) for order in orders), (final, orders)


async def test_a_tournament_round_opens_once_when_two_processes_finish_it(two):
    worlds = [platform(s) for s in two]
    services = [world.events for world in worlds]
    event = await services[0].create(
        guild_id=1, channel_id=2, organizer_id=3, game="donguri", name="Cup", format="swiss",
        rounds=3, table_size=None, points=None, clock=3600, on_timeout="computer_seat",
        signup_deadline=None, auto_next=True, advance=1, group_size=None, teams=None,
        language="en", seed=7,
    )
    for i in range(6):
        await services[0].entrants.sign_up(event.id, (100 + i, f"p{i}"))
    event = await services[0].start(event.id)
    tables = worlds[0].tables
    for table_id in await services[0].seating.open_tables(event):
        table = await tables.table(table_id)
        for seat in table.seats:
            await worlds[0].seat_ops.hand_to_computer(table_id, seat.user_id)
        await tables.play_computers(table_id)
        await services[0].record(await tables.table(table_id))
    opened = await asyncio.gather(*(s.next_round(event.id) for s in services), return_exceptions=True)
    refused = [r for r in opened if isinstance(r, Exception)]
    assert len(refused) == 1 and isinstance(refused[0], UserError), opened
    rounds = [r.round for r in await services[0].store.round_tables(event.id)]
    assert rounds.count(2) == rounds.count(1) and (await services[1].get(event.id)).round == 2


async def play_first_legal(service: TableService, table_id: int) -> None:
    user, legal, version = await to_act(service, table_id)
    await service.act(table_id, user, version, legal[0])


async def test_two_readers_catching_up_one_engine_play_each_action_once(two):
    """Another process moved on, and two readers here (a click and the delivery worker, say) catch
    this process's engine up at once, each waiting for the log. Here the action they lack ended
    the deal, and the next deal gave its player the same card and the lead: the second reader's
    copy of it was accepted, the engine ran one action ahead of the log, and the next move was
    stored past a gap, in a log no replay accepts."""
    a, b = TableService(two[0]), TableService(two[1])
    # Seed 4, each seat playing its first legal card: the deal's last card is dealt again to the
    # seat that played it, which leads the next deal.
    table_id = await started_table(a, players=3, game="donguri", seed=4)
    while True:
        engine = await a.engine(await a.table(table_id))
        seat = engine.to_act()[0]
        probe = engine.clone()
        probe.apply(seat, engine.legal_actions(seat)[0])
        if probe.deal_number > 1:
            break
        await play_first_legal(a, table_id)
    await b.engine(await b.table(table_id))  # this process's engine: one action short of the deal's end
    await play_first_legal(a, table_id)  # the other process ends the deal
    last = (await two[0].actions(table_id))[-1]
    again = await a.engine(await a.table(table_id))
    assert last[1] in again.legal_actions(last[0]), "the scene: the same card is playable again"

    row = await b.table(table_id)
    engines = await asyncio.gather(b.engine(row), b.engine(row))
    log = await two[1].actions(table_id)
    assert [list(e.history) for e in engines] == [log, log]
    await play_first_legal(b, table_id)
    log = await two[0].actions(table_id)
    REGISTRY["donguri"].engine.replay(3, 4, {}, log)  # every action stored is legal where it stands
