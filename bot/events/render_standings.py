"""The standings messages: the lines of text, the picture's rows, the live and final standings
and the podium.

Each line says a player's points; where points read the same, the tie-break values that split
them (``tie_breaks``). The picture has a cell per round: the place, or at tables of two the
opponent's rank with the seat in a corner; a bye is "B", a round a late entrant missed a dash.
"""

from __future__ import annotations

from collections import Counter
from functools import reduce
from math import ceil

import discord

from bot.core.i18n import Lang
from bot.events import fairness as fair
from bot.events import tie_breaks
from bot.events.standings import Standing
from bot.events.words import points_text, row_name, team_members, two_seats, unit_size, winners
from bot.events.words import seat_legend as seat_words
from bot.ratings import charts
from bot.ratings.model import displayed
from bot.storage.events import Tournament
from bot.tables.render import Rendered

COLOUR = 0xC9A227
STANDINGS_LINES = 25


def entered(t: Tournament, results: list[dict]) -> dict[int, int]:
    """Late entrants (Swiss) and the round each first played or had a bye in."""
    if t.format != "swiss":
        return {}
    first: dict[int, int] = {}
    for result in results:
        player = result["user_id"]
        first[player] = min(first.get(player, result["round"]), result["round"])
    return {player: number for player, number in first.items() if number > 1}


def tie_texts(rows: list[Standing], tr: Lang) -> dict[int, str]:
    """Rank → the tie-break values that split the row from neighbours showing the same points."""
    texts = {}
    for group, keys in tie_breaks.tied_groups(rows, points_text):
        places = {
            key: tie_breaks.decimals([getattr(r, key) for r in group], 2 if key != "opponents" else 1)
            for key in ("points", "opponents", "place")
        }
        places["direct"] = tie_breaks.decimals([r.direct for r in group], 0)
        for row, shown in zip(group, keys, strict=True):
            values = []
            for key in shown:
                if key == "wins":
                    values.append(tr("tournament.first_places", count=row.wins))
                elif key == "rating":
                    values.append(tr("tournament.tie.rating", value=displayed(row.rating)))
                elif key == "lot":
                    values.append(tr("tournament.tie.lot"))
                else:
                    value = tie_breaks.fixed(getattr(row, key), places[key])
                    values.append(tr(f"tournament.tie.{key}", value=value))
            texts[row.rank] = tr("tournament.tie_line", values=tr.join(values, conjunction=False))
    return texts


def page_count(rows: int) -> int:
    """How many pages of ``STANDINGS_LINES`` the standings take (one, when empty)."""
    return max(1, ceil(rows / STANDINGS_LINES))


def standings_lines(
    t: Tournament,
    rows: list[Standing],
    tr: Lang,
    limit: int = STANDINGS_LINES,
    teams: bool = False,
    results: list[dict] | None = None,
    page: int = 0,
) -> list[str]:
    """The lines of one page (``limit`` rows), and where there are more, which ranks it shows."""
    ties = tie_texts(rows, tr) if t.format != "elimination" else {}
    late = {} if teams else entered(t, results or [])
    shown = rows[page * limit : (page + 1) * limit]
    lines = [standing_line(t, row, tr, ties, late, teams) for row in shown]
    if len(rows) > limit and shown:
        pages = ceil(len(rows) / limit)
        lines.append(
            tr("tournament.page", page=page + 1, pages=pages, first=shown[0].rank, last=shown[-1].rank, count=len(rows))
        )
    return lines


def standing_line(
    t: Tournament, row: Standing, tr: Lang, ties: dict[int, str], late: dict[int, int], teams: bool
) -> str:
    key = "tournament.standing_line_elim" if t.format == "elimination" else "tournament.standing_line"
    line = tr(
        key,
        rank=row.rank,
        name=row_name(t, row, teams),
        points=tr("tournament.score", count=row.points, points=points_text(row.points)),
        reached=row.reached,
    )
    if row.rank in ties:
        line += " · " + ties[row.rank]
    if row.player in late:
        line += " · " + tr("tournament.joined_in", n=late[row.player])
    if row.dropped:
        line += f" ({tr('tournament.status.dropped')})"
    entrant = None if teams else t.entrant(row.player)
    if entrant is not None and entrant.replaced:
        line += f" ({tr('tournament.replaces', names=entrant.replaced)})"
    return line


def own_line(
    t: Tournament, rows: list[Standing], tr: Lang, you: int, teams: bool, results: list[dict]
) -> str | None:
    """The asker's own line (their team's, in a fixed-teams event), or None if they are not in it."""
    whose = you
    if teams:
        entrant = t.entrant(you)
        if entrant is None or entrant.team is None:
            return None
        whose = entrant.team
    row = next((r for r in rows if r.player == whose), None)
    if row is None:
        return None
    ties = tie_texts(rows, tr) if t.format != "elimination" else {}
    late = {} if teams else entered(t, results)
    return tr("tournament.your_place", line=standing_line(t, row, tr, ties, late, teams))


def head_to_head(t: Tournament, teams: bool) -> bool:
    """One opponent per table (tables of two, or two fixed teams): the picture names the opponent."""
    return two_seats(t) or (teams and unit_size(t) == 2)


def round_places(
    t: Tournament, rows: list[Standing], results: list[dict], rounds: int, teams: bool = False
) -> list[dict]:
    """Rows for the standings picture: per round a ``charts.Cell`` (the place, shaded from first to
    last; at tables of two, the opponent's rank and the seat), a bye, a late entrant's missed
    round, or None for no table."""
    team_of = {e.user_id: e.team for e in t.entrants} if teams else {}
    rank = {row.player: row.rank for row in rows}
    seats = {(r["round"], r["user_id"]): r.get("seat") for r in results} if two_seats(t) else {}
    tied = Counter((r["round"], r.get("table_id"), r["place"]) for r in results if not r["bye"])
    cells: dict[int, dict[int, object]] = {}
    for result in results:
        cell: object
        if result["bye"]:
            cell = charts.BYE_MARK
        else:
            size, place = result.get("size") or 1, result["place"] or 1
            shared = tied[(result["round"], result.get("table_id"), result["place"])]
            if teams:
                shared = max(1, shared // 2)  # partners share their place
            shade = ((place - 1) + (shared - 1) / 2) / (size - 1) if size > 1 else 0.0
            text = str(place)
            opponents = [team_of.get(o, o) if teams else o for o in result.get("opponents", [])]
            if head_to_head(t, teams) and len(set(opponents)) == 1 and opponents[0] in rank:
                text = str(rank[opponents[0]])
            cell = charts.Cell(text, shade, seats.get((result["round"], result["user_id"])))
        cells.setdefault(result["user_id"], {})[result["round"]] = cell
    late = {} if teams else entered(t, results)
    image_rows = []
    for row in rows:
        whose = (team_members(t, row.player) or [0])[0] if teams else row.player
        own = cells.get(whose, {})
        image_rows.append(
            {
                "rank": row.rank,
                "name": row_name(t, row, teams),
                "points": row.points,
                "rounds": [
                    charts.LATE_MARK if n not in own and n < late.get(whose, 0) else own.get(n)
                    for n in range(1, rounds + 1)
                ],
                "dropped": row.dropped,
            }
        )
    return image_rows


def footer(t: Tournament, shown: list[Standing], results: list[dict], tr: Lang, teams: bool) -> str:
    """The ranking order, the legends of what the picture marks, and the rule for drops: each a
    sentence of its own."""
    lines = [tr("tournament.tie_breaks")]
    legends = []
    if head_to_head(t, teams) and results:
        legends.append(tr("tournament.cross_legend"))
        if two_seats(t):
            legends.append(seat_words(t, tr))
    if any(r["bye"] for r in results):  # the picture marks a bye "B"
        legends.append(tr("tournament.bye_mark"))
    if not teams and entered(t, results):
        legends.append(tr("tournament.late_mark"))
    if legends:
        lines.append(reduce(lambda first, then: tr("list.sentences", first=first, then=then), legends))
    if any(r.dropped for r in shown):
        lines.append(tr("tournament.dropped_rule"))
    return "\n".join(lines)


def standings_message(
    t: Tournament,
    rows: list[Standing],
    results: list[dict],
    tr: Lang,
    final: bool,
    round_no: int,
    team_rows: list[Standing] | None = None,
    title: str | None = None,
    page: int = 0,
    you: int | None = None,
) -> Rendered:
    """The standings (of teams, in a fixed-teams event); the final ones with the podium, which
    only players who played on can take. One page of lines (``page``); for a member who asks
    (``you``), their own line too, wherever they rank."""
    teams = team_rows is not None
    shown = team_rows if team_rows is not None else rows
    if title is None:
        key = "tournament.final_standings" if final else "tournament.standings_after"
        title = tr(key, name=t.name, n=round_no)
    embed = discord.Embed(title=title, colour=COLOUR)
    lines = standings_lines(t, shown, tr, teams=teams, results=results, page=page)
    own = own_line(t, shown, tr, you, teams, results) if you is not None else None
    if own is not None:
        lines += ["", own]
    if final and shown:
        podium = [
            f"{medal} {row_name(t, r, teams)}"
            for medal, r in zip(("🥇", "🥈", "🥉"), fair.podium(shown), strict=False)
        ]
        embed.add_field(name=tr("tournament.podium"), value="\n".join(podium) or "—", inline=False)
    embed.description = "\n".join(lines) or "—"
    embed.set_footer(text=footer(t, shown, results, tr, teams))
    image = charts.standings_image(round_places(t, shown, results, round_no, teams))
    embed.set_image(url="attachment://table.png")
    return Rendered(embed=embed, image=image)


def live_message(
    t: Tournament,
    rows: list[Standing],
    results: list[dict],
    tr: Lang,
    team_rows: list[Standing] | None,
    done: int,
    tables: int,
) -> Rendered:
    """The standings message kept in the event channel and edited as each table ends."""
    title = tr("tournament.live_standings", name=t.name, n=t.round, done=done, tables=tables, count=tables)
    return standings_message(t, rows, results, tr, t.status == "finished", t.round, team_rows, title)


def podium_message(t: Tournament, rows: list[Standing], tr: Lang, teams: bool = False) -> Rendered:
    """The champion (both partners of a winning team) and the podium of those who played on."""
    embed = discord.Embed(title=tr("tournament.champion", name=t.name), colour=COLOUR)
    champions = winners(t, rows, teams, bold=True)
    medals = [
        f"{m} {row_name(t, r, teams)} · {tr('tournament.score', count=r.points, points=points_text(r.points))}"
        for m, r in zip(("🥇", "🥈", "🥉"), fair.podium(rows), strict=False)
    ]
    # Each name addressed on its own (「A さん、B さん」), as the turn ping does.
    named = tr.join(tr("clock.addressee", player=p) for p in champions)
    text = tr("tournament.champion_text", player=named, count=len(champions)) if champions else "—"
    embed.description = "\n".join([text, "", *medals]) if medals else text
    embed.set_image(url="attachment://table.png")
    return Rendered(embed=embed, image=charts.podium_image([r.points for r in fair.podium(rows)]))
