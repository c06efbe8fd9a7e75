"""What processes sharing one database coordinate through it (``Store.shared_work``).

* Passed deadlines and reminders are claimed, so each is handled by one process; a claim left by a
  process that died runs out.
* The process delivering a table is noted (``courier``), with what each of the table's Discord
  surfaces shows (``shown``), so the next process to deliver it edits only what changed.
* Work a dead process left behind is found by how long it has waited.
* Discord's global limit is split by how many REST calls each process wanted (``rest_wants``), and
  each channel's calls are counted for all of them (``channel_calls``).

With SQLite one process owns the file; the claims cost one statement per due table, and the rest
is not used.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.storage.database import Database
from bot.storage.dialect import upsert
from bot.storage.locks import CHANNEL, REST, key_of


class SharedWork:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def claim_due(self, now: float, until: float, limit: int = 100) -> list[int]:
        """Tables whose deadline, reminder or notice time has passed, claimed for this process until ``until``:
        of several processes, each due table goes to one (``SKIP LOCKED``: none waits for another's
        claim). A claim left by a process that died runs out and the table is claimed again."""
        skip = " FOR UPDATE SKIP LOCKED" if self.db.shared else ""
        async with self.db.transaction():  # a write returning rows: see ``sqlite.py``
            rows = await self.db.fetch(
                "UPDATE game_tables SET due_claim = ? WHERE id IN (SELECT id FROM game_tables"
                " WHERE status = 'running' AND paused = 0 AND (deadline <= ? OR remind_at <= ? OR notify_at <= ?)"
                f" AND (due_claim IS NULL OR due_claim <= ?) ORDER BY id LIMIT ?{skip}) RETURNING id",
                (until, now, now, now, now, limit),
            )
        return sorted(r["id"] for r in rows)

    async def release_claims(self) -> None:
        """At start-up, when this process alone uses the database (SQLite): a claim left by the
        process before it died is void, so its deadlines are handled now rather than a minute later."""
        await self.db.execute("UPDATE game_tables SET due_claim = NULL WHERE due_claim IS NOT NULL")

    async def release_due(self, table_id: int) -> None:
        await self.db.execute("UPDATE game_tables SET due_claim = NULL WHERE id = ?", (table_id,))

    async def take_courier(self, table_id: int, me: str) -> bool:
        """Note process ``me`` as the one delivering the table; True when another one (or none) did
        before it."""
        changed = await self.db.execute(
            "UPDATE game_tables SET courier = ? WHERE id = ? AND (courier IS NULL OR courier <> ?)", (me, table_id, me)
        )
        return changed == 1

    async def stalled(self, before: str) -> tuple[list[int], list[int]]:
        """Tables a process may have left unfinished by dying, last changed before ``before``: those
        with a computer to move, and those whose Discord messages may lag."""
        rows = await self.db.fetch(
            "SELECT id, computer_turn, dirty, locked FROM game_tables WHERE updated_at < ?"
            " AND ((status = 'running' AND computer_turn = 1) OR dirty = 1 OR locked = 1"
            " OR (status IN ('finished', 'cancelled') AND settled = 0 AND (rated = 1 OR tournament_id IS NOT NULL)))"
            " ORDER BY id",
            (before,),
        )
        computers = [r["id"] for r in rows if r["computer_turn"]]
        return computers, [r["id"] for r in rows if r["id"] not in computers or r["dirty"] or r["locked"]]

    async def shown(self, table_id: int) -> dict[int, str]:
        """Surface (-1: the table message; a seat: its hand DM) -> what it shows."""
        rows = await self.db.fetch("SELECT surface, shown FROM shown WHERE table_id = ?", (table_id,))
        return {r["surface"]: r["shown"] for r in rows}

    async def set_shown(self, table_id: int, surface: int, key: str | None, me: str | None = None) -> None:
        """Store what a surface shows (None: unknown). ``me``: the process storing it, when it may
        not be the table's courier: the courier then reads the surfaces again before its next pass."""
        async with self.db.transaction():
            if key is None:
                await self.db.execute("DELETE FROM shown WHERE table_id = ? AND surface = ?", (table_id, surface))
            else:
                await self.db.execute(
                    upsert("shown", ("table_id", "surface", "shown"), ("table_id", "surface")),
                    (table_id, surface, key),
                )
            if me is not None:
                await self.db.execute(
                    "UPDATE game_tables SET courier = NULL WHERE id = ? AND courier <> ?", (table_id, me)
                )

    async def paces(self, table_id: int) -> dict[str, float]:
        """Surface ('message', 'record') -> when it was last edited, by whichever process."""
        rows = await self.db.fetch("SELECT surface, at FROM paces WHERE table_id = ?", (table_id,))
        return {r["surface"]: r["at"] for r in rows}

    async def set_pace(self, table_id: int, surface: str, at: float) -> None:
        await self.db.execute(upsert("paces", ("table_id", "surface", "at"), ("table_id", "surface")), (table_id, surface, at))

    async def rest_wants(
        self,
        me: str,
        wanted: float,
        used: float,
        now: float,
        heard: float,
        share: Callable[[float, list[float], list[float]], int],
    ) -> int:
        """This process's part of Discord's global limit, decided one process at a time (a lock):
        ``share(wanted, others' wants, others' holdings)`` from the processes heard from in the last
        ``heard`` seconds; then stored with what it holds, the larger of that part and ``used``
        (calls still in the last second). Rows of processes gone for a minute are dropped."""
        async with self.db.transaction():
            await self.db.xact_lock(REST, 0)
            rows = await self.db.fetch(
                "SELECT wanted, holding FROM rest_wants WHERE process <> ? AND updated_at >= ?", (me, now - heard)
            )
            mine = share(wanted, [r["wanted"] for r in rows], [r["holding"] for r in rows])
            await self.db.execute(
                upsert("rest_wants", ("process", "wanted", "holding", "updated_at"), ("process",)),
                (me, wanted, max(mine, used), now),
            )
            await self.db.execute("DELETE FROM rest_wants WHERE updated_at < ?", (now - 60,))
        return mine

    async def take_channel_call(self, channel_id: int, now: float, span: float, budget: int) -> tuple[int | None, float]:
        """Count one call in a channel for every process, one process at a time (a lock per channel):
        ``(its row's id, 0)``, or ``(None, seconds until the oldest of the last ``span`` seconds'
        ``budget`` calls leaves the window)``. The channel's rows past the window are dropped on the
        way (only its own: two processes deleting each other's rows could deadlock)."""
        async with self.db.transaction():
            await self.db.xact_lock(CHANNEL, key_of(channel_id))
            await self.db.execute("DELETE FROM channel_calls WHERE channel_id = ? AND at <= ?", (channel_id, now - span))
            dates: list[float] = [
                r["at"]
                for r in await self.db.fetch(
                    "SELECT at FROM channel_calls WHERE channel_id = ? ORDER BY at LIMIT ?", (channel_id, budget)
                )
            ]
            if len(dates) >= budget:
                return None, dates[0] + span - now
            call: int = await self.db.fetchval(
                "INSERT INTO channel_calls (channel_id, at) VALUES (?, ?) RETURNING id", (channel_id, now)
            )
            return call, 0.0

    async def channel_call_ended(self, call: int, at: float) -> None:
        """The call's answer came back: Discord counted it no later than this."""
        await self.db.execute("UPDATE channel_calls SET at = ? WHERE id = ?", (at, call))

    async def prune_channel_calls(self, before: float) -> None:
        """Drop the calls of channels nobody has written to since ``before``."""
        await self.db.execute("DELETE FROM channel_calls WHERE at < ?", (before,))
