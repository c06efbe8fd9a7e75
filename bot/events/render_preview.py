"""The organizer's look at a round's seating before its tables open: shown to them alone (an
ephemeral answer), with the buttons to confirm it or seat it again. Each table lists its players
in seat order with their points; at tables of two the seat each gets, and a warning where it is
not the one they were due; the tablemates who met before; the byes; the swaps made so far. Above
them, how many tables of each size the round has, so a short table is no surprise."""

from __future__ import annotations

from collections import Counter

import discord

from bot.core.i18n import Lang
from bot.events.buttons import EventButton
from bot.events.controls import Pairings
from bot.events.render_standings import COLOUR
from bot.events.words import player_name, points_text, seat_legend, seat_name, seated, two_seats
from bot.tables.components import static_view
from bot.tables.render import Rendered

MAX_CHARS = 3900  # an embed's description holds 4096


def pairings_message(look: Pairings, tr: Lang) -> Rendered:
    t = look.tournament

    def named(player: int | None) -> str:
        if player is None:
            return player_name(t, player, tr)
        points = look.points.get(player, 0.0)
        score = tr("tournament.score", count=points, points=points_text(points))
        return tr("tournament.preview.player", player=t.name_of(player), points=score)

    lines = [tr("tournament.preview.intro")]
    if two_seats(t):
        lines.append(seat_legend(t, tr))
    sizes = Counter(len(row.players) for row in look.tables if row.number)
    if sizes:
        counted = (tr("tournament.preview.size", count=n, size=size) for size, n in sorted(sizes.items(), reverse=True))
        lines.append(tr("tournament.preview.sizes", sizes=tr.join(counted)))
    blocks = []
    repeats = 0
    for row in look.tables:
        if row.number == 0:
            blocks.append([tr("tournament.byes", players=tr.join(named(p) for p in row.players))])
            continue
        shown = [named(p) for p in row.players]
        if two_seats(t) and len(shown) == 2:
            players = " · ".join(seated(seat, text) for seat, text in enumerate(shown))
        else:
            players = tr.join(shown, conjunction=False)
        block = [f"**{tr('tournament.table_no', n=row.number)}** {players}"]
        for seat, player in enumerate(row.players):
            due = look.due.get(player, seat) if player is not None else seat
            if player is not None and due != seat:
                due_seat = seated(due, seat_name(t, due, tr))
                block.append(tr("tournament.preview.not_due", player=t.name_of(player), seat=due_seat))
        for again in look.repeats.get(row.number, []):
            repeats += 1
            block.append(
                tr(
                    "tournament.preview.repeat",
                    a=t.name_of(again.a),
                    b=t.name_of(again.b),
                    rounds=tr.join([str(n) for n in again.rounds]),
                    count=len(again.rounds),
                )
            )
        blocks.append(block)
    if not repeats and t.round > 1:
        lines.append(tr("tournament.preview.no_repeats"))
    for entry in look.swaps:
        lines.append(tr("tournament.swapped", a=t.name_of(entry.data["a"]), b=t.name_of(entry.data["b"])))
    text = "\n".join(lines)
    for i, block in enumerate(blocks):
        more = "\n\n" + "\n".join(block)
        if len(text) + len(more) > MAX_CHARS:
            text += "\n\n" + tr("tournament.preview.more", count=len(blocks) - i)
            break
        text += more
    embed = discord.Embed(title=tr("tournament.preview.title", n=t.round, name=t.name), colour=COLOUR)
    embed.description = text
    items = [
        EventButton("confirm", t.id, label=tr("tournament.button.confirm"), style=discord.ButtonStyle.success),
        EventButton("repair", t.id, label=tr("tournament.button.repair"), style=discord.ButtonStyle.secondary),
    ]
    return Rendered(embed=embed, view=static_view(*items))
