"""What an organizer controls around a round: a check-in window before the start, and a look at
each round's seating (swap two players, seat it again, confirm) before its tables open."""

from __future__ import annotations

from bot.core.errors import UserError
from bot.events.lookup import get_tournament
from bot.events.seating import RoundSeating, awaiting_confirmation
from bot.storage.events import Tournament, TournamentStore
from bot.storage.locks import KeyedLocks


class OrganizerControls:
    def __init__(self, store: TournamentStore, locks: KeyedLocks, seating: RoundSeating) -> None:
        self.store = store
        self.locks = locks  # the service's: one event's changes, one at a time across processes
        self.seating = seating

    async def open_checkin(self, tournament_id: int) -> Tournament:
        await self.store.update(tournament_id, checkin_open=1)
        return await get_tournament(self.store, tournament_id)

    async def check_in(self, tournament_id: int, user_id: int) -> Tournament:
        """A signed-up player confirms they will play; at the start, those who did not are removed."""
        async with self.locks(tournament_id):
            tournament = await get_tournament(self.store, tournament_id)
            entrant = tournament.entrant(user_id)
            if entrant is None:
                raise UserError("tournament.error.not_in")
            if tournament.status != "signup" or not tournament.checkin_open:
                raise UserError("tournament.error.checkin_closed")
            entrant.checked_in = 1
            await self.store.put_entrant(tournament_id, entrant)
            return await get_tournament(self.store, tournament_id)

    async def _unconfirmed(self, tournament_id: int) -> Tournament:
        tournament = await get_tournament(self.store, tournament_id)
        if not awaiting_confirmation(tournament):
            raise UserError("tournament.error.already_confirmed")
        return tournament

    async def confirm(self, tournament_id: int) -> Tournament:
        """The organizer accepts the round's seating: its tables may open."""
        async with self.locks(tournament_id):
            tournament = await self._unconfirmed(tournament_id)
            await self.store.update(tournament.id, round_confirmed=tournament.round)
            await self.seating.start_clock(tournament)
            return await get_tournament(self.store, tournament_id)

    async def repair(self, tournament_id: int) -> Tournament:
        """Seat the round again from the current entrants and standings (after adds or drops)."""
        async with self.locks(tournament_id):
            tournament = await self._unconfirmed(tournament_id)
            await self.store.delete_round(tournament.id, tournament.round)
            await self.seating.seat_round(tournament, tournament.round)
            return await get_tournament(self.store, tournament_id)

    async def swap(self, tournament_id: int, first: int, second: int, actor_id: int | None = None) -> Tournament:
        """Two players trade places in the round's seating (a seat, or a bye); the event's log
        records who swapped whom."""
        async with self.locks(tournament_id):
            tournament = await self._unconfirmed(tournament_id)
            rows = await self.store.round_tables(tournament.id, tournament.round)
            found = {p: row for row in rows for p in row.players if p in (first, second)}
            if first == second or len(found) != 2:
                raise UserError("tournament.error.not_in")
            a, b = found[first], found[second]
            if a is b:
                raise UserError("tournament.error.same_table")
            for row, old, new in ((a, first, second), (b, second, first)):
                row.players = [new if p == old else p for p in row.players]
            await self.store.swap_players(tournament.id, [a, b], first, second, actor_id)
            return await get_tournament(self.store, tournament_id)
