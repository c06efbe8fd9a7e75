"""The rows of the live turn notices (``bot.tables.notices``) and each member's choice of them.

A row is written before its message is sent (``message_id`` NULL), so a pass after a crash looks
for the message in the channel instead of sending it twice; the members one thread message
mentions each have a row with its id.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass

from bot.storage.database import Database

MODES = ("always", "away", "never")
DEFAULT_MODE = "away"


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


class NoticeRows:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def of_table(self, table_id: int) -> list[NoticeRow]:
        rows = await self.db.fetch(
            "SELECT user_id, kind, channel_id, message_id, turn_no, stage, sent_after, text"
            " FROM turn_notices WHERE table_id = ? ORDER BY kind, user_id",
            (table_id,),
        )
        return [NoticeRow(*r) for r in rows]

    async def sending(
        self, table_id: int, users: Iterable[int], kind: str, channel_id: int, turns: dict[int, int], stage: int,
        sent_after: int, text: str,
    ) -> None:
        """Before the send: the members' rows of this kind, replaced by the message about to go out."""
        users = list(users)
        async with self.db.transaction():
            await self.drop(table_id, users, kind)
            await self.db.executemany(
                "INSERT INTO turn_notices (table_id, user_id, kind, channel_id, message_id, turn_no, stage,"
                " sent_after, text) VALUES (?, ?, ?, ?, NULL, ?, ?, ?, ?)",
                [(table_id, u, kind, channel_id, turns[u], stage, sent_after, text) for u in users],
            )

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
        if not users:
            return {}
        marks = ", ".join("?" for _ in users)
        rows = await self.db.fetch(f"SELECT user_id, notices FROM user_settings WHERE user_id IN ({marks})", tuple(users))
        return {r["user_id"]: r["notices"] for r in rows}

    async def set_mode(self, user_id: int, mode: str) -> None:
        if mode not in MODES:
            raise ValueError(f"no such choice of turn notices: {mode!r}")
        await self.db.execute(
            "INSERT INTO user_settings (user_id, notices) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET notices = excluded.notices",
            (user_id, mode),
        )
