"""Exports other tournament tools read: Challonge-style participants and matches for two-player
events (one row per player, one per table), beside the bot's own CSV and JSON."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

import discord

from bot.core.errors import UserError
from bot.events import render as view
from bot.events.standings import Standing
from bot.storage.events import RoundTable, Tournament

if TYPE_CHECKING:
    from bot.events.service import TournamentService


def challonge(
    t: Tournament, rows: list[Standing], results: list[dict], tables: list[RoundTable]
) -> list[tuple[str, bytes]]:
    """(file name, CSV bytes) for the participants, seeded by the rating frozen at the start,
    and for the matches: round, both players in seat order, the score and the winner."""
    if t.table_size != 2 or t.teams:
        raise UserError("tournament.error.challonge_two_player")
    seeds = sorted(t.entrants, key=lambda e: (-(e.rating or 0.0), e.joined))
    rank = {s.player: s.rank for s in rows}
    people = io.StringIO()
    writer = csv.writer(people)
    writer.writerow(["seed", "name", "misc", "final_rank"])
    for seed, entrant in enumerate(seeds, start=1):
        writer.writerow([seed, entrant.name, entrant.user_id, rank.get(entrant.user_id, "")])
    place = {(r["table_id"], r["user_id"]): r for r in results if r["table_id"] is not None}
    matches = io.StringIO()
    writer = csv.writer(matches)
    writer.writerow(["round", "match", "player1", "player2", "scores_csv", "winner", "state"])
    for table in tables:
        if not table.number or len(table.players) != 2:
            continue
        first, second = (place.get((table.table_id, p)) for p in table.players)
        names = [t.name_of(p) if p is not None else "" for p in table.players]
        if first is None or second is None:
            writer.writerow([table.round, table.number, *names, "", "", "open"])
            continue
        scores = [
            r["score"] if r["score"] is not None else (1 if r["place"] == 1 else 0) for r in (first, second)
        ]
        if first["place"] == second["place"]:
            winner = "tie"
        else:
            winner = names[0] if first["place"] < second["place"] else names[1]
        score = "-".join(f"{s:g}" for s in scores)
        writer.writerow([table.round, table.number, *names, score, winner, "complete"])
    slug = f"tournament-{t.id}"
    return [
        (f"{slug}-participants.csv", people.getvalue().encode()),
        (f"{slug}-matches.csv", matches.getvalue().encode()),
    ]

async def files(service: TournamentService, tournament: Tournament, kind: str) -> list[discord.File]:
    """The event's results and standings as files: ``challonge`` (CSV to import there), ``csv`` or
    ``json``."""
    results = await service.store.results(tournament.id)
    rows = await service.ranking.standings(tournament)
    slug = f"tournament-{tournament.id}"
    if kind == "challonge":
        tables = await service.store.round_tables(tournament.id)
        return [
            discord.File(io.BytesIO(data), filename=name)
            for name, data in challonge(tournament, rows, results, tables)
        ]
    if kind == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(
            ["round", "table", "user_id", "player", "place", "places", "points", "score", "bye"]
        )
        for r in results:
            writer.writerow(
                [
                    r["round"],
                    r["table_id"] or "",
                    r["user_id"],
                    tournament.name_of(r["user_id"]),
                    r["place"] or "",
                    r["size"] or "",
                    r["points"],
                    "" if r["score"] is None else r["score"],
                    int(r["bye"]),
                ]
            )
        writer.writerow([])
        writer.writerow(
            [
                "rank",
                "user_id",
                "player",
                "points",
                "opponents",
                "head_to_head",
                "wins",
                "place",
                "byes",
                "status",
                "replaced",
                "team",
            ]
        )
        for s in rows:
            entrant = tournament.entrant(s.player)
            writer.writerow(
                [
                    s.rank,
                    s.player,
                    tournament.name_of(s.player),
                    s.points,
                    round(s.opponents, 4),
                    s.direct,
                    s.wins,
                    round(s.place, 4),
                    s.byes,
                    entrant.status if entrant else "",
                    (entrant.replaced or "") if entrant else "",
                    "" if entrant is None or entrant.team is None else entrant.team,
                ]
            )
        corrections = [e for e in await service.store.log(tournament.id) if e.kind == "correct"]
        if corrections:  # the results above are as corrected; here is what they were, and why
            writer.writerow([])
            writer.writerow(["corrected_round", "table", "user_id", "player", "place_before", "place_after", "reason", "at"])
            for e in corrections:
                for user, after in e.data["after"].items():
                    before = e.data["before"].get(user, "")
                    row = [e.round, e.data["table_id"], user, tournament.name_of(int(user)), before, after]
                    writer.writerow([*row, e.data["reason"], e.at])
        data = buffer.getvalue().encode()
        return [discord.File(io.BytesIO(data), filename=f"{slug}.csv")]
    rounds = await service.store.round_tables(tournament.id)
    event: dict[str, Any] = {
        key: getattr(tournament, key)
        for key in (
            "id",
            "name",
            "game",
            "format",
            "rounds",
            "table_size",
            "points",
            "clock",
            "on_timeout",
            "advance",
            "group_size",
            "teams",
            "status",
            "round",
            "options",
        )
    }
    event["entrants"] = [asdict(e) for e in tournament.entrants]
    event["tables"] = [asdict(r) for r in rounds]
    event["results"] = results
    event["standings"] = [asdict(s) for s in rows]
    teams = await service.ranking.team_standings(tournament)
    if teams is not None:
        event["team_standings"] = [
            asdict(s) | {"members": view.team_members(tournament, s.player)} for s in teams
        ]
    event["pairing"], event["fill"] = tournament.pairing, tournament.fill
    event["log"] = [asdict(entry) for entry in await service.store.log(tournament.id)]  # the organizer's swaps and corrections
    data = json.dumps(event, indent=2, ensure_ascii=False).encode()
    return [discord.File(io.BytesIO(data), filename=f"{slug}.json")]
