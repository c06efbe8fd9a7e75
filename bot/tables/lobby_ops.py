"""The lobby of a table: opening it, seats taken and left, computers added, settings, cancelling,
and the start.

``TableService`` owns the locks, the engine cache and the commit; these change the lobby's rows,
each under the table's lock, and the start commits the game's first version through it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from bot.core.engine import Engine
from bot.core.errors import UserError
from bot.core.games import REGISTRY
from bot.core.i18n import LANGUAGES
from bot.storage.invitations import ACCEPTED, DECLINED, LAPSED, PENDING, Guest
from bot.storage.store import Seat, TableRow
from bot.tables.service import Outcome, TableService, require_host
from bot.tables.terms import CLOCKS, IDLE, LEVELS, LFG_AFTER, LOBBY_IDLE, TIMEOUT_POLICIES, computer_name

#: Two due times this close are one: a lobby closing then does not first say its invitations lapsed.
SAME_TIME = 60.0


def bad_size(cls: type[Engine]) -> UserError:
    """A table size the game does not take: "3 to 5 players", or "exactly 2" for a fixed size."""
    if cls.min_players == cls.max_players:
        return UserError("error.fixed_size", count=cls.min_players)
    return UserError("error.bad_size", min=cls.min_players, max=cls.max_players)


def answered(table: TableRow, user_id: int, state: str) -> list[Guest]:
    """The table's invitations with this member's answer."""
    return [Guest(g.user_id, g.name, state) if g.user_id == user_id else g for g in table.guests]


def closing_time(now: float, invites_lapse: float | None, joined: bool = False) -> float:
    """When a lobby closes unless someone joins it: a day after ``now`` (its opening, or a join).
    A lobby waiting for answers stays open until its invitations lapse; once a member has joined,
    a day past that, so that its host, told, can still start it."""
    closes = now + LOBBY_IDLE
    if invites_lapse is None:
        return closes
    later = invites_lapse + LOBBY_IDLE if joined else invites_lapse
    return later if later >= closes - SAME_TIME else closes


def invited(table: TableRow, user_id: int) -> list[Guest] | None:
    """Whether the member may join an invite-only lobby: its host and its guests may, unless the
    guest's invitation lapsed. The invitations as a join leaves them (None: unchanged)."""
    if not table.guests or user_id == table.host_id:
        return None
    guest = table.guest(user_id)
    if guest is None:
        raise UserError("error.invite_only")
    if guest.state == LAPSED:
        raise UserError("error.invite_lapsed")
    return None if guest.state == ACCEPTED else answered(table, user_id, ACCEPTED)


class LobbyOps:
    def __init__(self, tables: TableService) -> None:
        self.tables = tables
        self.store = tables.store  # the service's: its transactions run inside the table's lock

    async def open(
        self,
        game: str,
        *,
        guild_id: int | None,
        channel_id: int,
        host: tuple[int, str],
        size: int,
        options: dict[str, Any],
        language: str,
        rated: bool = False,
        clock: int | None = None,
        on_timeout: str = "computer_turn",
        level: str = "normal",
        guests: Sequence[Guest] = (),
        invites_lapse: float | None = None,
    ) -> TableRow:
        """A table in the lobby with its host seated. ``clock`` and ``on_timeout`` are what the lobby
        starts with (the host may change them); a computer playing for a player who did not choose
        one plays at ``level``. With ``guests`` only they (and the host) may join, until
        ``invites_lapse``."""
        cls = REGISTRY[game].engine
        if not cls.min_players <= size <= cls.max_players:
            raise bad_size(cls)
        if len(guests) >= size:
            raise UserError("error.invite_too_many", count=size - 1)
        lapse = invites_lapse if guests else None
        now = self.tables.now()
        table_id = await self.store.create_table(
            game=game,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host[0],
            status="lobby",
            size=size,
            options=options,
            language=language,
            rated=int(rated),
            clock=clock,
            on_timeout=on_timeout,
            computer_level=level,
            guests=list(guests),
            invites_lapse=lapse,
            lobby_closes=closing_time(now, lapse),
            lfg_at=None if guests else now + LFG_AFTER,  # an invite-only lobby calls nobody
            posts=int(bool(guests)), dirty=int(bool(guests)),  # its pass sends the invitation DMs
        )
        await self.store.set_seats(table_id, [Seat(0, host[0], host[1], level=level)])
        return await self.tables.table(table_id)

    async def create_seated(
        self,
        game: str,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        players: Sequence[tuple[int | None, str]],
        options: dict[str, Any],
        language: str,
        clock: int | None,
        on_timeout: str,
        tournament_id: int | None = None,
        level: str = "normal",
    ) -> int:
        """A table with every seat already taken, in the given seat order, ready for ``start(...,
        shuffle=False)``: for events, seated by their pairing rather than by Join buttons. Every seat
        gets the event's computer ``level``: empty seats play at it, and so does a computer that
        moves for a player out of time or takes their seat."""
        table_id = await self.store.create_table(
            game=game,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            status="lobby",
            size=len(players),
            options=options,
            language=language,
            clock=clock,
            on_timeout=on_timeout,
            rated=1,
            tournament_id=tournament_id,
            computer_level=level,
        )
        await self.store.set_seats(
            table_id, [Seat(i, uid, name, level=level) for i, (uid, name) in enumerate(players)]
        )
        return table_id

    async def attach(self, table_id: int, **ids: int | str | None) -> None:
        """Where the table was placed: its message, thread or channel ids, and how speech is kept."""
        await self.store.update_table(table_id, **ids)

    async def _lobby(self, table_id: int) -> TableRow:
        table = await self.tables.table(table_id)
        if table.status != "lobby":
            raise UserError("error.not_in_lobby")
        return table

    async def join(self, table_id: int, user: tuple[int, str]) -> TableRow:
        async with self.tables.locked(table_id):
            table = await self._lobby(table_id)
            if table.seat_of(user[0]) is not None:
                raise UserError("error.already_seated")
            guests = invited(table, user[0])
            if len(table.seats) >= table.size:
                raise UserError("error.table_full")
            seats = [*table.seats, Seat(0, user[0], user[1], level=table.computer_level)]
            pending = any(g.state == PENDING for g in table.guests)
            closes = closing_time(self.tables.now(), table.invites_lapse if pending else None, joined=True)
            await self._reseat(table, seats, guests=guests, lobby_closes=closes)
            return await self.tables.table(table_id)

    async def decline(self, table_id: int, user_id: int) -> TableRow:
        """An invited member declines: the lobby shows it; the seat stays free for another guest."""
        async with self.tables.locked(table_id):
            table = await self._lobby(table_id)
            guest = table.guest(user_id)
            if guest is None:
                raise UserError("error.not_invited")
            if guest.state == LAPSED:
                raise UserError("error.invite_lapsed")
            if guest.state != PENDING:
                raise UserError("error.invite_answered")
            await self.store.bump(table_id, guests=answered(table, user_id, DECLINED))
            return await self.tables.table(table_id)

    async def lapse(self, table_id: int, now: float) -> list[Guest] | None:
        """The lobby's unanswered invitations lapse, if their time has come and nobody (another
        process) did it first: those who had not answered, else None."""
        async with self.tables.locked(table_id):
            table = await self.tables.table(table_id)
            if table.status != "lobby" or table.invites_lapse is None or table.invites_lapse > now:
                return None
            late = [g for g in table.guests if g.state == PENDING]
            guests = [Guest(g.user_id, g.name, LAPSED if g.state == PENDING else g.state) for g in table.guests]
            await self.store.bump(table_id, guests=guests, invites_lapse=None, posts=1)  # its pass tells the host
            return late

    async def close_idle(self, table_id: int, now: float) -> bool:
        """A lobby nobody joined closes, if its time has come and nobody (another process) closed
        it first; whether this did."""
        async with self.tables.locked(table_id):
            table = await self.tables.table(table_id)
            if table.status != "lobby" or table.lobby_closes is None or table.lobby_closes > now:
                return False
            await self.store.bump(table_id, status="cancelled", closed_why=IDLE, computer_turn=0, posts=1)  # its line
            self.tables.forget(table_id)
            return True

    async def leave(self, table_id: int, user_id: int) -> TableRow:
        async with self.tables.locked(table_id):
            table = await self._lobby(table_id)
            if table.seat_of(user_id) is None:
                raise UserError("error.not_seated")
            if user_id == table.host_id:
                raise UserError("error.host_cannot_leave")
            await self._reseat(table, [s for s in table.seats if s.user_id != user_id])
            return await self.tables.table(table_id)

    async def add_computer(self, table_id: int, user_id: int, level: str = "normal") -> TableRow:
        if level not in LEVELS:
            raise UserError("error.bad_level")
        async with self.tables.locked(table_id):
            table = await self._lobby(table_id)
            require_host(table, user_id)
            if len(table.seats) >= table.size:
                raise UserError("error.table_full")
            number = 1 + sum(s.is_computer for s in table.seats)
            await self._reseat(table, [*table.seats, Seat(0, None, computer_name(number), level=level)])
            return await self.tables.table(table_id)

    async def remove(self, table_id: int, user_id: int, position: int) -> TableRow:
        async with self.tables.locked(table_id):
            table = await self._lobby(table_id)
            require_host(table, user_id)
            target = next((s for s in table.seats if s.position == position), None)
            if target is None:
                raise UserError("error.no_such_seat")
            if target.user_id == table.host_id:
                raise UserError("error.host_cannot_leave")
            await self._reseat(table, [s for s in table.seats if s.position != position])
            return await self.tables.table(table_id)

    async def cancel(self, table_id: int, user_id: int) -> TableRow:
        async with self.tables.locked(table_id):
            table = await self.tables.table(table_id)
            require_host(table, user_id, open_in=("lobby", "running"))
            await self.store.bump(table_id, status="cancelled", computer_turn=0)
            self.tables.forget(table_id)
            return await self.tables.table(table_id)

    async def _reseat(self, table: TableRow, seats: list[Seat], **fields: Any) -> None:
        async with self.store.transaction():
            await self.store.set_seats(
                table.id, [Seat(i, s.user_id, s.name, level=s.level) for i, s in enumerate(seats)]
            )
            await self.store.bump(table.id, **{k: v for k, v in fields.items() if v is not None})

    def ready_to_start(self, table: TableRow) -> bool:
        return table.status == "lobby" and len(table.seats) >= table.size

    async def start(self, table_id: int, user_id: int | None, seed: int, shuffle: bool = True) -> Outcome:
        """Start the table (``user_id`` None: started because it filled up, or by an event)."""
        async with self.tables.locked(table_id):
            table = await self._lobby(table_id)
            if user_id is not None:
                require_host(table, user_id)
            cls = REGISTRY[table.game].engine
            if len(table.seats) < cls.min_players:
                if cls.min_players >= table.size:
                    raise UserError("error.players_needed", count=table.size)
                raise UserError("error.too_few_players", min=cls.min_players)
            seats = list(table.seats)
            if shuffle:
                random.Random(seed).shuffle(seats)
            seats = [Seat(i, s.user_id, s.name, s.away, s.timeouts, s.level) for i, s in enumerate(seats)]
            table.seats, table.seed, table.status = seats, seed, "running"
            engine = cls(len(seats), seed, table.options)
            async with self.store.transaction():
                await self.store.set_seats(table_id, seats)
                await self.store.update_table(table_id, status="running", seed=seed)
                await self.tables.commit(table, engine, [], set())
            return await self.tables.committed(table_id, engine)

    async def configure(self, table_id: int, user_id: int, setting: str, value: Any) -> TableRow:
        """The host's lobby settings: ``clock`` (seconds per move or None), ``on_timeout``, ``language``."""
        allowed = {"clock": (None, *CLOCKS), "on_timeout": TIMEOUT_POLICIES, "language": LANGUAGES}
        if setting not in allowed or value not in allowed[setting]:
            raise UserError("error.bad_setting")
        async with self.tables.locked(table_id):
            table = await self._lobby(table_id)
            require_host(table, user_id)
            await self.store.bump(table_id, **{setting: value})
            return await self.tables.table(table_id)
