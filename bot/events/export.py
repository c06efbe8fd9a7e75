"""Exports other tournament tools read: Challonge-style participants and matches for two-player
events (one row per player, one per table), beside the bot's own CSV and JSON."""

from __future__ import annotations

import csv
import io

from bot.core.errors import UserError
from bot.events.standings import Standing
from bot.events.store import RoundTable, Tournament


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
