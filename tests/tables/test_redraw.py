"""A table message drawn from a version the table had passed by the time the drawing reached
Discord is drawn again by the next pass, whatever the fingerprints say; the request is cleared
only by the pass that met it, not by one that began before it was made."""

from __future__ import annotations

from bot.storage.store import Store


async def test_a_drawing_of_a_passed_version_asks_for_a_redraw_until_one_is_done(database):
    store = await Store.open(database)
    try:
        table_id = await store.create_table(
            game="donguri", guild_id=1, channel_id=2, host_id=3, status="lobby", size=3, options={}, language="en"
        )
        await store.bump(table_id)
        version = (await store.get_table(table_id)).version
        await store.clear_dirty(table_id, version)

        assert not await store.redraw_if_moved(table_id, version), "drawn from the latest version"
        row = await store.get_table(table_id)
        assert (row.redraw, row.dirty) == (0, False)

        await store.bump(table_id)  # another change, answered meanwhile
        await store.clear_dirty(table_id, version + 1)
        assert await store.redraw_if_moved(table_id, version), "the older drawing may cover the newer"
        row = await store.get_table(table_id)
        assert (row.redraw, row.dirty) == (1, True), "the next pass draws it again"

        await store.redraw_if_moved(table_id, version)  # asked again while that pass runs
        await store.redrawn(table_id, 1)
        assert (await store.get_table(table_id)).redraw == 2, "a pass clears only what it met"
        await store.redrawn(table_id, 2)
        assert (await store.get_table(table_id)).redraw == 0
    finally:
        await store.close()
