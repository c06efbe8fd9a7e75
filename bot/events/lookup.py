"""An event by its number, or the error a member sees when there is none: every part of the
tournament service starts from it."""

from __future__ import annotations

from bot.core.errors import UserError
from bot.storage.events import Tournament, TournamentStore


async def get_tournament(store: TournamentStore, tournament_id: int) -> Tournament:
    tournament = await store.get(tournament_id)
    if tournament is None:
        raise UserError("tournament.error.none")
    return tournament
