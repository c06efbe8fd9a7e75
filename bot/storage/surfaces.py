"""The rows behind a table's Discord messages (each seat's hand DM per deal, the record's
messages), each member's DM channel with the bot and their language (their turn notices: ``notices.py``).

``Store.surfaces``: delivery reads and writes these to know what Discord already shows.
"""

from __future__ import annotations

from collections import OrderedDict

from bot.storage import dialect
from bot.storage.database import Database, Row

KEPT = 20_000  # seats whose hand DM rows a process keeps in memory


class Surfaces:
    """A process alone on its database (SQLite) writes every hand DM's row and click token itself:
    it keeps each seat's last read of them (``delivery``) until it writes that seat's again, so the
    pass after a move reads the DM of a player who did not click from memory."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.remembers = not db.shared
        self.writes = 0  # a read that overlapped a write is not kept
        self.kept: OrderedDict[tuple[int, int], dict[int, Row | None]] = OrderedDict()

    def _wrote(self, table_id: int, seat: int | None = None) -> None:
        self.writes += 1
        if seat is not None:
            self.kept.pop((table_id, seat), None)
        else:
            for key in [k for k in self.kept if k[0] == table_id]:
                del self.kept[key]

    def forget(self) -> None:
        """Tables deleted (a server purged): nothing kept stays."""
        self.writes += 1
        self.kept.clear()

    async def delivery(self, table_id: int, seat: int, deal: int) -> Row | None:
        """A seat's hand DM of one deal, with the token of the member's last click on a DM
        (``token``, ``token_message``, ``token_until``; NULL when none): one read for both."""
        deals = self.kept.get((table_id, seat))
        if deals is not None and deal in deals:
            return deals[deal]
        writes = self.writes
        row = await self.db.fetchrow(
            "SELECT d.*, k.token, k.message_id AS token_message, k.until AS token_until FROM deliveries d"
            " LEFT JOIN click_tokens k ON k.table_id = d.table_id AND k.seat = d.seat AND k.private = 0"
            " WHERE d.table_id = ? AND d.seat = ? AND d.deal = ?",
            (table_id, seat, deal),
        )
        if self.remembers and writes == self.writes:
            self.kept.setdefault((table_id, seat), {})[deal] = row
            self.kept.move_to_end((table_id, seat))
            while len(self.kept) > KEPT:
                self.kept.popitem(last=False)
        return row

    # ---- click tokens (``bot.tables.tokens``) ------------------------------------------------------
    async def keep_token(
        self, table_id: int, seat: int, private: bool, message_id: int, token: str, until: float, shows: str | None
    ) -> None:
        self._wrote(table_id, seat)
        await self.db.execute(
            dialect.upsert(
                "click_tokens",
                ("table_id", "seat", "private", "message_id", "token", "until", "shows"),
                ("table_id", "seat", "private"),
            ),
            (table_id, seat, int(private), message_id, token, until, shows),
        )

    async def click_token(self, table_id: int, seat: int, private: bool) -> Row | None:
        return await self.db.fetchrow(
            "SELECT * FROM click_tokens WHERE table_id = ? AND seat = ? AND private = ?",
            (table_id, seat, int(private)),
        )

    async def token_shows(self, table_id: int, seat: int, token: str, shows: str) -> None:
        self._wrote(table_id, seat)
        await self.db.execute(
            "UPDATE click_tokens SET shows = ? WHERE table_id = ? AND seat = ? AND private = 1 AND token = ?",
            (shows, table_id, seat, token),
        )

    async def drop_token(self, table_id: int, seat: int, token: str) -> None:
        """Forget a token Discord refused; a later click's token, stored meanwhile, stays."""
        self._wrote(table_id, seat)
        await self.db.execute(
            "DELETE FROM click_tokens WHERE table_id = ? AND seat = ? AND token = ?", (table_id, seat, token)
        )

    async def drop_tokens(self, table_id: int) -> None:
        self._wrote(table_id)
        await self.db.execute("DELETE FROM click_tokens WHERE table_id = ?", (table_id,))

    async def set_delivery(
        self,
        table_id: int,
        seat: int,
        deal: int,
        channel_id: int | None,
        message_id: int | None,
        failed: bool,
    ) -> None:
        self._wrote(table_id, seat)
        await self.db.execute(
            dialect.upsert(
                "deliveries",
                ("table_id", "seat", "deal", "channel_id", "message_id", "failed"),
                ("table_id", "seat", "deal"),
            ),
            (table_id, seat, deal, channel_id, message_id, int(failed)),
        )

    async def dm_ids(self, table_id: int, seat: int) -> set[int]:
        """The hand DMs a seat already has, one per deal."""
        rows = await self.db.fetch(
            "SELECT message_id FROM deliveries WHERE table_id = ? AND seat = ? AND message_id IS NOT NULL",
            (table_id, seat),
        )
        return {r["message_id"] for r in rows}

    async def any_failed_delivery(self, table_id: int, seat: int) -> bool:
        row = await self.db.fetchrow(
            "SELECT 1 FROM deliveries WHERE table_id = ? AND seat = ? AND failed = 1", (table_id, seat)
        )
        return row is not None

    async def last_record(self, table_id: int) -> Row | None:
        return await self.db.fetchrow("SELECT * FROM records WHERE table_id = ? ORDER BY part DESC LIMIT 1", (table_id,))

    async def record_ids(self, table_id: int) -> set[int]:
        """The record's messages stored so far."""
        rows = await self.db.fetch(
            "SELECT message_id FROM records WHERE table_id = ? AND message_id IS NOT NULL", (table_id,)
        )
        return {r["message_id"] for r in rows}

    async def set_record(
        self, table_id: int, part: int, deal: int, message_id: int | None, lines: str, closed: bool = False
    ) -> None:
        await self.db.execute(
            dialect.upsert(
                "records", ("table_id", "part", "deal", "message_id", "lines", "closed"), ("table_id", "part")
            ),
            (table_id, part, deal, message_id, lines, int(closed)),
        )

    async def dm_channel(self, user_id: int) -> int | None:
        channel: int | None = await self.db.fetchval("SELECT channel_id FROM dm_channels WHERE user_id = ?", (user_id,))
        return channel

    async def set_dm_channel(self, user_id: int, channel_id: int) -> None:
        await self.db.execute(dialect.upsert("dm_channels", ("user_id", "channel_id"), ("user_id",)), (user_id, channel_id))

    async def forget_dm_channel(self, user_id: int) -> None:
        await self.db.execute("DELETE FROM dm_channels WHERE user_id = ?", (user_id,))

    async def clear_deliveries(self, table_id: int, seat: int) -> None:
        self._wrote(table_id, seat)
        await self.db.execute("DELETE FROM deliveries WHERE table_id = ? AND seat = ?", (table_id, seat))

    async def member_language(self, user_id: int) -> str | None:
        language: str | None = await self.db.fetchval("SELECT language FROM user_locales WHERE user_id = ?", (user_id,))
        return language

    async def set_member_language(self, user_id: int, language: str) -> None:
        """Store a member's language; a value that did not change writes nothing."""
        await self.db.execute(
            "INSERT INTO user_locales (user_id, language) VALUES (?, ?) ON CONFLICT (user_id)"
            " DO UPDATE SET language = excluded.language WHERE user_locales.language <> excluded.language",
            (user_id, language),
        )
