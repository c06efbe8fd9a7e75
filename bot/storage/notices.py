"""The rows of the live turn notices (``bot.tables.notices``) and each member's choice of them.

A row is written before its message is sent (``message_id`` NULL), so a pass after a crash looks
for the message in the channel instead of sending it twice; the members one thread message
mentions each have a row with its id. A notice whose turn has passed is spent: its row moves to
``spent_notices`` (migration 027) until its message is deleted.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

from bot.storage.database import Database

MODES = ("always", "away", "never")
DEFAULT_MODE = "away"
REMEMBERED = 20_000  # tables, and members, whose notice rows or choice a process keeps in memory


@dataclass(frozen=True)
class NoticeRow:
    user_id: int
    kind: str  # 'dm' | 'thread'
    channel_id: int
    message_id: int | None  # None: being sent; 0: could not be sent
    turn_no: int
    stage: int
    sent_after: int
    text: str


@dataclass(frozen=True)
class SpentRow:
    message_id: int
    channel_id: int
    user_id: int
    kind: str


class NoticeRows:
    """A process alone on its database (SQLite) writes every notice row and choice itself, so it
    keeps in memory which tables have no notice rows and what members chose: a delivery pass, on
    every move, then reads neither (issue 44). With several processes, each read goes to the
    database."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.remembers = not db.shared
        self.writes = 0  # a read that saw none is remembered only if nothing was written meanwhile
        self.empty: OrderedDict[int, None] = OrderedDict()  # tables with no notice rows
        self.chosen: OrderedDict[int, str | None] = OrderedDict()  # member -> choice (None: none)

    def forget(self) -> None:
        self.writes += 1
        self.empty.clear()
        self.chosen.clear()

    @staticmethod
    def _keep(memory: OrderedDict[int, Any], key: int, value: Any) -> None:
        memory[key] = value
        memory.move_to_end(key)
        while len(memory) > REMEMBERED:
            memory.popitem(last=False)

    async def of_table(self, table_id: int) -> list[NoticeRow]:
        if table_id in self.empty:
            return []
        writes = self.writes
        rows = await self.db.fetch(
            "SELECT user_id, kind, channel_id, message_id, turn_no, stage, sent_after, text"
            " FROM turn_notices WHERE table_id = ? ORDER BY kind, user_id",
            (table_id,),
        )
        if not rows and self.remembers and writes == self.writes:
            self._keep(self.empty, table_id, None)
        return [NoticeRow(*r) for r in rows]

    async def sending(
        self, table_id: int, users: Iterable[int], kind: str, channel_id: int, turns: dict[int, int], stage: int,
        sent_after: int, text: str,
    ) -> None:
        """Before the send: the members' rows of this kind, replaced by the message about to go out."""
        users = list(users)
        self.writes += 1
        self.empty.pop(table_id, None)
        async with self.db.transaction():
            await self.drop(table_id, users, kind)
            await self.db.executemany(
                "INSERT INTO turn_notices (table_id, user_id, kind, channel_id, message_id, turn_no, stage,"
                " sent_after, text) VALUES (?, ?, ?, ?, NULL, ?, ?, ?, ?)",
                [(table_id, u, kind, channel_id, turns[u], stage, sent_after, text) for u in users],
            )
        self.writes += 1
        self.empty.pop(table_id, None)

    async def sent(self, table_id: int, users: Collection[int], kind: str, message_id: int) -> None:
        await self._each(
            "UPDATE turn_notices SET message_id = ? WHERE table_id = ? AND kind = ? AND user_id IN", (message_id,),
            table_id, users, kind,
        )

    async def retext(self, table_id: int, users: Collection[int], kind: str, text: str) -> None:
        """The message was edited to ``text`` (a member it mentioned has moved)."""
        await self._each(
            "UPDATE turn_notices SET text = ? WHERE table_id = ? AND kind = ? AND user_id IN", (text,),
            table_id, users, kind,
        )

    async def restage(self, table_id: int, users: Collection[int], kind: str, stage: int, text: str) -> None:
        """The message was edited to a later stage's ``text`` (a reminder too soon to replace it)."""
        await self._each(
            "UPDATE turn_notices SET stage = ?, text = ? WHERE table_id = ? AND kind = ? AND user_id IN",
            (stage, text), table_id, users, kind,
        )

    # ---- spent notices: their turn has passed, their message is still there -----------------------
    async def spend(self, table_id: int, users: Collection[int], kind: str, spent: SpentRow | None) -> None:
        """The members' notices of ``kind`` are done; their message (``spent``, edited to say so)
        stays until ``drop_spent``."""
        async with self.db.transaction():
            await self.drop(table_id, users, kind)
            if spent is not None:
                await self.db.execute(
                    "INSERT INTO spent_notices (table_id, message_id, channel_id, user_id, kind) VALUES (?, ?, ?, ?, ?)"
                    " ON CONFLICT (table_id, message_id) DO NOTHING",
                    (table_id, spent.message_id, spent.channel_id, spent.user_id, spent.kind),
                )

    async def spent(self, table_id: int) -> list[SpentRow]:
        rows = await self.db.fetch(
            "SELECT message_id, channel_id, user_id, kind FROM spent_notices WHERE table_id = ? ORDER BY message_id",
            (table_id,),
        )
        return [SpentRow(*r) for r in rows]

    async def drop_spent(self, table_id: int, message_id: int) -> None:
        await self.db.execute("DELETE FROM spent_notices WHERE table_id = ? AND message_id = ?", (table_id, message_id))

    async def drop(self, table_id: int, users: Collection[int], kind: str) -> None:
        await self._each("DELETE FROM turn_notices WHERE table_id = ? AND kind = ? AND user_id IN", (), table_id, users, kind)

    async def _each(self, sql: str, before: tuple[object, ...], table_id: int, users: Collection[int], kind: str) -> None:
        if not users:
            return
        marks = ", ".join("?" for _ in users)
        await self.db.execute(f"{sql} ({marks})", (*before, table_id, kind, *users))

    # ---- what each member chose (/notifications) ---------------------------------------------------
    async def modes(self, users: Collection[int]) -> dict[int, str]:
        """Member -> their choice; a member who never chose is left out (``DEFAULT_MODE``)."""
        known = {u: self.chosen[u] for u in users if u in self.chosen}
        users = [u for u in users if u not in known]
        if not users:
            return {u: mode for u, mode in known.items() if mode is not None}
        writes = self.writes
        marks = ", ".join("?" for _ in users)
        rows = await self.db.fetch(f"SELECT user_id, notices FROM user_settings WHERE user_id IN ({marks})", tuple(users))
        read = {r["user_id"]: r["notices"] for r in rows}
        if self.remembers and writes == self.writes:
            for user_id in users:
                self._keep(self.chosen, user_id, read.get(user_id))
        return {**{u: mode for u, mode in known.items() if mode is not None}, **read}

    async def set_mode(self, user_id: int, mode: str) -> None:
        if mode not in MODES:
            raise ValueError(f"no such choice of turn notices: {mode!r}")
        self.writes += 1
        self.chosen.pop(user_id, None)  # read again once written
        await self.db.execute(
            "INSERT INTO user_settings (user_id, notices) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET notices = excluded.notices",
            (user_id, mode),
        )
        self.writes += 1
        self.chosen.pop(user_id, None)
