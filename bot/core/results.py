"""How a finished table tells everyone who won: places, winners and final scores, best first.

The table message and the thread's one closing line are built from the same stored result (the
engine's ``results()``, or the platform's own result when a clock ended the table), so they can
never disagree. A game says how its score reads ("13 chips", "penalty 51") and may group seats,
as Final Quest does with its teams.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, NamedTuple

from bot.core.i18n import Lang

if TYPE_CHECKING:
    from bot.core.games import GameUI

MEDALS = ("🥇", "🥈", "🥉")


class Row(NamedTuple):
    """One line of a result: a place mark, who (a name, a team), and the score in words."""

    place: str
    who: str
    details: str = ""


def place_mark(rank: int) -> str:
    return MEDALS[rank - 1] if 1 <= rank <= len(MEDALS) else f"{rank}."


def medal(rank: int) -> str:
    """A medal and a space before a player's own place (``dm.end.place``); nothing past the third,
    whose number the place already says ("4 of 4", not "4. 4 of 4")."""
    return f"{MEDALS[rank - 1]} " if 1 <= rank <= len(MEDALS) else ""


def best_first(result: dict[str, Any]) -> list[int]:
    """Seats by place; tied seats in seat order."""
    ranks = result["ranks"]
    return sorted(range(len(ranks)), key=lambda seat: (ranks[seat], seat))


def stored_result(table: Any, engine: Any) -> dict[str, Any] | None:
    """The result of a finished table: as stored, or the engine's when the game has just ended."""
    if table.result:
        stored: dict[str, Any] = json.loads(table.result)
        return stored
    return engine.results() if engine.is_terminal() else None


def seat_results(ui: GameUI, result: dict[str, Any], names: list[str], tr: Lang) -> list[Row]:
    """One row per seat, best first; winners in bold, absent players said so."""
    scores = result.get("scores") or [None] * len(names)
    absent = set(result.get("absent") or ())
    rows = []
    for seat in best_first(result):
        winner = result["ranks"][seat] == 1
        details = [ui.score_text(scores[seat], tr)] if scores[seat] is not None else []
        if seat in absent:
            details.append(tr("result.timed_out"))
        name = f"**{names[seat]}**" if winner else names[seat]
        rows.append(Row(place_mark(result["ranks"][seat]), name, tr.join(details, conjunction=False)))
    return rows


def row_text(row: Row, tr: Lang, key: str) -> str:
    if not row.details:
        return f"{row.place} {row.who}".strip()
    return tr(key, place=row.place, player=row.who, details=row.details).strip()


def result_block(ui: GameUI, result: dict[str, Any], names: list[str], tr: Lang) -> str:
    """The top of a finished table's message: a heading, then one line per place."""
    rows = [row_text(row, tr, "result.line") for row in ui.result_rows(result, names, tr)]
    return "\n".join([tr("result.title"), *rows])


def final_line(ui: GameUI, result: dict[str, Any], names: list[str], tr: Lang, url: str) -> str:
    """The thread's one closing line, linking to the table message that shows the result."""
    rows = [row_text(row, tr, "result.inline") for row in ui.result_rows(result, names, tr)]
    return tr("table.final", standings=" · ".join(rows), url=url)


def end_lines(ui: GameUI, result: dict[str, Any], seat: int, names: list[str], tr: Lang) -> list[str]:
    """A player's own end of the game, for their DM: their place and score, then who won."""
    ranks = result["ranks"]
    scores = result.get("scores") or [None] * len(ranks)
    rank = ranks[seat]
    place = tr("dm.end.place", mark=medal(rank), place=rank, count=len(ranks))
    if ranks.count(rank) > 1:
        place = f"{place} {tr('dm.end.tied')}"
    details = [ui.score_text(scores[seat], tr)] if scores[seat] is not None else []
    if seat in set(result.get("absent") or ()):
        details.append(tr("result.timed_out"))
    winners = [s for s in best_first(result) if ranks[s] == 1]
    shown = [
        tr("dm.end.scored", player=names[s], details=ui.score_text(scores[s], tr))
        if scores[s] is not None else f"**{names[s]}**"
        for s in winners
    ]
    return [
        " · ".join([place, *details]),
        tr("dm.end.winner", players=tr.join(shown), count=len(winners)),
    ]
