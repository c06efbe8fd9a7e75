"""The public record of a table: lines from the durable table log, each shown exactly once.

A pass of the delivery worker appends the lines past the table's ``recorded`` position to the
record's last message (or new ones), and stores the position with each message it writes, so a
pass repeated after a crash changes nothing. Which lines, and in which message, is a function of
the log alone (``record_lines``): the same however the passes fall.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.core import results
from bot.core.engine import Engine
from bot.core.games import REGISTRY
from bot.core.i18n import Lang
from bot.storage.store import Store, TableRow
from bot.tables import record_lines
from bot.tables.budget import Budgets
from bot.tables.notices import jump_url
from bot.tables.outbox import Outbox, begins
from bot.tables.pace import Pace

if TYPE_CHECKING:
    from bot.tables.service import TableService

RECORD_LIMIT = 1800
# The record is a log read after the fact (the table message and the DMs show the current and the
# last trick), so a burst of moves makes one record edit per 5 s. Kept below the process tests'
# 6 s of quiet, which must outlast any wait for a pending edit.
RECORD_PACE = 5


class Channels(Protocol):
    """Where the record is written, as the delivery worker reaches Discord."""

    def messageable(self, channel_id: int) -> discord.abc.Messageable: ...

    async def edit_message(self, channel_id: int, message_id: int, **fields: Any) -> None: ...


@dataclass(eq=False)
class Record:
    store: Store
    service: TableService
    outbox: Outbox
    budgets: Budgets
    pace: Pace
    channels: Channels
    #: table id -> record position reached by lines that showed nothing, stored at the pass's end
    recorded_later: dict[int, int] = field(default_factory=dict)

    def take_later(self, table_id: int) -> int | None:
        """The position reached by lines that showed nothing, for the pass to store as it ends."""
        return self.recorded_later.pop(table_id, None)

    def forget(self, table_id: int) -> None:
        self.recorded_later.pop(table_id, None)

    async def append(self, table: TableRow, tr: Lang) -> None:
        """Lines from the durable table log past ``recorded``, each shown exactly once."""
        store = self.store
        if table.logged <= table.recorded:
            return  # nothing in the log past what the record shows (the log is read only when there is)
        rows = await store.log_after(table.id, table.recorded)
        if not rows:
            return
        # Moves may have been committed since the pass read ``table``, and the rows may hold them:
        # the lines are drawn from the table and game read now, which hold every row (a line drawn
        # from a game behind its events would be wrong for good, like an end without its scores).
        table = await self.service.table(table.id)
        engine = await self.service.engine(table)
        units = record_lines.draw(
            rows, REGISTRY[table.game], engine.public_view(), table.seats, tr,
            lambda names: self.final_line(table, engine, names, tr),
        )
        if not units:
            return  # every row waits for a later one (a trick won, before it is taken)
        last = await store.surfaces.last_record(table.id)
        parts = record_lines.pack(last, units, RECORD_LIMIT)
        if not parts:  # lines that show nothing: stored with the pass's last write (``_refresh``)
            self.recorded_later[table.id] = units[-1].upto
            return
        # Only now, with something to show, does the record's pace count.
        self.pace.check(table, "record", RECORD_PACE)
        parts[-1].upto = units[-1].upto
        await self.pace.edited(table.id, "record")
        home = self.channels.messageable(table.home_channel_id)
        # A message sent by a pass killed before storing it is looked for among the bot's messages
        # since its intent, skipping those the record has stored (two deals can begin alike).
        known = await store.surfaces.record_ids(table.id)
        for i, part in enumerate(parts):
            if i:  # a running table's record makes one call per pace; the rest waits for the next
                self.pace.check(table, "record", RECORD_PACE)
            async with self.budgets.spending(table.home_channel_id, paced=True):
                if part.message_id is not None:  # the last message, with the lines that fit in it
                    await self.channels.edit_message(table.home_channel_id, part.message_id, content=part.text)
                    message_id = part.message_id
                else:
                    message, sent = await self.outbox.send_once(
                        table.id, f"record:{part.part}", home, table.home_channel_id, begins(part.text),
                        functools.partial(home.send, part.text, allowed_mentions=discord.AllowedMentions.none()),
                        known=known,
                    )
                    if not sent and message.content != part.text:  # sent before more lines came
                        await self.channels.edit_message(table.home_channel_id, message.id, content=part.text)
                    message_id = message.id
            # Each message is stored with the position its lines reach: a pass put off or killed
            # after it goes on from there, into the same message while it has room.
            async with store.transaction():
                await store.surfaces.set_record(table.id, part.part, part.deal, message_id, part.text)
                if part.message_id is None:
                    known.add(message_id)
                    await self.outbox.done(table.id, f"record:{part.part}")
                if part.upto is not None:
                    await store.update_table(table.id, recorded=part.upto)

    @staticmethod
    def final_line(table: TableRow, engine: Engine, names: list[str], tr: Lang) -> str:
        result = results.stored_result(table, engine)
        assert result is not None  # a final line is drawn for a game that has ended
        return results.final_line(REGISTRY[table.game], result, names, tr, jump_url(table))
