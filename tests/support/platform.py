"""The platform's services on one store, without Discord: wired as ``bot/wiring.py`` wires them, for
tests of tables, events and ratings that need no bot."""

from __future__ import annotations

from dataclasses import dataclass

from bot.events.service import TournamentService
from bot.ratings.store import RatingStore
from bot.storage.events import TournamentStore
from bot.storage.ratings import RatingRows
from bot.storage.store import Store
from bot.tables.lobby_ops import LobbyOps
from bot.tables.seat_ops import SeatOps
from bot.tables.service import TableService


@dataclass
class Platform:
    store: Store
    tables: TableService
    lobby: LobbyOps
    seat_ops: SeatOps
    ratings: RatingStore
    events: TournamentService


def platform(store: Store) -> Platform:
    tables = TableService(store)
    lobby, seat_ops = LobbyOps(tables), SeatOps(tables)
    ratings = RatingStore(RatingRows(store.db), store)
    events = TournamentService(TournamentStore(store.db), ratings, tables, lobby, seat_ops)
    return Platform(store, tables, lobby, seat_ops, ratings, events)
