"""An event's page, drawn from what its Discord messages show (the catalogs' ``tournament.*`` texts,
``bot/events/render.py``'s settings and entrants): sign-ups, each round's pairings and results, the
standings with their tie-breaks, the bracket of an elimination event, and the podium.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.core.i18n import Lang
from bot.events import fairness as fair
from bot.events import render as view
from bot.events.standings import Standing
from bot.events.words import organizer
from bot.storage.events import RoundTable, Tournament
from bot.web.markup import escape, to_html

MEDALS = ("🥇", "🥈", "🥉")


@dataclass
class EventData:
    """What an event's page shows, read at one moment."""

    tournament: Tournament
    rounds: list[RoundTable]
    results: list[dict[str, Any]]
    standings: list[Standing]
    teams: list[Standing] | None
    #: table id -> (its page's link, or None when @everyone could not see where it was played)
    tables: dict[int, str | None] = field(default_factory=dict)
    exports: list[tuple[str, str]] = field(default_factory=list)  # (label, link)


def points(value: float) -> str:
    return f"{value:g}" if value == int(value) else f"{value:.2f}".rstrip("0")


def names(t: Tournament) -> dict[int, str]:
    return {e.user_id: e.name for e in t.entrants}


def player(t: Tournament, user_id: int | None, tr: Lang) -> str:
    return tr("tournament.computer") if user_id is None else t.name_of(user_id)


def row_name(t: Tournament, row: Standing, teams: bool) -> str:
    if teams:
        return " & ".join(e.name for e in t.entrants if e.team == row.player)
    return t.name_of(row.player)


def event_html(data: EventData, tr: Lang) -> str:
    t = data.tournament
    title = tr("tournament.title", name=t.name, game=tr(f"{t.game}.name"))
    ranked = data.teams if data.teams is not None else data.standings
    parts = [f"<h1>{escape(title)}</h1>", status_html(t, ranked, data.teams is not None, tr)]
    if t.status == "finished" and ranked:
        parts.append(podium_html(t, ranked, data.teams is not None, tr))
    if t.round:
        if data.teams is not None:
            parts.append(standings_html(t, data.teams, True, tr))
        parts.append(standings_html(t, data.standings, False, tr))
    if t.format == "elimination" and t.round:
        parts.append(bracket_html(data, tr))
    if t.round:
        parts.append(rounds_html(data, tr))
    parts.append(section(tr("tournament.entrants", count=len([e for e in t.entrants if e.status != "dropped"])),
                         f'<div class="text">{to_html(view.entrants_text(t, tr))}</div>', "entrants"))
    parts.append(section(tr("tournament.settings"), f'<div class="text">{to_html(view.settings_text(t, tr))}</div>', "settings"))
    if data.exports:
        items = "".join(f'<li><a href="{escape(href)}" download>{escape(label)}</a></li>' for label, href in data.exports)
        parts.append(section(tr("web.event.exports"), f'<ul class="exports">{items}</ul>', "downloads"))
    return "\n".join(parts)


def section(heading: str, body: str, kind: str) -> str:
    return f'<section class="{kind}"><h2>{escape(heading)}</h2>{body}</section>'


def status_html(t: Tournament, ranked: list[Standing], teams: bool, tr: Lang) -> str:
    won = []
    if t.status == "finished":
        top = fair.podium(ranked)[:1]
        if top:
            won = [t.name_of(p) for p in ([e.user_id for e in t.entrants if e.team == top[0].player] if teams else [top[0].player])]
    winner = tr("tournament.winner", names=tr.join(won), count=len(won)) if won else ""
    # As the event's message names them (``words.organizer``), an older event's mention as an
    # entrant's name; an organizer known by neither is left out ("Organizer: the organizer").
    known = names(t)
    key = f"tournament.state.{t.status}"
    if not t.organizer_name and t.organizer_id not in known and tr.has(f"web.event.state.{t.status}"):
        key = f"web.event.state.{t.status}"
    text = tr(key, round=t.round, count=t.round, organizer=organizer(t), winner=winner)
    return f'<p class="status">{to_html(text.strip(), known)}</p>'


def podium_html(t: Tournament, ranked: list[Standing], teams: bool, tr: Lang) -> str:
    items = "".join(
        f'<li><span aria-hidden="true">{medal}</span> {escape(row_name(t, row, teams))} · {escape(tr("tournament.score", count=row.points, points=points(row.points)))}</li>'
        for medal, row in zip(MEDALS, fair.podium(ranked), strict=False)
    )
    return section(tr("tournament.podium"), f'<ol class="podium">{items}</ol>', "podium")


def standings_html(t: Tournament, rows: list[Standing], teams: bool, tr: Lang) -> str:
    elimination = t.format == "elimination"
    columns = ["web.event.rank", "web.event.team" if teams else "web.event.player", "web.event.points"]
    columns += ["web.event.reached"] if elimination else []
    columns += ["web.event.opponents", "web.event.wins", "web.event.place"]
    head = "".join(f'<th scope="col">{escape(tr(c)).replace(chr(10), "<br>")}</th>' for c in columns)
    body = []
    for row in rows:
        name = escape(row_name(t, row, teams))
        entrant = None if teams else t.entrant(row.player)
        if row.dropped:
            name = f"<s>{name}</s> ({escape(tr('tournament.status.dropped'))})"
        if entrant is not None and entrant.replaced:
            name += f" ({escape(tr('tournament.replaces', names=entrant.replaced))})"
        cells = [str(row.rank), name, points(row.points)]
        cells += [str(row.reached)] if elimination else []
        cells += [f"{row.opponents:.2f}", str(row.wins), f"{row.place:.2f}"]
        body.append("<tr>" + "".join(
            f'<th scope="row">{c}</th>' if i == 1 else f"<td>{c}</td>" for i, c in enumerate(cells)
        ) + "</tr>")
    heading = tr("web.event.team_standings") if teams else tr("web.event.standings")
    # Only the table scrolls sideways when a narrow screen cannot hold it; the ranking line below wraps.
    table = f'<div class="board-wrap"><table class="board standings"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table></div>'
    return section(heading, table + f'<p class="hint">{escape(tr("tournament.tie_breaks"))}</p>', "standings")


def places(data: EventData) -> dict[tuple[int, int], dict[str, Any]]:
    """(round, player) -> their result."""
    return {(r["round"], r["user_id"]): r for r in data.results}


def table_cell(data: EventData, row: RoundTable, tr: Lang) -> str:
    label = escape(tr("tournament.table_no", n=row.number))
    link = data.tables.get(row.table_id or 0)
    return f'<a href="{escape(link)}">{label}</a>' if link else label


def rounds_html(data: EventData, tr: Lang) -> str:
    """Each round's pairings: its tables, their players in seat order with their places once
    played, and the byes; the latest round open."""
    t, placed = data.tournament, places(data)
    numbers = sorted({r.round for r in data.rounds})
    parts = []
    for n in numbers:
        items = []
        for row in (r for r in data.rounds if r.round == n):
            if row.number == 0:
                items.append(f'<li class="bye">{escape(tr("tournament.byes", players=tr.join(player(t, p, tr) for p in row.players)))}</li>')
                continue
            seats = []
            for p in row.players:
                result = placed.get((n, p)) if p is not None else None
                place = f' <span class="place">{escape(tr("web.event.placed", place=result["place"]))}</span>' if result and result["place"] else ""
                seats.append(f"<li>{escape(player(t, p, tr))}{place}</li>")
            done = any(placed.get((n, p)) for p in row.players if p is not None)
            mark = tr("web.event.done") if done else tr("web.event.playing")
            items.append(f'<li class="pairing"><span class="table">{table_cell(data, row, tr)}</span> · {escape(mark)}<ol class="seats">{"".join(seats)}</ol></li>')
        opened = " open" if n == numbers[-1] else ""
        parts.append(f'<details{opened}><summary>{escape(tr("tournament.round", n=n))}</summary><ul class="round">{"".join(items)}</ul></details>')
    return section(tr("web.event.pairings"), "".join(parts), "rounds")


def bracket_html(data: EventData, tr: Lang) -> str:
    """Elimination: one column per round, each table with its players best first; those who went
    on to the next round marked, and, once the event is over, the winner of its final (nobody goes
    on from there)."""
    t, placed = data.tournament, places(data)
    columns = []
    numbers = sorted({r.round for r in data.rounds})
    for n in numbers:
        final = t.status == "finished" and n == numbers[-1]
        matches = []
        for row in (r for r in data.rounds if r.round == n and r.number):
            seats = [(placed.get((n, p)) if p is not None else None, p) for p in row.players]
            seats.sort(key=lambda s: (s[0] is None or s[0]["place"] is None, s[0]["place"] if s[0] and s[0]["place"] else 0))
            lines = []
            for result, p in seats:
                on = result is not None and result["place"] is not None and result["place"] <= (1 if final else t.advance)
                label = tr("web.event.won" if final else "web.event.advanced")
                mark = f' <span class="advanced">{escape(label)}</span>' if on else ""
                kind = ' class="on"' if on else ""
                lines.append(f"<li{kind}>{escape(player(t, p, tr))}{mark}</li>")
            matches.append(f'<li class="match"><span class="table">{table_cell(data, row, tr)}</span><ol>{"".join(lines)}</ol></li>')
        for row in (r for r in data.rounds if r.round == n and not r.number):
            matches.append(f'<li class="match bye">{escape(tr("tournament.byes", players=tr.join(player(t, p, tr) for p in row.players)))}</li>')
        columns.append(f'<li class="column"><h3>{escape(tr("tournament.round", n=n))}</h3><ul>{"".join(matches)}</ul></li>')
    return section(tr("web.event.bracket"), f'<ol class="bracket">{"".join(columns)}</ol>', "bracket-section")
