"""What an organizer controls around a round: a check-in window before the start (before a sign-up
deadline, or opened by the organizer's start when there is none), and a look at
each round's seating (swap two players, seat it again, confirm) before its tables open.

The look shows what the organizer needs to judge a seating: each player's points before the
round, the seat each gets at a table of two against the one they were due, who would share a
table again, and the swaps made so far (the event's log keeps them)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from itertools import combinations

from bot.core.errors import UserError
from bot.events import fairness as fair
from bot.events.colours import colour_need
from bot.events.lookup import get_tournament
from bot.events.seating import RoundSeating, awaiting_confirmation
from bot.storage.events import LogEntry, RoundTable, Tournament, TournamentStore
from bot.storage.locks import KeyedLocks


@dataclass
class Repeat:
    """Two players who would share a table again, and the rounds they shared one in."""

    a: int
    b: int
    rounds: list[int]


@dataclass
class Pairings:
    """A round's seating as the organizer reviews it."""

    tournament: Tournament
    tables: list[RoundTable]  # number 0 holds the byes
    points: dict[int, float]  # before this round
    due: dict[int, int] = field(default_factory=dict)  # tables of two: the seat a player must or should have
    repeats: dict[int, list[Repeat]] = field(default_factory=dict)  # by table number
    swaps: list[LogEntry] = field(default_factory=list)


def review(
    t: Tournament, rows: list[RoundTable], results: list[dict], log: list[LogEntry]
) -> Pairings:
    """The current round's seating, from every round's tables (``rows``), results and log."""
    points: defaultdict[int, float] = defaultdict(float)
    for result in results:
        if result["round"] < t.round:
            points[result["user_id"]] += result["points"]
    past = [r for r in rows if r.round < t.round]
    shared: defaultdict[frozenset[int], list[int]] = defaultdict(list)
    team = {e.user_id: e.team for e in t.entrants} if t.teams == "fixed" else {}
    for row in past:
        if row.number:
            for a, b in combinations([p for p in row.players if p is not None], 2):
                if team.get(a) is None or team.get(a) != team.get(b):  # partners always share one
                    shared[frozenset((a, b))].append(row.round)
    current = [r for r in rows if r.round == t.round]
    seen = {p for r in current for p in r.players if p is not None}
    look = Pairings(t, current, {p: points[p] for p in seen})
    if t.table_size == 2 and not t.teams:
        for player, seats in fair.colour_history(past).items():
            strength, seat = colour_need(seats)
            if strength >= 2:
                look.due[player] = seat
    for row in current:
        if not row.number:
            continue
        present = [p for p in row.players if p is not None]
        again = [Repeat(a, b, shared[frozenset((a, b))]) for a, b in combinations(present, 2)]
        look.repeats[row.number] = [r for r in again if r.rounds]
    look.swaps = [e for e in log if e.kind == "swap" and e.round == t.round]
    return look


class OrganizerControls:
    def __init__(self, store: TournamentStore, locks: KeyedLocks, seating: RoundSeating) -> None:
        self.store = store
        self.locks = locks  # the service's: one event's changes, one at a time across processes
        self.seating = seating

    async def open_checkin(self, tournament_id: int) -> Tournament:
        await self.store.update(tournament_id, checkin_open=1)
        return await get_tournament(self.store, tournament_id)

    async def call_checkin(self, tournament_id: int, deadline: float) -> Tournament | None:
        """The organizer starts an event that has check-in but no sign-up deadline: check-in opens
        now and the event starts at ``deadline`` with those who checked in. None when it is not
        such an event (already started, no check-in, a deadline of its own, or check-in open)."""
        async with self.locks(tournament_id):
            t = await get_tournament(self.store, tournament_id)
            if t.status != "signup" or not t.checkin_minutes or t.checkin_open or t.signup_deadline is not None:
                return None
            await self.store.update(tournament_id, signup_deadline=deadline, checkin_open=1)
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

    async def pairings(self, tournament_id: int) -> Pairings:
        """The round's seating while it waits for the organizer's confirmation."""
        tournament = await self._unconfirmed(tournament_id)
        rows = await self.store.round_tables(tournament.id)
        results = await self.store.results(tournament.id)
        return review(tournament, rows, results, await self.store.log(tournament.id))

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
