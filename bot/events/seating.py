"""Seating a tournament round: who sits together (pairing units), in which order, at which
tables, and opening those tables.

The fairness rules it follows are in ``fairness.py`` and ``pairing.py``; the pairing units and
places below are plain functions of the event, used by the whole service.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter, defaultdict
from collections.abc import Sequence
from itertools import combinations, count

from bot.core.games import REGISTRY
from bot.events import fairness as fair
from bot.events import pairing
from bot.events.ranking import Ranking
from bot.events.standings import bye_points
from bot.storage.events import Entrant, Tournament, TournamentStore
from bot.tables.lobby_ops import LobbyOps
from bot.tables.service import TableService
from bot.tables.terms import computer_name


def unit_size(tournament: Tournament) -> tuple[int, int]:
    """Table size and smallest allowed table, counted in pairing units (teams when fixed)."""
    cls = REGISTRY[tournament.game].engine
    teams = cls.teams(tournament.table_size)
    if tournament.teams == "fixed" and teams is not None:
        return len(teams), len(teams)
    if teams is not None:
        return tournament.table_size, tournament.table_size
    # Any size the game allows: one drop must not cost a third of the field a bye.
    return tournament.table_size, min(cls.min_players, tournament.table_size)


def places_at_table(tournament: Tournament) -> int:
    """Places at a full table: teams in a team game, otherwise seats."""
    teams = REGISTRY[tournament.game].engine.teams(tournament.table_size)
    return len(teams) if teams else tournament.table_size


def members_per_unit(tournament: Tournament) -> int:
    return 2 if tournament.teams == "fixed" else 1


def pairing_units(tournament: Tournament) -> dict[int, list[int]]:
    """Who is paired together: teams whose members are all still in, or single players."""
    if tournament.teams != "fixed":
        return {e.user_id: [e.user_id] for e in tournament.active}
    teams: defaultdict[int, list[Entrant]] = defaultdict(list)
    for entrant in tournament.entrants:
        teams[entrant.team or 0].append(entrant)
    return {
        team: [e.user_id for e in members]
        for team, members in sorted(teams.items())
        if all(e.active for e in members)
    }


def seat_names(tournament: Tournament, players: Sequence[int | None]) -> list[tuple[int | None, str]]:
    """(member, stored name) for each seat of a round's table: computer fill-ins are numbered at
    their table, as the lobby numbers the computers it adds ("🤖 Computer 1", "🤖 Computer 2")."""
    computers = count(1)
    return [
        (uid, computer_name(next(computers)) if uid is None else tournament.name_of(uid)) for uid in players
    ]


def first_entrant(tournament: Tournament, members: Sequence[int | None]) -> Entrant:
    """The entry of a unit's first player (computer fill-ins, None, hold no entry)."""
    return tournament.signed_up(next(uid for uid in members if uid is not None))


def sides_of(tournament: Tournament, seats: int) -> list[list[int]]:
    return REGISTRY[tournament.game].engine.teams(seats) or [[s] for s in range(seats)]


def awaiting_confirmation(tournament: Tournament) -> bool:
    """The round is seated and waits for the organizer to confirm it before its tables open."""
    return (
        tournament.status == "running"
        and bool(tournament.confirm_pairings)
        and tournament.round_confirmed < tournament.round
    )


class RoundSeating:
    def __init__(self, store: TournamentStore, tables: TableService, lobby: LobbyOps, ranking: Ranking) -> None:
        self.store = store
        self.tables = tables
        self.lobby = lobby  # a round's tables are created seated, and started, through it
        self.ranking = ranking

    async def order(self, tournament: Tournament) -> list[int]:
        """Pairing units, best standing first (rating breaks ties; round 1 is by rating alone)."""
        return list(await self.unit_points(tournament))

    async def unit_points(self, tournament: Tournament) -> dict[int, float]:
        """Each pairing unit's standings points, best standing first."""
        units = pairing_units(tournament)
        unit_of = {uid: unit for unit, members in units.items() for uid in members}
        ordered: dict[int, float] = {}
        for row in await self.ranking.standings(tournament):
            unit = unit_of.get(row.player)
            if unit is not None and unit not in ordered:
                ordered[unit] = row.points
        return ordered

    async def plan(self, tournament: Tournament, number: int) -> tuple[list[list[int | None]], list[int]]:
        """Seat round ``number``: tables as user ids in seat order, and the players with a bye."""
        units = pairing_units(tournament)
        unit_of = {uid: unit for unit, members in units.items() for uid in members}
        past = await self.store.round_tables(tournament.id)
        met: Counter = Counter()
        partnered: Counter = Counter()
        byes_had: Counter = Counter()
        for row in past:
            if row.number == 0:
                byes_had.update({unit_of[p] for p in row.players if p in unit_of})
                continue
            present = sorted({unit_of[p] for p in row.players if p in unit_of})
            met.update(pairing.pair_key(a, b) for a, b in combinations(present, 2))
            for side in sides_of(tournament, len(row.players)):
                members = [row.players[s] for s in side]
                partnered.update(
                    pairing.pair_key(a, b) for a, b in combinations(members, 2) if a is not None and b is not None
                )
        size, min_size = unit_size(tournament)
        points = await self.unit_points(tournament)
        order = list(points)
        seed = random.Random(f"{tournament.seed}:{number}").randrange(2**31)
        colours = None
        # Pairing units by the seats they fill: computer fill-ins (swiss only) fill theirs with None.
        seats: dict[int, list[int | None]] = {unit: list(members) for unit, members in units.items()}
        # Seating a large event takes a second or more (benchmarks/swiss_pairing.py): off the event loop.
        if tournament.format == "elimination":
            order = [u for u in order if all(tournament.signed_up(p).status == "active" for p in units[u])]
            laid = await asyncio.to_thread(pairing.elimination, order, size, min_size, byes_had)
        elif tournament.format == "round_robin":
            groups: defaultdict[int, list[int]] = defaultdict(list)
            for unit in order:
                groups[first_entrant(tournament, units[unit]).grp or 0].append(unit)
            laid = await asyncio.to_thread(
                pairing.round_robin,
                [groups[g] for g in sorted(groups)],
                size,
                min_size,
                met,
                byes_had,
                number - 1,
                seed,
            )
        else:
            computers = []
            if tournament.fill == "computers":
                computers = fair.computer_units(fair.computer_fill(len(order), size, min_size))
                fair.keep_apart(met, computers)
                for unit in computers:
                    seats[unit] = [None] * members_per_unit(tournament)
                    points[unit] = min(points.values(), default=0.0)
            colours = fair.colour_history(past) if size == 2 and not tournament.teams else None
            laid = await asyncio.to_thread(
                pairing.swiss,
                order + computers,
                size,
                min_size,
                met,
                byes_had,
                seed,
                points,
                fair.pairing_mode(tournament, size),
                fair.place_value(tournament.points, places_at_table(tournament)),
                colours,
            )
        tables = [
            self.seat_order(tournament, number, i, table, seats, partnered, colours)
            for i, table in enumerate(laid.tables)
        ]
        # Computer fill-ins complete the last table exactly, so only players' units sit out.
        byes = [uid for unit in laid.byes for uid in units[unit]]
        return tables, byes

    def seat_order(
        self,
        tournament: Tournament,
        number: int,
        index: int,
        table: list[int],
        units: dict[int, list[int | None]],
        partnered: Counter,
        colours: dict[int, list[int]] | None = None,
    ) -> list[int | None]:
        """Who sits where: a seeded shuffle (the first seat may matter), with partners on their
        team's seats; at two-seat tables the seat is the colour, balanced over the event."""
        rng = random.Random(f"{tournament.seed}:{number}:{index}")
        if colours is not None and len(table) == 2:
            return [
                uid
                for unit in pairing.colour_order(table, colours, rng.randrange(2**31))
                for uid in units[unit]
            ]
        table = list(table)
        rng.shuffle(table)
        if tournament.teams == "fixed":
            seats = sum(len(units[u]) for u in table)
            order: list[int | None] = [None] * seats
            for unit, side in zip(table, sides_of(tournament, seats), strict=True):
                members = list(units[unit])
                rng.shuffle(members)
                for seat, user_id in zip(side, members, strict=True):
                    order[seat] = user_id
            return order
        if tournament.teams == "redraw":
            table = pairing.team_seating(table, partnered)
        return [uid for unit in table for uid in units[unit]]  # computer fill-ins become empty seats

    async def seat_round(self, tournament: Tournament, number: int) -> None:
        """Store round ``number``'s seating and its byes; its clock starts now, or once the organizer
        confirms the seating where they do."""
        tables, byes = await self.plan(tournament, number)
        await self.store.add_round(tournament.id, number, tables, byes)
        if not tournament.confirm_pairings:
            await self.start_clock(tournament)
        points = bye_points(tournament.points, places_at_table(tournament))
        rows = [{"round": number, "user_id": uid, "points": points, "bye": True} for uid in byes]
        await self.store.add_results(tournament.id, rows)

    async def start_clock(self, tournament: Tournament) -> None:
        if tournament.round_hours:
            deadline = self.tables.now() + tournament.round_hours * 3600
            await self.store.update(tournament.id, round_deadline=deadline, round_reminded=0)

    async def open_tables(self, tournament: Tournament) -> list[int]:
        """Open (or finish opening, after a restart) every table of the current round, once its
        seating is confirmed where the organizer confirms seatings."""
        if awaiting_confirmation(tournament):
            return []
        opened = []
        for row in await self.store.round_tables(tournament.id, tournament.round):
            if row.number == 0:
                continue
            table_id = row.table_id
            if table_id is None:
                players = seat_names(tournament, row.players)
                table_id = await self.lobby.create_seated(
                    tournament.game,
                    guild_id=tournament.guild_id,
                    channel_id=tournament.channel_id,
                    host_id=tournament.organizer_id,
                    players=players,
                    options=tournament.options,
                    language=tournament.language,
                    clock=tournament.clock,
                    on_timeout=tournament.on_timeout,
                    tournament_id=tournament.id,
                    level=tournament.computer_level,
                )
                await self.store.set_round_table(tournament.id, row.round, row.number, table_id)
            table = await self.tables.table(table_id)
            if table.status == "lobby":
                seed = random.Random(f"{tournament.seed}:{row.round}:{row.number}:deal").randrange(2**62)
                await self.lobby.start(table_id, None, seed, shuffle=False)
                opened.append(table_id)
            elif table.message_id is None:
                opened.append(table_id)
        return opened
