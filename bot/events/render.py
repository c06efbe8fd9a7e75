"""Tournament messages: the event message, round announcements, standings and the podium.

Images carry ranks, names, numbers and places; every name is also in the text beside them. In a
fixed-teams event the standings, the podium and the champion are teams.
"""

from __future__ import annotations

import discord

from bot.core.games import REGISTRY
from bot.core.i18n import Lang
from bot.events import fairness as fair
from bot.events.buttons import EventButton
from bot.events.standings import Standing
from bot.ratings import charts
from bot.storage.events import RoundTable, Tournament
from bot.tables.components import static_view
from bot.tables.render import Rendered, clock_name, timestamp

COLOUR = 0xC9A227
MAX_LISTED = 40
STANDINGS_LINES = 25


def points_text(value: float) -> str:
    return f"{value:g}" if value == int(value) else f"{value:.2f}".rstrip("0")


def player_name(t: Tournament, user_id: int | None, tr: Lang) -> str:
    return tr("tournament.computer") if user_id is None else t.name_of(user_id)


def unit_size(t: Tournament) -> int:
    teams = REGISTRY[t.game].engine.teams(t.table_size) if t.game in REGISTRY else None
    return len(teams) if teams and t.teams == "fixed" else t.table_size


def team_members(t: Tournament, team: int) -> list[int]:
    return [e.user_id for e in t.entrants if e.team == team]


def row_name(t: Tournament, row: Standing, teams: bool) -> str:
    """A standing's name: a team's members joined, or the player, marked when they replaced someone."""
    if teams:
        return " & ".join(t.name_of(p) for p in team_members(t, row.player))
    return t.name_of(row.player)


def winners(t: Tournament, rows: list[Standing], teams: bool, mention: bool = False) -> list[str]:
    """Who won: the first of the prize places (a team names both partners)."""
    top = fair.podium(rows)[:1]
    if not top:
        return []
    players = team_members(t, top[0].player) if teams else [top[0].player]
    return [f"<@{p}>" if mention else t.name_of(p) for p in players]


def settings_text(t: Tournament, tr: Lang) -> str:
    lines = [
        tr(f"tournament.format.{t.format}"),
        tr("tournament.rounds", count=t.rounds) if t.rounds else tr("tournament.rounds_until_final"),
        tr("tournament.table_size", size=t.table_size),
        tr("tournament.points", points=" / ".join(points_text(p) for p in t.points)),
        tr("tournament.clock", clock=clock_name(t.clock, tr), policy=tr(f"clock.policy.{t.on_timeout}")),
    ]
    if t.format == "elimination":
        lines.append(tr("tournament.advance", count=t.advance))
    if t.format == "round_robin":
        sizes = fair.group_sizes(t)
        if t.status == "signup" or not sizes:
            lines.append(tr("tournament.group_size", size=t.group_size))
        else:
            lines.append(tr("tournament.groups", sizes=" / ".join(map(str, sizes))))
    if t.round_hours:
        lines.append(tr("tournament.round_hours", hours=t.round_hours))
    if t.format == "swiss":
        lines.append(tr(f"tournament.pairing.{fair.pairing_mode(t, unit_size(t))}"))
        if t.fill == "computers":
            lines.append(tr("tournament.fill.computers"))
    lines.append(tr("tournament.level.line", level=tr(f"level.{t.computer_level}")))
    if t.teams:
        lines.append(tr(f"tournament.teams.{t.teams}"))
    if t.game in REGISTRY:
        summary = REGISTRY[t.game].option_summary(t.options, t.table_size, tr)
        if summary:
            lines.append(summary)
    lines.append(tr("tournament.auto_next" if t.auto_next else "tournament.manual_next"))
    return "\n".join(lines)


def entrants_text(t: Tournament, tr: Lang) -> str:
    names = []
    for entrant in t.entrants[:MAX_LISTED]:
        name = entrant.name
        if entrant.team is not None:
            name = f"{name} ({tr('tournament.team', n=entrant.team)})"
        if entrant.status != "active":
            name = f"~~{name}~~ ({tr(f'tournament.status.{entrant.status}')})"
        elif t.checkin_open and t.status == "signup" and entrant.checked_in:
            name = f"✅ {name}"
        names.append(name)
    if len(t.entrants) > MAX_LISTED:
        names.append(tr("tournament.more", count=len(t.entrants) - MAX_LISTED))
    return tr.join(names, conjunction=False) or "—"


def event_message(
    t: Tournament,
    round_rows: list[RoundTable],
    urls: dict[int, str],
    done: set[int],
    tr: Lang,
    can_advance: bool,
    winner: list[str] | None = None,
    pending: bool = False,
) -> Rendered:
    """``winner``: who won a finished event; ``pending``: the round is seated and waits for the
    organizer to confirm it."""
    title = tr("tournament.title", name=t.name, game=tr(f"{t.game}.name"))
    embed = discord.Embed(title=title, colour=COLOUR)
    embed.description = tr(
        f"tournament.state.{t.status}",
        round=t.round,
        count=t.round,
        organizer=f"<@{t.organizer_id}>",
        winner=tr("tournament.winner", names=tr.join(winner), count=len(winner)) if winner else "",
    ).strip()
    embed.add_field(name=tr("tournament.settings"), value=settings_text(t, tr), inline=False)
    if t.status == "signup" and t.signup_deadline:
        value = timestamp(t.signup_deadline, "F")
        if t.checkin_open:
            value += "\n" + tr("tournament.checkin_line", when=timestamp(t.signup_deadline))
        elif t.checkin_minutes:
            opens = t.signup_deadline - t.checkin_minutes * 60
            value += "\n" + tr("tournament.checkin_later", when=timestamp(opens))
        embed.add_field(name=tr("tournament.deadline"), value=value, inline=False)
    embed.add_field(
        name=tr("tournament.entrants", count=len([e for e in t.entrants if e.status != "dropped"])),
        value=entrants_text(t, tr)[:1024],
        inline=False,
    )
    lines = []
    for row in round_rows:
        if row.number == 0:
            lines.append(tr("tournament.byes", players=tr.join(player_name(t, p, tr) for p in row.players)))
            continue
        mark = "✅" if row.table_id in done else "⏳"
        link = urls.get(row.table_id or 0)
        label = tr("tournament.table_no", n=row.number)
        label = f"[{label}]({link})" if link else label
        lines.append(f"{mark} {label}: " + tr.join((player_name(t, p, tr) for p in row.players), conjunction=False))
    if lines:
        if pending:
            lines.insert(0, tr("tournament.pairings_pending", n=t.round))
        if t.status == "running" and t.round_deadline:
            lines.insert(0, tr("tournament.round_ends", when=timestamp(t.round_deadline)))
        embed.add_field(name=tr("tournament.round", n=t.round), value="\n".join(lines)[:1024], inline=False)
    embed.set_footer(text=tr("tournament.footer", id=t.id))
    items: list[discord.ui.Item] = []
    if t.status == "signup":
        items.append(
            EventButton("join", t.id, label=tr("tournament.button.join"), style=discord.ButtonStyle.success)
        )
        if t.checkin_open:
            items.append(
                EventButton(
                    "checkin", t.id, label=tr("tournament.button.checkin"), style=discord.ButtonStyle.success
                )
            )
        items.append(
            EventButton("drop", t.id, label=tr("tournament.button.drop"), style=discord.ButtonStyle.secondary)
        )
        items.append(
            EventButton("start", t.id, label=tr("tournament.button.start"), style=discord.ButtonStyle.primary)
        )
    elif t.status == "running":
        items.append(
            EventButton("drop", t.id, label=tr("tournament.button.drop"), style=discord.ButtonStyle.secondary)
        )
        if pending:
            for verb, style in (
                ("confirm", discord.ButtonStyle.success),
                ("repair", discord.ButtonStyle.secondary),
            ):
                items.append(EventButton(verb, t.id, label=tr(f"tournament.button.{verb}"), style=style))
        if can_advance:
            items.append(
                EventButton(
                    "next",
                    t.id,
                    label=tr("tournament.button.next", n=t.round + 1),
                    style=discord.ButtonStyle.primary,
                )
            )
    return Rendered(embed=embed, view=static_view(*items))


def round_announcement(t: Tournament, rows: list[RoundTable], homes: dict[int, str], tr: Lang) -> str:
    """The round's tables with their players pinged; ``homes`` links each table's thread or channel."""
    lines = [tr("tournament.round_begins", n=t.round, name=t.name)]
    if t.round_deadline:
        lines.append(tr("tournament.round_ends", when=timestamp(t.round_deadline, "F")))
    for row in rows:
        if row.number == 0:
            mentions = tr.join(f"<@{p}>" for p in row.players)
            lines.append(tr("tournament.bye_line", players=mentions))
        else:
            mentions = tr.join(
                (f"<@{p}>" if p is not None else tr("tournament.computer") for p in row.players), conjunction=False
            )
            link = homes.get(row.table_id or 0, "")
            lines.append(f"**{tr('tournament.table_no', n=row.number)}** {mentions} {link}".rstrip())
    return "\n".join(lines)


def standings_lines(
    t: Tournament, rows: list[Standing], tr: Lang, limit: int = STANDINGS_LINES, teams: bool = False
) -> list[str]:
    lines = []
    for row in rows[:limit]:
        key = "tournament.standing_line_elim" if t.format == "elimination" else "tournament.standing_line"
        line = tr(
            key,
            rank=row.rank,
            name=row_name(t, row, teams),
            points=tr("tournament.score", count=row.points, points=points_text(row.points)),
            opponents=f"{row.opponents:.2f}",
            wins=tr("tournament.first_places", count=row.wins),
            reached=row.reached,
        )
        if row.dropped:
            line += f" ({tr('tournament.status.dropped')})"
        entrant = None if teams else t.entrant(row.player)
        if entrant is not None and entrant.replaced:
            line += f" ({tr('tournament.replaces', names=entrant.replaced)})"
        lines.append(line)
    if len(rows) > limit:
        lines.append(tr("tournament.more", count=len(rows) - limit))
    return lines


def round_places(
    t: Tournament, rows: list[Standing], results: list[dict], rounds: int, teams: bool = False
) -> list[dict]:
    """Rows for the standings image: per round the place, "B" for a bye, None for no table."""
    by_player: dict[int, dict[int, object]] = {}
    for result in results:
        by_player.setdefault(result["user_id"], {})[result["round"]] = (
            "B" if result["bye"] else result["place"]
        )
    image_rows = []
    for row in rows:
        whose = (team_members(t, row.player) or [0])[0] if teams else row.player
        image_rows.append(
            {
                "rank": row.rank,
                "name": row_name(t, row, teams),
                "points": row.points,
                "rounds": [by_player.get(whose, {}).get(n) for n in range(1, rounds + 1)],
                "dropped": row.dropped,
            }
        )
    return image_rows


def standings_message(
    t: Tournament,
    rows: list[Standing],
    results: list[dict],
    tr: Lang,
    final: bool,
    round_no: int,
    team_rows: list[Standing] | None = None,
    title: str | None = None,
) -> Rendered:
    """The standings (of teams, in a fixed-teams event); the final ones with the podium, which
    only players who played on can take."""
    teams = team_rows is not None
    shown = team_rows if team_rows is not None else rows
    if title is None:
        key = "tournament.final_standings" if final else "tournament.standings_after"
        title = tr(key, name=t.name, n=round_no)
    embed = discord.Embed(title=title, colour=COLOUR)
    lines = standings_lines(t, shown, tr, teams=teams)
    if final and shown:
        podium = [
            f"{medal} {row_name(t, r, teams)}"
            for medal, r in zip(("🥇", "🥈", "🥉"), fair.podium(shown), strict=False)
        ]
        embed.add_field(name=tr("tournament.podium"), value="\n".join(podium) or "—", inline=False)
    embed.description = "\n".join(lines) or "—"
    footer = tr("tournament.tie_breaks")
    if any(r["bye"] for r in results):  # the picture marks a bye "B"
        footer += " · " + tr("tournament.bye_mark")
    if any(r.dropped for r in shown):
        footer += "\n" + tr("tournament.dropped_rule")
    embed.set_footer(text=footer)
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
    champions = winners(t, rows, teams, mention=True)
    medals = [
        f"{m} {row_name(t, r, teams)}" for m, r in zip(("🥇", "🥈", "🥉"), fair.podium(rows), strict=False)
    ]
    # Each name addressed on its own (「A さん、B さん」), as the turn ping does.
    named = tr.join(tr("clock.addressee", player=p) for p in champions)
    text = tr("tournament.champion_text", player=named, count=len(champions)) if champions else "—"
    embed.description = "\n".join([text, "", *medals]) if medals else text
    embed.set_image(url="attachment://table.png")
    return Rendered(embed=embed, image=charts.podium_image([r.points for r in fair.podium(rows)]))
