"""Migration 033, on SQLite and PostgreSQL: lobbies opened before lobbies closed by themselves
(migration 031) get a closing time, a day after their last change (or when their invitations
lapse, if later); tables in play, an event's tables and lobbies that have one already keep theirs."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.storage import dialect
from bot.storage.store import MIGRATIONS, Store, connect

OLDER_LOBBIES = 33
DAY = 86400


def stamp(epoch: float) -> str:
    """``updated_at`` as the bot writes it (``rows.now``)."""
    return datetime.fromtimestamp(epoch, UTC).isoformat(timespec="seconds")


async def test_open_lobbies_close_a_day_after_their_last_change(database):
    store = Store(await connect(database))
    try:
        await store.db.schema_version()
        for path in sorted(MIGRATIONS.glob("*.sql")):
            number = int(path.name.split("_")[0])
            if number < OLDER_LOBBIES:
                await store.db.apply_migration(number, dialect.migration(path.read_text(), store.db.dialect))
        changed = 1_700_000_000.0

        async def table(status: str, **fields) -> int:
            return await store.create_table(
                game="donguri", guild_id=1, channel_id=5, host_id=7, status=status, size=3, language="en", **fields
            )

        plain = await table("lobby")
        waiting = await table("lobby", invites_lapse=changed + 2 * DAY)  # invitations lapse later than a day
        lapsing = await table("lobby", invites_lapse=changed + 3600)
        timed = await table("lobby", lobby_closes=changed + 5)  # opened after 031: kept
        playing = await table("running")
        event = await table("lobby", tournament_id=3)  # seated by its pairing, started at once
        await store.db.execute("UPDATE game_tables SET updated_at = ?", (stamp(changed),))
        await store.migrate()
        closes = {r["id"]: r["lobby_closes"] for r in await store.db.fetch("SELECT id, lobby_closes FROM game_tables")}
        assert closes == {
            plain: changed + DAY, waiting: changed + 2 * DAY, lapsing: changed + DAY, timed: changed + 5,
            playing: None, event: None,
        }
        assert await store.lobbies.next_close() == changed + 5
        assert await store.lobbies.closing(changed + DAY) == [plain, lapsing, timed]
    finally:
        await store.close()
