"""Who is in a tournament: signing up (late entries too), dropping out and handing an entry to a new
player, with the tables in play following each change."""

from __future__ import annotations

from bot.core.errors import UserError
from bot.events.lookup import get_tournament, tournament_in
from bot.events.ranking import Ranking
from bot.storage.events import Entrant, Tournament, TournamentStore
from bot.storage.locks import KeyedLocks
from bot.tables.seat_ops import SeatOps

MAX_ENTRANTS = 200


def takes_late_entries(t: Tournament) -> bool:
    """A running Swiss event with a round still to seat: a late entrant plays from the next round,
    without points for the rounds missed. The event message keeps its Sign up button while this holds."""
    return t.status == "running" and t.format == "swiss" and t.round < t.rounds


class Entrants:
    def __init__(self, store: TournamentStore, locks: KeyedLocks, ranking: Ranking, seat_ops: SeatOps) -> None:
        self.store = store
        self.locks = locks  # the service's: one event's changes, one at a time across processes
        self.ranking = ranking  # a late entry's tie-break rating is frozen as it joins
        self.seat_ops = seat_ops  # a computer or the new player takes the seats of one who leaves

    async def sign_up(self, tournament_id: int, user: tuple[int, str], late: bool = False) -> Tournament:
        """Enter the event; ``late`` (the organizer adding someone, or a member pressing Sign up on a
        running event's message) also admits a Swiss event under way, from its next round and without
        points for the rounds missed (``takes_late_entries``; ``/tournament add`` may also add one
        during the last round, who then plays no round)."""
        async with self.locks(tournament_id):
            tournament = await get_tournament(self.store, tournament_id)
            open_late = late and tournament.status == "running" and tournament.format == "swiss"
            if tournament.status != "signup" and not open_late:
                raise UserError("tournament.error.signup_closed")
            if tournament.entrant(user[0]) is not None:
                raise UserError("tournament.error.already_in")
            if len(tournament.entrants) >= MAX_ENTRANTS:
                raise UserError("tournament.error.full", max=MAX_ENTRANTS)
            joined = 1 + max((e.joined for e in tournament.entrants), default=0)
            entrant = Entrant(user[0], user[1], joined, checked_in=int(bool(tournament.checkin_open)))
            if open_late:  # the tie-break rating is frozen when an entry starts playing
                entrant.rating = (await self.ranking.live_ratings(tournament, [user[0]])).get(user[0], 0.0)
            await self.store.put_entrant(tournament_id, entrant)
            return await get_tournament(self.store, tournament_id)

    async def drop(self, tournament_id: int, user_id: int) -> tuple[Tournament, list[int]]:
        """Leave the event. Before it starts the entry is removed; later the player is marked dropped,
        keeps their results, is not seated again, and a computer finishes their open tables.
        Returns the tables that changed."""
        async with self.locks(tournament_id):
            tournament = await get_tournament(self.store, tournament_id)
            entrant = tournament.entrant(user_id)
            if entrant is None or entrant.status == "dropped":
                raise UserError("tournament.error.not_in")
            if tournament.status == "signup":
                await self.store.delete_entrant(tournament_id, user_id)
                return await get_tournament(self.store, tournament_id), []
            if tournament.status != "running":
                raise UserError("tournament.error.over")
            entrant.status = "dropped"
            await self.store.put_entrant(tournament_id, entrant)
            changed = []
            for row in await self.store.round_tables(tournament_id, tournament.round):
                if row.table_id and user_id in row.players:
                    if await self.seat_ops.hand_to_computer(row.table_id, user_id, tournament.computer_level):
                        changed.append(row.table_id)
            return await get_tournament(self.store, tournament_id), changed

    async def replace(
        self, tournament_id: int, old: int, new: tuple[int, str]
    ) -> tuple[Tournament, list[int]]:
        """A new player takes over an entry: its results so far, its team, and its open seats."""
        async with self.locks(tournament_id):
            tournament = await tournament_in(self.store, tournament_id, ("signup", "running"), "tournament.error.over")
            entrant = tournament.entrant(old)
            if entrant is None:
                raise UserError("tournament.error.not_in")
            if tournament.entrant(new[0]) is not None:
                raise UserError("tournament.error.already_in")
            await self.store.rename_entrant(tournament_id, old, new[0], new[1])
            changed = []
            for row in await self.store.round_tables(tournament_id):
                if old in row.players:
                    row.players = [new[0] if p == old else p for p in row.players]
                    await self.store.set_round_players(tournament_id, row.round, row.number, row.players)
                    if row.table_id and await self.seat_ops.hand_over(row.table_id, old, new):
                        changed.append(row.table_id)
            return await get_tournament(self.store, tournament_id), changed
