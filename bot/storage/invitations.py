"""Invitations to invite-only lobbies (migration 030): who refuses challenges, and the lobbies whose
invitations are due to lapse. The invitations themselves are the table row's ``guests``."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from bot.storage.database import Database

PENDING, ACCEPTED, DECLINED, LAPSED = "pending", "accepted", "declined", "lapsed"


@dataclass
class Guest:
    """A member invited to a lobby, and how they answered."""

    user_id: int
    name: str
    state: str = PENDING


class InvitationRows:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def refusing(self, users: Collection[int]) -> set[int]:
        """Those of ``users`` who refuse challenges."""
        if not users:
            return set()
        marks = ", ".join("?" for _ in users)
        rows = await self.db.fetch(
            f"SELECT user_id FROM user_settings WHERE challenges = 0 AND user_id IN ({marks})", tuple(users)
        )
        return {r["user_id"] for r in rows}

    async def set_challenges(self, user_id: int, accept: bool) -> None:
        await self.db.execute(
            "INSERT INTO user_settings (user_id, challenges) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET challenges = excluded.challenges",
            (user_id, int(accept)),
        )

    async def next_lapse(self) -> float | None:
        """When the next lobby's unanswered invitations lapse."""
        due: float | None = await self.db.fetchval(
            "SELECT MIN(invites_lapse) FROM game_tables WHERE status = 'lobby' AND invites_lapse IS NOT NULL"
        )
        return due

    async def lapsing(self, now: float) -> list[int]:
        """Lobbies whose invitations are due to lapse by ``now``."""
        rows = await self.db.fetch(
            "SELECT id FROM game_tables WHERE status = 'lobby' AND invites_lapse IS NOT NULL AND invites_lapse <= ?"
            " ORDER BY id",
            (now,),
        )
        return [r["id"] for r in rows]
