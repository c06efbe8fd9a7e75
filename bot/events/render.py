"""Tournament messages: the event message, round announcements, standings and the podium.

Images (standings, podium) carry ranks, numbers and places only; names are in the text beside them.
"""

from __future__ import annotations

import discord

from bot.core.games import REGISTRY
from bot.core.i18n import Lang
from bot.events.standings import Standing
from bot.events.store import RoundTable, Tournament
from bot.ratings import charts
from bot.tables.components import EventButton
from bot.tables.render import Rendered, clock_name, timestamp

COLOUR = 0xC9A227
MAX_LISTED = 40
STANDINGS_LINES = 25


def points_text(value: float) -> str:
    return f"{value:g}" if value == int(value) else f"{value:.2f}".rstrip("0")


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
        lines.append(tr("tournament.group_size", size=t.group_size))
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
        names.append(name)
    if len(t.entrants) > MAX_LISTED:
        names.append(tr("tournament.more", count=len(t.entrants) - MAX_LISTED))
    return ", ".join(names) or "—"


def event_message(
    t: Tournament,
    round_rows: list[RoundTable],
    urls: dict[int, str],
    done: set[int],
    tr: Lang,
    can_advance: bool,
) -> Rendered:
    title = tr("tournament.title", name=t.name, game=tr(f"{t.game}.name"))
    embed = discord.Embed(title=title, colour=COLOUR)
    embed.description = tr(f"tournament.state.{t.status}", round=t.round, organizer=f"<@{t.organizer_id}>")
    embed.add_field(name=tr("tournament.settings"), value=settings_text(t, tr), inline=False)
    if t.status == "signup" and t.signup_deadline:
        embed.add_field(name=tr("tournament.deadline"), value=timestamp(t.signup_deadline, "F"), inline=False)
    embed.add_field(
        name=tr("tournament.entrants", count=len([e for e in t.entrants if e.status != "dropped"])),
        value=entrants_text(t, tr)[:1024],
        inline=False,
    )
    lines = []
    for row in round_rows:
        if row.number == 0:
            lines.append(tr("tournament.byes", players=tr.join(t.name_of(p) for p in row.players)))
            continue
        mark = "✅" if row.table_id in done else "⏳"
        link = urls.get(row.table_id or 0)
        label = tr("tournament.table_no", n=row.number)
        label = f"[{label}]({link})" if link else label
        lines.append(f"{mark} {label}: " + ", ".join(t.name_of(p) for p in row.players))
    if lines:
        embed.add_field(name=tr("tournament.round", n=t.round), value="\n".join(lines)[:1024], inline=False)
    embed.set_footer(text=tr("tournament.footer", id=t.id))
    view = discord.ui.View(timeout=None)
    if t.status == "signup":
        view.add_item(
            EventButton("join", t.id, label=tr("tournament.button.join"), style=discord.ButtonStyle.success)
        )
        view.add_item(
            EventButton("drop", t.id, label=tr("tournament.button.drop"), style=discord.ButtonStyle.secondary)
        )
        view.add_item(
            EventButton("start", t.id, label=tr("tournament.button.start"), style=discord.ButtonStyle.primary)
        )
    elif t.status == "running":
        view.add_item(
            EventButton("drop", t.id, label=tr("tournament.button.drop"), style=discord.ButtonStyle.secondary)
        )
        if can_advance:
            view.add_item(
                EventButton(
                    "next",
                    t.id,
                    label=tr("tournament.button.next", n=t.round + 1),
                    style=discord.ButtonStyle.primary,
                )
            )
    return Rendered(embed=embed, view=view)


def round_announcement(t: Tournament, rows: list[RoundTable], homes: dict[int, str], tr: Lang) -> str:
    """The round's tables with their players pinged; ``homes`` links each table's thread or channel."""
    lines = [tr("tournament.round_begins", n=t.round, name=t.name)]
    for row in rows:
        if row.number == 0:
            mentions = " ".join(f"<@{p}>" for p in row.players)
            lines.append(tr("tournament.bye_line", players=mentions))
        else:
            mentions = " ".join(f"<@{p}>" for p in row.players)
            link = homes.get(row.table_id or 0, "")
            lines.append(f"**{tr('tournament.table_no', n=row.number)}** {mentions} {link}".rstrip())
    return "\n".join(lines)


def standings_lines(t: Tournament, rows: list[Standing], tr: Lang, limit: int = STANDINGS_LINES) -> list[str]:
    lines = []
    for row in rows[:limit]:
        key = "tournament.standing_line_elim" if t.format == "elimination" else "tournament.standing_line"
        line = tr(
            key,
            rank=row.rank,
            name=t.name_of(row.player),
            points=tr("tournament.score", count=row.points, points=points_text(row.points)),
            opponents=f"{row.opponents:.2f}",
            wins=tr("tournament.first_places", count=row.wins),
            reached=row.reached,
        )
        if row.dropped:
            line += f" ({tr('tournament.status.dropped')})"
        lines.append(line)
    if len(rows) > limit:
        lines.append(tr("tournament.more", count=len(rows) - limit))
    return lines


def round_places(rows: list[Standing], results: list[dict], rounds: int) -> list[dict]:
    """Rows for the standings image: per round the place, "B" for a bye, None for no table."""
    by_player: dict[int, dict[int, object]] = {}
    for result in results:
        by_player.setdefault(result["user_id"], {})[result["round"]] = (
            "B" if result["bye"] else result["place"]
        )
    return [
        {
            "rank": row.rank,
            "points": row.points,
            "rounds": [by_player.get(row.player, {}).get(n) for n in range(1, rounds + 1)],
            "dropped": row.dropped,
        }
        for row in rows
    ]


def standings_message(
    t: Tournament, rows: list[Standing], results: list[dict], tr: Lang, final: bool, round_no: int
) -> Rendered:
    key = "tournament.final_standings" if final else "tournament.standings_after"
    embed = discord.Embed(title=tr(key, name=t.name, n=round_no), colour=COLOUR)
    lines = standings_lines(t, rows, tr)
    if final and rows:
        podium = [
            f"{medal} {t.name_of(r.player)}" for medal, r in zip(("🥇", "🥈", "🥉"), rows, strict=False)
        ]
        embed.add_field(name=tr("tournament.podium"), value="\n".join(podium), inline=False)
    embed.description = "\n".join(lines) or "—"
    embed.set_footer(text=tr("tournament.tie_breaks"))
    image = charts.standings_image(round_places(rows, results, round_no))
    embed.set_image(url="attachment://table.png")
    return Rendered(embed=embed, image=image)


def podium_message(t: Tournament, rows: list[Standing], tr: Lang) -> Rendered:
    embed = discord.Embed(title=tr("tournament.champion", name=t.name), colour=COLOUR)
    embed.description = tr("tournament.champion_text", player=f"<@{rows[0].player}>") if rows else "—"
    embed.set_image(url="attachment://table.png")
    return Rendered(embed=embed, image=charts.podium_image([r.points for r in rows[:3]]))
