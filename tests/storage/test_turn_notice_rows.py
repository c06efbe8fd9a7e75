"""The stored side of turn notices (migration 021), on SQLite and PostgreSQL: the members' choices
carried over from ``turn_dms``, the waits kept with a table, and the notice time the clock claims."""

from __future__ import annotations

import pytest

from bot.storage import dialect
from bot.storage.store import MIGRATIONS, Store, connect

NOTICES = 21  # the migration that brought turn notices


@pytest.fixture
async def store(database):
    store = await Store.open(database)
    yield store
    await store.close()


async def running_table(store: Store, **fields) -> int:
    return await store.create_table(
        game="donguri", channel_id=5, host_id=7, status="running", size=3, language="en", dirty=0, **fields
    )


async def test_turn_dms_switched_off_become_never_and_the_rest_away(database):
    store = Store(await connect(database))
    try:
        await store.db.schema_version()  # (PostgreSQL keeps it in a table, made here)
        for path in sorted(MIGRATIONS.glob("*.sql")):
            number = int(path.name.split("_")[0])
            if number < NOTICES:
                await store.db.apply_migration(number, dialect.migration(path.read_text(), store.db.dialect))
        await store.db.executemany(
            "INSERT INTO user_settings (user_id, turn_dms) VALUES (?, ?)", [(1, 0), (2, 1)]
        )
        await store.migrate()
        assert await store.notices.modes([1, 2, 3]) == {1: "never", 2: "away"}  # 3 never chose
        await store.notices.set_mode(3, "always")
        await store.notices.set_mode(1, "away")
        assert await store.notices.modes([1, 3]) == {1: "away", 3: "always"}
    finally:
        await store.close()


async def test_waits_are_kept_with_the_table(store):
    table_id = await running_table(store)
    await store.bump(table_id, waits={2: (7, 1000.5, True), 0: (6, 990.25, False)}, turn_seats=[0, 2])
    table = await store.get_table(table_id)
    assert table.waits == {0: (6, 990.25, False), 2: (7, 1000.5, True)}
    await store.update_table(table_id, waits={})
    assert (await store.get_table(table_id)).waits == {}


async def test_the_clock_claims_a_notice_time_and_the_pass_sets_the_next(store):
    table_id = await running_table(store, notify_at=2000.0)
    later = await running_table(store, notify_at=2500.0, deadline=3000.0, remind_at=2800.0)
    await running_table(store, notify_at=1000.0, paused=1)  # paused: its clock waits
    assert await store.next_due() == 2000.0
    assert await store.shared_work.claim_due(1999.0, 2059.0) == []
    assert await store.shared_work.claim_due(2001.0, 2061.0) == [table_id]
    await store.notices_due(table_id, 2001.0)
    table = await store.get_table(table_id)
    assert table.notify_at is None and table.dirty
    await store.shared_work.release_due(table_id)
    assert await store.next_due() == 2500.0
    await store.notices_due(later, 2600.0)  # the notice time has come, the reminder's not yet
    table = await store.get_table(later)
    assert (table.notify_at, table.remind_at, table.deadline) == (None, 2800.0, 3000.0)
    version = table.version
    assert await store.set_notify_at(later, version, 2700.0)
    await store.bump(later)
    assert not await store.set_notify_at(later, version, None), "a move since: the pass it asked for decides"
    assert (await store.get_table(later)).notify_at == 2700.0


async def test_a_notice_row_is_written_before_its_message_and_goes_with_it(store):
    table_id = await running_table(store)
    notices = store.notices
    await notices.sending(table_id, [11, 12], "thread", 5, {11: 3, 12: 4}, 1, 99, "<@11> and <@12>, it is your turn.")
    await notices.sending(table_id, [11], "dm", 50, {11: 3}, 1, 99, "Your turn")
    rows = await notices.of_table(table_id)
    assert [(r.kind, r.user_id, r.message_id, r.turn_no) for r in rows] == [
        ("dm", 11, None, 3), ("thread", 11, None, 3), ("thread", 12, None, 4),
    ]
    await notices.sent(table_id, [11, 12], "thread", 777)
    await notices.retext(table_id, [12], "thread", "<@12>, it is your turn.")
    await notices.drop(table_id, [11], "thread")
    rows = await notices.of_table(table_id)
    assert [(r.kind, r.user_id, r.message_id, r.text) for r in rows] == [
        ("dm", 11, None, "Your turn"), ("thread", 12, 777, "<@12>, it is your turn."),
    ]
    # A newer notice of the same kind replaces the member's row.
    await notices.sending(table_id, [11], "dm", 50, {11: 3}, 2, 120, "Reminder")
    (dm,) = [r for r in await notices.of_table(table_id) if r.kind == "dm"]
    assert (dm.stage, dm.text, dm.sent_after) == (2, "Reminder", 120)


async def test_a_spent_notice_leaves_its_row_for_one_of_its_message_until_deleted(store):
    from bot.storage.notices import SpentRow

    table_id = await running_table(store)
    notices = store.notices
    await notices.sending(table_id, [11, 12], "thread", 5, {11: 3, 12: 3}, 1, 99, "<@11> and <@12>")
    await notices.sent(table_id, [11, 12], "thread", 777)
    await notices.spend(table_id, [11, 12], "thread", SpentRow(777, 5, 11, "thread"))
    await notices.spend(table_id, [11, 12], "thread", SpentRow(777, 5, 11, "thread"))  # again, after a crash
    assert await notices.of_table(table_id) == []
    assert await notices.spent(table_id) == [SpentRow(777, 5, 11, "thread")]
    await notices.sending(table_id, [11], "dm", 50, {11: 4}, 1, 99, "Your turn")
    await notices.sent(table_id, [11], "dm", 0)  # closed DMs: nothing to keep
    await notices.spend(table_id, [11], "dm", None)
    await notices.drop_spent(table_id, 777)
    assert await notices.of_table(table_id) == [] and await notices.spent(table_id) == []


async def test_each_members_times_per_move_are_kept_with_the_table(store):
    table_id = await running_table(store)
    await store.bump(table_id, think={2: [150.0, 148.5], 0: [5.0]})
    assert (await store.get_table(table_id)).think == {0: [5.0], 2: [150.0, 148.5]}


async def test_a_table_finished_before_result_dms_gets_none_and_an_old_offer_is_not_posted(database):
    store = Store(await connect(database))
    try:
        await store.db.schema_version()
        for path in sorted(MIGRATIONS.glob("*.sql")):
            number = int(path.name.split("_")[0])
            if number < 27:  # before the end-of-game DMs
                await store.db.apply_migration(number, dialect.migration(path.read_text(), store.db.dialect))
        playing = await running_table(store)
        done = await running_table(store)
        await store.update_table(done, status="finished")
        for table_id in (done, playing):
            await store.db.executemany(
                "INSERT INTO seats (table_id, position, user_id, name) VALUES (?, ?, ?, ?)",
                [(table_id, 0, 11, "ann"), (table_id, 1, None, "computer:1")],
            )
        await store.db.execute("INSERT INTO rematches (table_id, state, expires_at) VALUES (?, 'open', 5)", (done,))
        await store.migrate()
        assert list(await store.endings.result_dms(done)) == [11] and await store.endings.result_dms(playing) == {}
        assert (await store.endings.result_dms(done))[11].message_id == 0
        assert (await store.rematches.get(done)).offer_message_id == 0
    finally:
        await store.close()
