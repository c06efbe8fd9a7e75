"""The table's **?** button: what the marks on the table mean and why a card is greyed, answered
privately in the member's language.

The marks are those the table shows now (``TableView.legend``, the same list the legend line under
the table is drawn from), each explained at length. Greyed cards are explained for the game, and,
for a member seated there, the reasons for their own greyed choices at this moment, which no one
else may read.
"""

from __future__ import annotations

import discord

from bot.core.engine import Engine
from bot.core.errors import UserError
from bot.core.games import REGISTRY
from bot.core.i18n import Lang
from bot.core.interaction import Interaction
from bot.storage.store import TableRow
from bot.tables import render
from bot.tables.desk import Desk
from bot.tables.in_time import send_private
from bot.tables.member_locale import member_lang
from bot.tables.service import TableService

COLOUR = 0x5865F2


def seat_notes(table: TableRow, tr: Lang) -> list[str]:
    """What the seat list says about who plays a seat, where this table has such seats."""
    notes = [tr("help.seat.computer")] if any(s.is_computer for s in table.seats) else []
    for seat in table.seats:
        label = render.seat_label(seat, tr)
        if seat.away and not seat.is_computer:
            notes.append(tr("help.seat.away", label=label, player=seat.name))
        elif seat.replaced is not None and not seat.is_computer:
            was = render.former_name(seat.replaced, seat.position, tr)
            notes.append(tr("help.seat.replaced", label=label, player=seat.name, was=was))
    return notes


def answer(table: TableRow, engine: Engine, seat: int | None, tr: Lang) -> discord.Embed:
    """The **?** answer: the marks shown now, the seat list's notes, and greyed cards (with the
    reasons for ``seat``'s own greyed choices, when a seated member asks during play)."""
    ui = REGISTRY[table.game]
    view = render.public_table(table, engine, tr)

    def own(key: str, **params: str) -> str:
        """The game's own words where it has them: Othello's discs are not greyed cards."""
        game_key = f"{table.game}.{key}"
        return tr(game_key if tr.has(game_key) else key, **params)

    marks = [f"• {tr(f'{key}.long')}" for key in view.legend] + [f"• {n}" for n in seat_notes(table, tr)]
    parts = [f"**{tr('help.marks')}**", "\n".join(marks) or tr("help.no_marks")]
    parts += ["", f"**{own('help.greyed_title')}**", tr(f"{table.game}.help.greyed")]
    if seat is not None and table.status == "running" and not engine.is_terminal():
        if seat in engine.to_act():
            reasons = ui.greyed(engine, seat, render.seat_names(table, tr), tr) or [tr("help.none_greyed")]
        else:
            reasons = [own("help.not_your_turn")]
        parts += ["", tr("help.yours"), *(f"• {r}" for r in reasons)]
    title = own("help.title", table=render.game_title(table, tr))
    return discord.Embed(title=title, description="\n".join(parts), colour=COLOUR)


class Legend:
    """Answers the **?** of a table message."""

    def __init__(self, service: TableService, desk: Desk) -> None:
        self.service = service
        self.desk = desk

    async def on_help(self, interaction: Interaction, table_id: int) -> None:
        await self.desk.guarded(interaction, table_id, self._help(interaction, table_id))

    async def _help(self, interaction: Interaction, table_id: int) -> None:
        table = await self.desk.checked(interaction, table_id)
        if table.seed is None:  # a lobby, or a table cancelled in it, has no ?: a forged click
            raise UserError("error.unknown_button")
        engine = await self.service.engine(table)
        embed = answer(table, engine, table.seat_of(interaction.user.id), member_lang(interaction))
        await send_private(interaction, embed=embed)

    async def on_refused(self, interaction: Interaction, why: str) -> None:
        await self.desk.on_refused(interaction, why)
