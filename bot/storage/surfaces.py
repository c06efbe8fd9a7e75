"""The rows behind a table's Discord messages (each seat's hand DM per deal, the record's
messages), each member's DM channel with the bot and their language (their turn notices: ``notices.py``).

``Store.surfaces``: delivery reads and writes these to know what Discord already shows.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Iterator
from typing import Any

from bot.storage import dialect
from bot.storage.database import Database, Row

KEPT = 20_000  # seats whose hand DM rows a process keeps in memory


def remember(kept: OrderedDict[int, Any], key: int, value: Any) -> None:
    kept[key] = value
    kept.move_to_end(key)
    while len(kept) > KEPT:
        kept.popitem(last=False)


class Patched:
    """A row read before, with some of its columns since written (a ``Row``)."""

    def __init__(self, row: Row | None, fields: dict[str, Any]) -> None:
        self.names = list(row.keys()) if row is not None else list(fields)
        before = list(row) if row is not None else [None] * len(self.names)
        self.values = [fields.get(name, value) for name, value in zip(self.names, before, strict=True)]

    def __getitem__(self, key: int | str, /) -> Any:
        return self.values[key if isinstance(key, int) else self.names.index(key)]

    def keys(self) -> Iterable[str]:
        return list(self.names)

    def __iter__(self) -> Iterator[Any]:
        return iter(self.values)

    def __len__(self) -> int:
        return len(self.values)


class Surfaces:
    """A process alone on its database (SQLite) writes every hand DM's row and click token itself:
    it keeps each seat's last read of them (``delivery``) until it writes that seat's again, so the
    pass after a move reads the DM of a player who did not click from memory."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.remembers = not db.shared
        self.writes = 0  # a read that overlapped a write is not kept
        self.kept: OrderedDict[tuple[int, int], dict[int, Row | None]] = OrderedDict()
        #: table id -> its record's last message row, and the ids of all its messages
        self.last_records: OrderedDict[int, Row | None] = OrderedDict()
        self.record_messages: OrderedDict[int, set[int]] = OrderedDict()
        if self.remembers:
            db.rolled_back.append(self.forget)  # a write kept below may have been undone

    def _wrote(self, table_id: int, seat: int | None = None) -> None:
        self.writes += 1
        if seat is not None:
            self.kept.pop((table_id, seat), None)
        else:
            for key in [k for k in self.kept if k[0] == table_id]:
                del self.kept[key]

    def _patch(self, table_id: int, seat: int, fields: dict[str, Any]) -> None:
        self.writes += 1
        deals = self.kept.get((table_id, seat))
        if deals is None:
            return
        for deal, row in deals.items():
            if row is not None:
                deals[deal] = Patched(row, fields)

    def forget(self) -> None:
        """Tables deleted (a server purged): nothing kept stays."""
        self.writes += 1
        self.kept.clear()
        self.last_records.clear()
        self.record_messages.clear()

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
        """A member's last click on a DM: kept beside the seat's hand DM rows read before (the pass
        after the click reads them), so they need no read again."""
        if private:
            self._wrote(table_id, seat)
        else:
            self._patch(table_id, seat, {"token": token, "token_message": message_id, "token_until": until})
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

    async def earlier_delivery(self, table_id: int, seat: int, deal: int) -> Row | None:
        """The seat's hand DM of the deal before ``deal`` (the latest earlier one), if it was sent."""
        return await self.db.fetchrow(
            "SELECT * FROM deliveries WHERE table_id = ? AND seat = ? AND deal < ? AND message_id IS NOT NULL"
            " ORDER BY deal DESC LIMIT 1",
            (table_id, seat, deal),
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
        if table_id in self.last_records:
            return self.last_records[table_id]
        writes = self.writes
        row = await self.db.fetchrow("SELECT * FROM records WHERE table_id = ? ORDER BY part DESC LIMIT 1", (table_id,))
        if self.remembers and writes == self.writes:
            remember(self.last_records, table_id, row)
        return row

    async def record_ids(self, table_id: int) -> set[int]:
        """The record's messages stored so far."""
        if table_id in self.record_messages:
            return set(self.record_messages[table_id])
        writes = self.writes
        rows = await self.db.fetch(
            "SELECT message_id FROM records WHERE table_id = ? AND message_id IS NOT NULL", (table_id,)
        )
        ids = {r["message_id"] for r in rows}
        if self.remembers and writes == self.writes:
            remember(self.record_messages, table_id, set(ids))
        return ids

    async def set_record(
        self, table_id: int, part: int, deal: int, message_id: int | None, lines: str, closed: bool = False
    ) -> None:
        """The record's message ``part``; a process alone on its database keeps it as the last one
        and its id among the record's, so the record's next lines read neither."""
        self.writes += 1
        await self.db.execute(
            dialect.upsert(
                "records", ("table_id", "part", "deal", "message_id", "lines", "closed"), ("table_id", "part")
            ),
            (table_id, part, deal, message_id, lines, int(closed)),
        )
        if not self.remembers:
            return
        last = self.last_records.get(table_id)
        if table_id in self.last_records and (last is None or part >= last["part"]):
            fields = {"table_id": table_id, "part": part, "deal": deal, "message_id": message_id, "lines": lines,
                      "closed": int(closed)}
            self.last_records[table_id] = Patched(last, fields)
        if message_id is not None and table_id in self.record_messages:
            self.record_messages[table_id].add(message_id)

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
