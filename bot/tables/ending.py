"""The final table's buttons: **Rematch**, **Decline** and **Rules**.

Every answer is private and in the member's language, and every refusal changes nothing (a member
not seated there, the wrong server, a rematch already started, declined or expired). The table
message follows what is committed, through the delivery worker.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot.core.errors import UserError
from bot.core.interaction import Interaction
from bot.tables.member_locale import member_lang
from bot.tables.rematch import RematchOps

if TYPE_CHECKING:
    from bot.storage.store import TableRow
    from bot.tables.desk import Desk


class EndDesk:
    def __init__(
        self,
        ops: RematchOps,
        desk: Desk,
        request: Callable[[int], None],
        rearm: Callable[[], Awaitable[None]],
    ) -> None:
        self.ops = ops
        self.desk = desk  # checks a click's table, answers and reports like every other button
        self.request = request  # the delivery worker brings a table's messages up to date
        #: Asks the clock to re-read the next due time: an offer that opens runs out in a day.
        self.rearm = rearm

    async def on_refused(self, interaction: Interaction, why: str) -> None:
        await self.desk.on_refused(interaction, why)

    async def on_end_button(self, interaction: Interaction, verb: str, table_id: int) -> None:
        await self.desk.guarded(interaction, table_id, self.answer(interaction, verb, table_id))

    async def answer(self, interaction: Interaction, verb: str, table_id: int) -> None:
        tr = member_lang(interaction)
        user_id = interaction.user.id

        def check(table: TableRow) -> None:
            self.desk.check(interaction, table)

        if verb == "rules":
            table = await self.desk.checked(interaction, table_id)
            await self.desk.send_rules(interaction, table.game)
            return
        if verb == "rematch":
            done = await self.ops.confirm(table_id, user_id, secrets.randbits(63), check=check)
            if done.new_table_id is not None:
                text = tr("rematch.done.started", id=done.new_table_id)
                self.request(done.new_table_id)  # posted where this table was
            else:
                text = tr("rematch.done.confirmed", players=" ".join(f"<@{u}>" for u in done.waiting))
        elif verb == "decline":
            await self.ops.decline(table_id, user_id, check=check)
            text = tr("rematch.done.declined")
        else:
            raise UserError("error.stale")
        self.request(table_id)
        await self.desk.reply(interaction, text)
        await self.rearm()
