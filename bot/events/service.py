"""Tournaments without Discord: sign-up, seating each round, recording results, standings.

Every step is stored before it is shown and can be taken again safely: a round's seating is saved
before its tables open, a table's result is recorded once however often it is reported, and a
round is closed only when every one of its tables has a recorded result.

The service creates an event, runs its rounds and records its results; its parts do the rest:
``entrants`` (sign-up, drops, replacements), ``controls`` (the organizer's check-in and look at a
seating), ``seating`` (a round's tables) and ``ranking`` (standings).
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter, defaultdict
from itertools import combinations
from typing import Any

from bot.core.engine import IllegalAction
from bot.core.errors import UserError
from bot.core.games import REGISTRY
from bot.core.options import shown_name
from bot.events import fairness as fair
from bot.events import pairing
from bot.events.controls import OrganizerControls
from bot.events.correction import Corrections
from bot.events.entrants import Entrants
from bot.events.lookup import get_tournament, tournament_in
from bot.events.ranking import Ranking
from bot.events.seating import (
    RoundSeating,
    first_entrant,
    members_per_unit,
    pairing_units,
    places_at_table,
    unit_size,
)
from bot.events.standings import default_points, place_points
from bot.ratings.store import RatingStore, side_places, sides
from bot.storage.events import RoundTable, Tournament, TournamentStore
from bot.storage.locks import TOURNAMENT, KeyedLocks
from bot.storage.store import TableRow
from bot.tables.lobby_ops import LobbyOps, bad_size
from bot.tables.seat_ops import SeatOps
from bot.tables.service import CLOCKS, LEVELS, TIMEOUT_POLICIES, TableService

FORMATS = ("swiss", "round_robin", "elimination")
TEAM_MODES = ("fixed", "redraw")
MAX_ROUNDS = 20
MAX_ROUND_HOURS = 24 * 14


class TournamentService:
    def __init__(
        self,
        store: TournamentStore,
        ratings: RatingStore,
        tables: TableService,
        lobby: LobbyOps,
        seat_ops: SeatOps,
    ) -> None:
        self.store = store
        self.locks = KeyedLocks(store.db, TOURNAMENT)  # rounds open and close once, across processes
        self.ranking = Ranking(store, ratings)
        self.seating = RoundSeating(store, tables, lobby, self.ranking)
        self.controls = OrganizerControls(store, self.locks, self.seating)
        self.entrants = Entrants(store, self.locks, self.ranking, seat_ops)
        self.corrections = Corrections(store, self.locks, tables.store, ratings, self.ranking)

    async def get(self, tournament_id: int) -> Tournament:
        return await get_tournament(self.store, tournament_id)

    # ---- creating -----------------------------------------------------------------------------
    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        organizer_id: int,
        game: str,
        name: str,
        format: str,
        rounds: int | None,
        table_size: int | None,
        points: list[float] | None,
        clock: int,
        on_timeout: str,
        signup_deadline: float | None,
        auto_next: bool,
        advance: int,
        group_size: int | None,
        teams: str | None,
        language: str,
        seed: int,
        options: dict[str, Any] | None = None,
        pairing_mode: str | None = None,
        fill: str = "byes",
        round_hours: int | None = None,
        confirm_pairings: bool = False,
        checkin_minutes: int | None = None,
        computer_level: str = "hard",
        organizer_name: str | None = None,
    ) -> Tournament:
        if game not in REGISTRY:
            raise UserError("error.no_such_table")
        cls = REGISTRY[game].engine
        size = table_size or cls.max_players
        if not cls.min_players <= size <= cls.max_players:
            raise bad_size(cls)
        team_game = cls.teams(size) is not None
        if team_game:
            teams = teams or "fixed"
            if teams not in TEAM_MODES:
                raise UserError("tournament.error.bad_teams")
        else:
            teams = None
        if format not in FORMATS:
            raise UserError("tournament.error.bad_format")
        places = len(cls.teams(size) or range(size))
        if format == "elimination":
            if not 1 <= advance < places:
                raise UserError("tournament.error.bad_advance", max=places - 1, count=places - 1)
            rounds = 0  # until the final table has played
        elif format == "round_robin":
            group_size = group_size or 2 * size
            if group_size < size:
                raise UserError("tournament.error.bad_group", min=size)
            rounds = rounds or 0  # 0: as many as the groups need, fixed at the start
        else:
            rounds = rounds or 3
        if rounds < 0 or rounds > MAX_ROUNDS:
            raise UserError("tournament.error.bad_rounds", max=MAX_ROUNDS)
        points = points if points is not None else default_points(places)
        if not points or any(p < 0 for p in points) or len(points) > places:
            raise UserError("tournament.error.bad_points", places=places)
        try:
            cls(size, 0, options or {})  # the engine checks its own options
        except IllegalAction as exc:
            option = shown_name(cls.declared_options, str(exc.params.get("option", "?")))
            raise UserError("tournament.error.bad_options", option=option) from None
        if clock not in CLOCKS or fill not in fair.FILLS:
            raise UserError("error.bad_setting")
        if pairing_mode is not None and pairing_mode not in pairing.PAIRING_MODES:
            raise UserError("error.bad_setting")
        if round_hours is not None and not 1 <= round_hours <= MAX_ROUND_HOURS:
            raise UserError("error.bad_setting")
        if on_timeout not in TIMEOUT_POLICIES:
            raise UserError("error.bad_setting")
        if computer_level not in LEVELS:
            raise UserError("error.bad_level")
        tournament_id = await self.store.create(
            guild_id=guild_id,
            channel_id=channel_id,
            organizer_id=organizer_id,
            name=name[:80],
            game=game,
            format=format,
            rounds=rounds,
            table_size=size,
            options=options or {},
            points=[float(p) for p in points],
            clock=clock,
            on_timeout=on_timeout,
            signup_deadline=signup_deadline,
            auto_next=int(auto_next),
            advance=advance,
            group_size=group_size,
            teams=teams,
            language=language,
            seed=seed,
            status="signup",
            pairing=pairing_mode,
            fill=fill,
            round_hours=round_hours,
            confirm_pairings=int(confirm_pairings),
            checkin_minutes=checkin_minutes,
            computer_level=computer_level,
            organizer_name=organizer_name,
        )
        return await self.get(tournament_id)

    # ---- rounds -----------------------------------------------------------------------------
    async def start(self, tournament_id: int) -> Tournament:
        """Close sign-up, fix teams and groups, and seat round 1."""
        async with self.locks(tournament_id):
            tournament = await tournament_in(self.store, tournament_id, ("signup",), "tournament.error.already_started")
            if tournament.checkin_open:  # no-shows leave before anything is drawn
                for entrant in tournament.entrants:
                    if not entrant.checked_in:
                        await self.store.delete_entrant(tournament.id, entrant.user_id)
                tournament = await self.get(tournament_id)
            size, min_size = unit_size(tournament)
            players = [e.user_id for e in tournament.active]
            # Ratings break ties as they stand now: later rated games must not reorder this event.
            frozen = await self.ranking.live_ratings(tournament, players)
            for entrant in tournament.active:
                entrant.rating = frozen.get(entrant.user_id, 0.0)
                await self.store.put_entrant(tournament.id, entrant)
            if tournament.teams == "fixed":
                if len(players) % 2:
                    raise UserError("tournament.error.odd_teams")
                for number, pair in enumerate(pairing.draw_teams(players, tournament.seed), start=1):
                    for user_id in pair:
                        entrant = tournament.signed_up(user_id)
                        entrant.team = number
                        await self.store.put_entrant(tournament.id, entrant)
                tournament = await self.get(tournament_id)
            units = pairing_units(tournament)
            needed = min_size * (members_per_unit(tournament))
            if len(units) < min_size:
                raise UserError("tournament.error.too_few", min=needed)
            if tournament.format == "round_robin":
                group_size = tournament.group_size
                if group_size is None:  # create() gives every round robin its group size
                    raise RuntimeError(f"round robin {tournament.id} has no group size")
                order = await self.seating.order(tournament)
                for number, group in enumerate(pairing.round_robin_groups(order, group_size), 1):
                    for unit in group:
                        for user_id in units[unit]:
                            entrant = tournament.signed_up(user_id)
                            entrant.grp = number
                            await self.store.put_entrant(tournament.id, entrant)
                if not tournament.rounds:
                    # The rounds needed do not grow steadily with group size, so ask for each size.
                    lengths = {len(g) for g in pairing.round_robin_groups(order, group_size)}
                    needed = 0
                    for n in lengths:
                        rounds = await asyncio.to_thread(pairing.round_robin_rounds, n, size, min_size)
                        needed = max(needed, rounds)
                    rounds = min(needed, MAX_ROUNDS)
                    await self.store.update(tournament.id, rounds=rounds)
                tournament = await self.get(tournament_id)
            await self.seating.seat_round(tournament, 1)
            return await self.get(tournament_id)

    async def next_round(self, tournament_id: int) -> Tournament:
        """Seat the next round once the current one is complete (the organizer's button or automatic)."""
        async with self.locks(tournament_id):
            tournament = await tournament_in(self.store, tournament_id, ("running",), "tournament.error.not_running")
            if not await self.round_complete(tournament):
                raise UserError("tournament.error.round_open")
            rows = await self.store.round_tables(tournament.id, tournament.round)
            if self.is_last_round(tournament, rows, await self.everyone_met(tournament)):
                raise UserError("tournament.error.over")
            await self.seating.seat_round(tournament, tournament.round + 1)
            return await self.get(tournament_id)

    # ---- results ----------------------------------------------------------------------------
    async def record(self, table: TableRow) -> Tournament | None:
        """Record a finished tournament table's places and points (once); the event, or None."""
        found = await self.store.table_of(table.id)
        if found is None or table.status not in ("finished", "cancelled"):
            return None
        tournament_id, row = found
        tournament = await self.get(tournament_id)
        if table.id in await self.store.recorded_tables(tournament_id):
            return tournament
        result = json.loads(table.result) if table.result else {"ranks": [1] * len(table.seats)}
        places = side_places(table, result)
        points = place_points(tournament.points, places, places_at_table(tournament))
        groups = sides(table)
        scores = result.get("scores") or [None] * len(table.seats)
        rows = []
        for index, side in enumerate(groups):
            others = [table.seats[s].user_id for j, g in enumerate(groups) if j != index for s in g]
            for seat in side:
                user_id = table.seats[seat].user_id
                if user_id is None:
                    continue
                score = scores[seat] if seat < len(scores) else None
                rows.append(
                    {
                        "round": row.round,
                        "user_id": user_id,
                        "table_id": table.id,
                        "place": places[index],
                        "size": len(groups),
                        "points": points[index],
                        "score": score if isinstance(score, (int, float)) else None,
                        "opponents": [o for o in others if o is not None],
                    }
                )
        await self.store.add_results(tournament_id, rows)
        return await self.get(tournament_id)

    async def round_complete(self, tournament: Tournament) -> bool:
        rows = [r for r in await self.store.round_tables(tournament.id, tournament.round) if r.number > 0]
        recorded = await self.store.recorded_tables(tournament.id)
        return bool(rows) and all(r.table_id is not None and r.table_id in recorded for r in rows)

    def is_last_round(self, tournament: Tournament, rows: list, everyone_met: bool = False) -> bool:
        if tournament.format == "elimination":
            return len([r for r in rows if r.number > 0]) == 1 and not any(r.number == 0 for r in rows)
        return tournament.round >= tournament.rounds or everyone_met

    async def everyone_met(self, tournament: Tournament) -> bool:
        """Round robin: every pair still in each group has met (drops can make rounds unneeded)."""
        if tournament.format != "round_robin":
            return False
        units = pairing_units(tournament)
        unit_of = {uid: unit for unit, members in units.items() for uid in members}
        groups: defaultdict[int, list[int]] = defaultdict(list)
        for unit, members in units.items():
            groups[first_entrant(tournament, members).grp or 0].append(unit)
        met: Counter = Counter()
        for row in await self.store.round_tables(tournament.id):
            if row.number:
                present = sorted({unit_of[p] for p in row.players if p in unit_of})
                met.update(pairing.pair_key(a, b) for a, b in combinations(present, 2))
        return fair.round_robin_done(dict(groups), met)

    async def close_round(self, tournament_id: int) -> Tournament:
        """After the round's last table: eliminate (knockout), and end the event after its last round.
        Safe to repeat."""
        async with self.locks(tournament_id):
            tournament = await self.get(tournament_id)
            rows = await self.store.round_tables(tournament.id, tournament.round)
            if tournament.round_deadline is not None:
                await self.store.update(tournament.id, round_deadline=None)
            if tournament.format == "elimination":
                await self._eliminate(tournament, rows)
            if self.is_last_round(tournament, rows, await self.everyone_met(tournament)) and (
                tournament.status == "running"
            ):
                # The final standings are stored: later rated games or edits cannot reorder them.
                players, teams = await self.ranking.standings(tournament), await self.ranking.team_standings(tournament)
                await self.store.update(
                    tournament.id,
                    status="finished",
                    rounds=tournament.round if tournament.format != "elimination" else tournament.rounds,
                    final_standings=fair.freeze(players, teams),
                )
            return await self.get(tournament_id)

    async def _eliminate(self, tournament: Tournament, rows: list[RoundTable]) -> None:
        units = pairing_units(tournament)
        unit_of = {uid: unit for unit, members in units.items() for uid in members}
        results = {
            (r["table_id"], r["user_id"]): r["place"]
            for r in await self.store.results(tournament.id)
            if r["round"] == tournament.round
        }
        through: set[int] = set()
        out: set[int] = set()
        for row in rows:
            if row.number == 0:
                through.update(p for p in row.players if p is not None)  # byes are players
                continue
            places = {
                unit_of[p]: results[(row.table_id, p)]
                for p in row.players
                if p in unit_of and (row.table_id, p) in results
            }
            advancing = set(pairing.advancing(places, tournament.advance))
            for unit in places:
                (through if unit in advancing else out).update(units[unit])
        cls = REGISTRY[tournament.game].engine
        if 1 < len(through) < cls.min_players * members_per_unit(tournament):
            # Too few left for a final table: the best of those just knocked out fill it.
            best = [s.player for s in await self.ranking.standings(tournament) if s.player in out]
            while best and len(through) < cls.min_players * members_per_unit(tournament):
                unit = unit_of[best[0]]
                through.update(units[unit])
                best = [p for p in best if p not in units[unit]]
            out -= through
        for user_id in out:
            entrant = tournament.entrant(user_id)
            if entrant is not None and entrant.status == "active":
                entrant.status = "out"
                await self.store.put_entrant(tournament.id, entrant)

    async def cancel(self, tournament_id: int) -> Tournament:
        async with self.locks(tournament_id):
            await tournament_in(self.store, tournament_id, ("signup", "running"), "tournament.error.over")
            await self.store.update(tournament_id, status="cancelled")
            return await self.get(tournament_id)
