"""The words every tournament message shares: points as they are shown, the names of players,
teams and the organizer, and the two seats of a two-seat table (Black and White in Othello)."""

from __future__ import annotations

from bot.core.games import REGISTRY
from bot.core.i18n import Lang
from bot.events import fairness as fair
from bot.events.standings import Standing
from bot.ratings.charts import format_points
from bot.storage.events import Tournament

#: How the two seats are marked, in the text as in the standings picture's corners.
SEAT_MARKS = ("⚫", "⚪")


def points_text(value: float) -> str:
    """Points as every message and picture shows them: at most one decimal."""
    return format_points(value)


def unit_size(t: Tournament) -> int:
    """Sides at a full table: teams when they are fixed, else players."""
    teams = REGISTRY[t.game].engine.teams(t.table_size) if t.game in REGISTRY else None
    return len(teams) if teams and t.teams == "fixed" else t.table_size


def player_name(t: Tournament, user_id: int | None, tr: Lang) -> str:
    return tr("tournament.computer") if user_id is None else t.name_of(user_id)


def team_members(t: Tournament, team: int) -> list[int]:
    return [e.user_id for e in t.entrants if e.team == team]


def row_name(t: Tournament, row: Standing, teams: bool) -> str:
    """A standing's name: a team's members joined, or the player."""
    if teams:
        return " & ".join(t.name_of(p) for p in team_members(t, row.player))
    return t.name_of(row.player)


def winners(t: Tournament, rows: list[Standing], teams: bool, bold: bool = False) -> list[str]:
    """Who won: the first of the prize places (a team names both partners). Names, not mentions:
    a mention in an embed pings nobody, and a client that has not loaded the member shows its id."""
    top = fair.podium(rows)[:1]
    if not top:
        return []
    players = team_members(t, top[0].player) if teams else [top[0].player]
    return [f"**{t.name_of(p)}**" if bold else t.name_of(p) for p in players]


def organizer(t: Tournament) -> str:
    """The organizer by the name they had when they created the event (older events: a mention)."""
    return f"**{t.organizer_name}**" if t.organizer_name else f"<@{t.organizer_id}>"


def two_seats(t: Tournament) -> bool:
    """Tables of two players, where the seat is the colour and the bot balances it."""
    return t.table_size == 2 and not t.teams


def seat_name(t: Tournament, seat: int, tr: Lang) -> str:
    """The seat's name in the event's game ("Black"), else "first seat" or "second seat"."""
    which = ("first", "second")[seat]
    own = f"{t.game}.tournament.seat.{which}"
    return tr(own) if tr.has(own) else tr(f"tournament.seat.{which}")


def seated(seat: int, text: str) -> str:
    """A player at a two-seat table, marked with their seat."""
    return f"{SEAT_MARKS[seat]} {text}"


def seat_legend(t: Tournament, tr: Lang) -> str:
    """"⚫ Black plays first, ⚪ White second." for the messages that mark seats."""
    first, second = (f"{SEAT_MARKS[s]} {seat_name(t, s, tr)}" for s in (0, 1))
    return tr("tournament.seat_legend", first=first, second=second)
