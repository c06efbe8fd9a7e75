"""Commands that belong to every table, whatever the game: /table, /mygames, /notifications."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.core.errors import UserError
from bot.core.i18n import Lang
from bot.core.interaction import Interaction
from bot.core.translator import command
from bot.storage.notices import DEFAULT_MODE
from bot.tables import render
from bot.tables.member_locale import member_lang
from bot.tables.notices import jump_url

if TYPE_CHECKING:
    from bot.storage.store import Store, TableRow
    from bot.tables.delivery import Delivery
    from bot.tables.desk import Desk
    from bot.tables.seat_ops import SeatOps


class TableCommands(
    commands.GroupCog,
    group_name=locale_str("table", key="cmd.table.name"),
    group_description=locale_str("Manage the table in this channel", key="cmd.table.description"),
):
    def __init__(self, store: Store, seat_ops: SeatOps, delivery: Delivery, desk: Desk) -> None:
        self.store = store
        self.seat_ops = seat_ops
        self.delivery = delivery
        self.desk = desk  # answers every interaction, whatever happens

    async def here(self, interaction: Interaction) -> TableRow:
        tables = await self.store.tables_here(interaction.channel_id or 0)
        if not tables:
            raise UserError("error.no_table_here")
        return tables[0]

    async def run(self, interaction: Interaction, work: Callable[[TableRow], Awaitable[str]]) -> None:
        async def guarded() -> None:
            table = await self.here(interaction)
            text = await work(table)
            await interaction.response.send_message(text, ephemeral=True)
            await self.delivery.refresh(table.id)

        await self.desk.guarded(interaction, None, guarded())

    @command(
        "cmd.table.pause",
        "Host: pause the table; the clock stops for everyone",
    )
    async def pause(self, interaction: Interaction) -> None:
        await self.set_paused(interaction, True)

    @command(
        "cmd.table.resume",
        "Host: resume a paused table",
    )
    async def resume(self, interaction: Interaction) -> None:
        await self.set_paused(interaction, False)

    async def set_paused(self, interaction: Interaction, paused: bool) -> None:
        async def work(table: TableRow) -> str:
            await self.seat_ops.pause(table.id, interaction.user.id, paused)
            return member_lang(interaction)("table_cmd.paused" if paused else "table_cmd.resumed")

        await self.run(interaction, work)

    @command(
        "cmd.table.replace",
        "Host: hand an empty or abandoned seat to a member",
        seat="Seat number as shown at the table (1 = first)",
        member="Who takes the seat",
    )
    async def replace(
        self, interaction: Interaction, seat: app_commands.Range[int, 1, 8], member: discord.Member
    ) -> None:
        async def work(table: TableRow) -> str:
            name = member.display_name
            await self.seat_ops.replace(table.id, interaction.user.id, seat - 1, (member.id, name))
            return member_lang(interaction)("table_cmd.replaced", player=name, seat=seat)

        await self.run(interaction, work)

    @command(
        "cmd.table.abandon",
        "Host: end this table without a result",
    )
    async def abandon(self, interaction: Interaction) -> None:
        async def work(table: TableRow) -> str:
            await self.seat_ops.abandon(table.id, interaction.user.id)
            return member_lang(interaction)("table_cmd.abandoned")

        await self.run(interaction, work)


class PlayerCommands(commands.Cog):
    def __init__(self, client: discord.Client, store: Store, grace: int) -> None:
        self.client = client  # the servers' names
        self.store = store
        self.grace = grace  # how long a turn waits before its player is told (``notice_grace``)

    @command(
        "cmd.mygames",
        "Your open tables in every server, with whose turn it is",
    )
    async def mygames(self, interaction: Interaction) -> None:
        tr = member_lang(interaction)
        tables = await self.store.tables_of_user(interaction.user.id)
        if not tables:
            await interaction.response.send_message(tr("mygames.none"), ephemeral=True)
            return
        lines = [self.line(table, interaction.user.id, tr) for table in tables[:20]]
        embed = discord.Embed(title=tr("mygames.title"), description="\n".join(lines), colour=0x5865F2)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    def line(self, table: TableRow, user_id: int, tr: Lang) -> str:
        guild = self.client.get_guild(table.guild_id) if table.guild_id else None
        where = f"{guild.name} <#{table.home_channel_id}>" if guild else f"<#{table.home_channel_id}>"
        if table.status == "lobby":
            status, turn = tr("mygames.lobby"), ""
        else:
            status = tr("mygames.paused") if table.paused else tr("mygames.running")
            seat = table.seat_of(user_id)
            waiting = [table.seats[s] for s in table.turn_seats]
            if seat in table.turn_seats:
                turn = tr("mygames.your_turn")
            else:
                turn = tr(
                    "mygames.waiting", players=tr.join(render.seat_name(s, tr) for s in waiting) or "—"
                )
        return tr(
            "mygames.line",
            game=tr(f"{table.game}.name"),
            id=table.id,
            where=where,
            status=status,
            turn=turn,
            clock=render.clock_text(table, tr),
            url=jump_url(table),
        )

    @command(
        "cmd.notifications",
        "When to tell you it is your turn: always, only when your turn waits, or never",
        mode="Always, only when your turn waits (the default) or never; leave it out to see your choice",
        challenges="Whether members may invite you to their tables (challenges)",
    )
    @app_commands.choices(
        mode=[
            app_commands.Choice(
                name=locale_str("Always, as soon as my turn starts", key="cmd.notifications.mode.always"), value="always"
            ),
            app_commands.Choice(
                name=locale_str("Only when my turn waits (the default)", key="cmd.notifications.mode.away"), value="away"
            ),
            app_commands.Choice(name=locale_str("Never", key="cmd.notifications.mode.never"), value="never"),
        ],
        challenges=[
            app_commands.Choice(
                name=locale_str("Accept challenges (the default)", key="cmd.notifications.challenges.accept"),
                value="accept",
            ),
            app_commands.Choice(
                name=locale_str("Refuse challenges", key="cmd.notifications.challenges.refuse"), value="refuse"
            ),
        ],
    )
    async def notifications(
        self, interaction: Interaction, mode: str | None = None, challenges: str | None = None
    ) -> None:
        tr = member_lang(interaction)
        user_id = interaction.user.id
        lines = []
        if mode is not None:
            await self.store.notices.set_mode(user_id, mode)
            lines.append(self.explain(mode, tr))
        if challenges is not None:
            await self.store.invitations.set_challenges(user_id, challenges == "accept")
            lines.append(tr(f"settings.challenges_{challenges}"))
        if not lines:
            chosen = (await self.store.notices.modes([user_id])).get(user_id, DEFAULT_MODE)
            refusing = user_id in await self.store.invitations.refusing([user_id])
            lines.append(tr("settings.notices_now", setting=self.explain(chosen, tr)))
            lines.append(tr("settings.challenges_refuse" if refusing else "settings.challenges_accept"))
        await interaction.response.send_message("\n\n".join(lines), ephemeral=True)

    def explain(self, mode: str, tr: Lang) -> str:
        return tr(f"settings.notices_{mode}", grace=render.clock_name(self.grace, tr))
