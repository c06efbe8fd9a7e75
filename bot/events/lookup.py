"""An event by its number, or the error a member sees when there is none: every part of the
tournament service starts from it."""

from __future__ import annotations

from collections.abc import Collection

from bot.core.errors import UserError
from bot.storage.events import Tournament, TournamentStore


async def get_tournament(store: TournamentStore, tournament_id: int) -> Tournament:
    tournament = await store.get(tournament_id)
    if tournament is None:
        raise UserError("tournament.error.none")
    return tournament


async def tournament_in(
    store: TournamentStore, tournament_id: int, statuses: Collection[str], error: str
) -> Tournament:
    """The event, when it is in one of ``statuses``; otherwise the member is told ``error`` (a step
    that comes too early or too late changes nothing)."""
    tournament = await get_tournament(store, tournament_id)
    if tournament.status not in statuses:
        raise UserError(error)
    return tournament
