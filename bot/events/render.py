"""Tournament messages: the event message and the round's announcement (the standings are in
``render_standings``, the organizer's look at a seating in ``render_preview``).

Images carry ranks, names, numbers and places; every name is also in the text beside them. In a
fixed-teams event the standings, the podium and the champion are teams. At tables of two the seat
is marked (Black and White in Othello): the bot balances it over the event.
"""

from __future__ import annotations

from collections.abc import Callable

import discord

from bot.core.games import REGISTRY
from bot.core.i18n import Lang
from bot.events import fairness as fair
from bot.events.buttons import EventButton
from bot.events.correction import Correction
from bot.events.entrants import takes_late_entries
from bot.events.render_standings import (  # noqa: F401 (the desk and commands draw them from here)
    COLOUR,
    live_message,
    podium_message,
    round_places,
    standings_lines,
    standings_message,
)
from bot.events.words import (  # noqa: F401 (re-exported)
    organizer,
    player_name,
    points_text,
    row_name,
    seat_legend,
    seated,
    team_members,
    two_seats,
    unit_size,
    winners,
)
from bot.storage.events import LogEntry, RoundTable, Tournament
from bot.tables.components import static_view
from bot.tables.render import Rendered, clock_name, timestamp

MAX_LISTED = 40


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


def table_line(
    t: Tournament, players: list[int | None], tr: Lang, name: Callable[[int | None], str] | None = None
) -> str:
    """A table's players in seat order (``name``: how each is written, by default their name); at a
    table of two, each marked with their seat."""
    shown = [name(p) if name else player_name(t, p, tr) for p in players]
    if two_seats(t) and len(shown) == 2:
        return " · ".join(seated(seat, text) for seat, text in enumerate(shown))
    return tr.join(shown, conjunction=False)


def next_round_line(t: Tournament, tr: Lang) -> str:
    """When the next round starts: once every table has finished, or when the organizer starts it
    (a round clock shows its deadline besides); nothing after the last round."""
    if t.format != "elimination" and t.round >= t.rounds:
        return tr("tournament.next.last")
    key = "tournament.next.auto" if t.auto_next else "tournament.next.manual"
    return tr(key, n=t.round + 1)


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
    organizer to confirm it, who alone sees the seating until then."""
    title = tr("tournament.title", name=t.name, game=tr(f"{t.game}.name"))
    embed = discord.Embed(title=title, colour=COLOUR)
    embed.description = tr(
        f"tournament.state.{t.status}",
        round=t.round,
        count=t.round,
        organizer=organizer(t),
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
    elif t.status == "signup":
        value = tr("tournament.starts_manual")
        if t.checkin_minutes:
            value += "\n" + tr("tournament.checkin_on_start", minutes=t.checkin_minutes)
        embed.add_field(name=tr("tournament.starts"), value=value, inline=False)
    embed.add_field(
        name=tr("tournament.entrants", count=len([e for e in t.entrants if e.status != "dropped"])),
        value=entrants_text(t, tr)[:1024],
        inline=False,
    )
    lines = []
    if pending:
        lines.append(tr("tournament.pairings_pending", n=t.round))
    else:
        for row in round_rows:
            if row.number == 0:
                names = tr.join(player_name(t, p, tr) for p in row.players)
                lines.append(tr("tournament.byes", players=names))
                continue
            mark = "✅" if row.table_id in done else "⏳"
            link = urls.get(row.table_id or 0)
            label = tr("tournament.table_no", n=row.number)
            label = f"[{label}]({link})" if link else label
            lines.append(f"{mark} {label}: " + table_line(t, row.players, tr))
        if lines and two_seats(t):
            lines.insert(0, seat_legend(t, tr))
    if lines and t.status == "running":
        if t.round_deadline and not pending:
            lines.insert(0, tr("tournament.round_ends", when=timestamp(t.round_deadline)))
        lines.append(next_round_line(t, tr))
    if lines:
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
        if takes_late_entries(t):
            items.append(
                EventButton("join", t.id, label=tr("tournament.button.join"), style=discord.ButtonStyle.success)
            )
        items.append(
            EventButton("drop", t.id, label=tr("tournament.button.drop"), style=discord.ButtonStyle.secondary)
        )
        if pending:
            items.append(
                EventButton(
                    "pairings", t.id, label=tr("tournament.button.pairings"), style=discord.ButtonStyle.primary
                )
            )
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


def correction_text(done: Correction, tr: Lang) -> str:
    """Who moved in a corrected table: each player's place before and after (names, no pings)."""
    t = done.tournament
    return tr.join(
        tr("tournament.correction.move", name=t.name_of(u), before=done.before.get(u, "?"), after=place)
        for u, place in done.after.items()
        if done.before.get(u) != place
    )


def correction_lines(t: Tournament, log: list[LogEntry], tr: Lang) -> list[str]:
    """The organizer's corrections of finished tables, as the event's log records them."""
    out = []
    for e in log:
        if e.kind != "correct":
            continue
        moves = tr.join(
            tr("tournament.correction.move", name=t.name_of(int(u)), before=e.data["before"].get(u, "?"), after=a)
            for u, a in e.data["after"].items()
            if e.data["before"].get(u) != a
        )
        out.append(tr("tournament.correction.line", round=e.round, n=e.data["table"], moves=moves, reason=e.data["reason"]))
    return out


def swap_lines(t: Tournament, log: list[LogEntry], tr: Lang, mention: bool = False) -> list[str]:
    """The organizer's swaps in the round's seating, as the event's log records them."""
    def name(user_id: int) -> str:
        return f"<@{user_id}>" if mention else t.name_of(user_id)

    return [
        tr("tournament.swapped", a=name(e.data["a"]), b=name(e.data["b"]))
        for e in log
        if e.kind == "swap" and e.round == t.round
    ]


def round_announcement(
    t: Tournament, rows: list[RoundTable], homes: dict[int, str], tr: Lang, log: list[LogEntry] | None = None
) -> str:
    """The round's tables with their players pinged; ``homes`` links each table's thread or channel;
    the organizer's swaps in its seating, if any, are said."""
    lines = [tr("tournament.round_begins", n=t.round, name=t.name)]
    if t.round_deadline:
        lines.append(tr("tournament.round_ends", when=timestamp(t.round_deadline, "F")))
    if two_seats(t):
        lines.append(seat_legend(t, tr))
    for row in rows:
        if row.number == 0:
            mentions = tr.join(f"<@{p}>" for p in row.players)
            lines.append(tr("tournament.bye_line", players=mentions))
        else:
            mentions = table_line(
                t, row.players, tr, lambda p: f"<@{p}>" if p is not None else tr("tournament.computer")
            )
            link = homes.get(row.table_id or 0, "")
            lines.append(f"**{tr('tournament.table_no', n=row.number)}** {mentions} {link}".rstrip())
    lines += swap_lines(t, log or [], tr)
    return "\n".join(lines)
