"""The public record of a table: lines from the durable table log, each shown exactly once.

A mixin of ``Delivery``: a pass appends the lines past the table's ``recorded`` position to the
deal's record message (or new ones), and stores the position with what the message shows, so a
pass repeated after a crash changes nothing.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import discord

from bot.core import results
from bot.core.engine import Engine, Event
from bot.core.games import REGISTRY
from bot.core.i18n import Lang
from bot.storage.store import TableRow
from bot.tables import render
from bot.tables.notices import jump_url
from bot.tables.outbox import begins

if TYPE_CHECKING:
    from bot.tables.delivery import Delivery as _Base
else:
    _Base = object

RECORD_LIMIT = 1800
# The record is a log read after the fact (the table message and the DMs show the current and the
# last trick), so a burst of moves makes one record edit per 5 s. Kept below the process tests'
# 6 s of quiet, which must outlast any wait for a pending edit.
RECORD_PACE = 5


def chunks(lines: list[str], limit: int) -> list[str]:
    """Lines joined into texts of at most ``limit`` characters (a longer single line is cut)."""
    out: list[str] = []
    current = ""
    for line in lines:
        line = line[:limit]
        if current and len(current) + 1 + len(line) > limit:
            out.append(current)
            current = ""
        current = f"{current}\n{line}" if current else line
    if current:
        out.append(current)
    return out


class Record(_Base):
    async def append_record(self, table: TableRow, tr: Lang) -> None:
        """Lines from the durable table log past ``recorded``, each shown exactly once."""
        self.paced(table, self.record_edited, RECORD_PACE)
        rows = await self.store.log_after(table.id, table.recorded)
        if not rows:
            return
        # Moves may have been committed since the pass read ``table``, and the rows may hold them:
        # the lines are drawn from the table and game read now, which hold every row (a line drawn
        # from a game behind its events would be wrong for good, like an end without its scores).
        table = await self.service.table(table.id)
        engine = await self.service.engine(table)
        ui = REGISTRY[table.game]
        names = render.seat_names(table, tr)
        public = engine.public_view()
        lines: list[str] = []
        batch: list[Event] = []
        for row in rows:
            data = json.loads(row["data"])
            if row["kind"] == "event":
                batch.append(Event(row["code"], data))
                continue
            lines += ui.record(batch, public, names, tr)
            batch = []
            if row["kind"] == "note":
                lines.append(tr(row["code"], **ui.format_params(data, names)))
            else:
                lines.append(self.final_line(table, engine, names, tr))
        lines += ui.record(batch, public, names, tr)
        upto, deal = rows[-1]["seq"], rows[-1]["deal"]
        store = self.store
        if not lines:  # stored with the pass's last write (``_refresh``)
            self.recorded_later[table.id] = upto
            return
        last = await store.surfaces.last_record(table.id)
        await self.edited(table.id, self.record_edited, "record")
        text = "\n".join(lines)
        home = self.messageable(table.home_channel_id)
        fits = last is not None and not last["closed"] and len(last["lines"]) + len(text) < RECORD_LIMIT
        if fits:
            # The batch that ends a deal (its last trick and its summary) still belongs to that deal's
            # message, which is then closed; the next deal's lines start a new message. The edit
            # shows the stored lines plus these, so repeating it after a crash changes nothing.
            text = f"{last['lines']}\n{text}"
            async with self.spending(table.home_channel_id, paced=True):
                await self.edit_message(table.home_channel_id, last["message_id"], content=text)
            async with store.transaction():
                await store.surfaces.set_record(table.id, last["part"], last["deal"], last["message_id"], text, last["deal"] != deal)
                await store.update_table(table.id, recorded=upto)
            return
        # A long batch (a whole deal since the last edit, computers finishing a game at once) is
        # split over several messages, each stored as soon as it is sent; the position is stored with
        # the last. A pass put off or killed in between finds its last message among the same
        # pieces (every piece but the last is full, so more lines later do not change it; the last
        # only grows, so it is found by its first lines and edited) and sends the rest.
        part = last["part"] if last else 0
        pieces = chunks(lines, RECORD_LIMIT)
        full = pieces[:-1]  # the same pieces whatever lines come later
        first = full.index(last["lines"]) + 1 if last is not None and last["lines"] in full else 0
        # Stored messages are skipped: two deals can begin with the same trick line.
        known = await store.surfaces.record_ids(table.id)
        for i, chunk in enumerate(pieces[first:], first):
            async with self.spending(table.home_channel_id, paced=True):
                part += 1
                message, sent = await self.outbox.send_once(
                    table.id, f"record:{part}", home, table.home_channel_id, begins(chunk),
                    lambda chunk=chunk: home.send(chunk, allowed_mentions=discord.AllowedMentions.none()),
                    known=known,
                )
                if not sent and message.content != chunk:  # sent before more lines came: show them
                    await self.edit_message(table.home_channel_id, message.id, content=chunk)
            async with store.transaction():
                await store.surfaces.set_record(table.id, part, deal, message.id, chunk)
                known.add(message.id)
                await self.outbox.done(table.id, f"record:{part}")
                if i == len(pieces) - 1:
                    await store.update_table(table.id, recorded=upto)

    @staticmethod
    def final_line(table: TableRow, engine: Engine, names: list[str], tr: Lang) -> str:
        result = results.stored_result(table, engine)
        return results.final_line(REGISTRY[table.game], result, names, tr, jump_url(table))
