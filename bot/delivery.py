"""Showing committed state in Discord: the table message, the public record, and hands by DM.

Everything here renders the current stored state, so it can run again after a crash or restart
without repeating anything: a DM is sent once per deal and then edited, the record message of a
deal is edited as lines are added, and the table message is edited in place.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections import defaultdict
from typing import TYPE_CHECKING

import discord

from bot import render, results
from bot.games import REGISTRY
from bot.i18n import Lang
from bot.storage import TableRow

if TYPE_CHECKING:
    from bot.app import TabletopBot

log = logging.getLogger(__name__)
RECORD_LIMIT = 1800
TABLE_MESSAGE = -1  # key of the table message in ``shown`` (seats are 0..n-1)
DM_CLOSED = 50007


def jump_url(table: TableRow) -> str:
    guild = table.guild_id or "@me"
    return f"https://discord.com/channels/{guild}/{table.channel_id}/{table.message_id}"


def fingerprint(rendered: render.Rendered) -> str:
    embed = rendered.embed.to_dict() if rendered.embed else {}
    view = rendered.view.to_components() if rendered.view else []
    image = hashlib.sha1(rendered.image).hexdigest() if rendered.image else None
    return hashlib.sha1(
        json.dumps([rendered.content, embed, view, image], sort_keys=True).encode()
    ).hexdigest()


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


class Delivery:
    def __init__(self, bot: TabletopBot) -> None:
        self.bot = bot
        self.locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.shown: dict[tuple[int, int], str] = {}

    @property
    def service(self):
        return self.bot.service

    def messageable(self, channel_id: int) -> discord.abc.Messageable:
        return self.bot.get_channel(channel_id) or self.bot.get_partial_messageable(channel_id)

    async def refresh(self, table_id: int) -> None:
        """Bring every Discord view of the table up to the stored state."""
        async with self.locks[table_id]:
            table = await self.service.table(table_id)
            tr = Lang(table.language)
            public = None
            if table.status == "cancelled":
                await self.edit_table_message(table, render.closed(table, tr))
            elif table.status == "lobby":
                await self.edit_table_message(table, render.lobby(table, tr))
            else:
                engine = await self.service.engine(table)
                public = engine.public_view()
                await self.edit_table_message(table, render.table_message(table, engine, tr))
                await self.append_record(table, engine, tr)
                for seat in table.seats:
                    if not seat.is_computer:
                        await self.deliver_hand(table, engine, seat.position, tr)
            if table.speech:
                await self.bot.speech.sync(table, public)
            if table.status == "running" and table.clock and table.pinged_turn < table.turn_no:
                await self.ping_turn(table)
            if table.dirty or table.status == "running":
                await self.service.store.update_table(table.id, dirty=0)
        if table.status in ("finished", "cancelled") and not table.settled:
            await self.settle(table)
        await self.bot.scheduler.rearm()

    async def settle(self, table: TableRow) -> None:
        """After a table ends: its rating change, then its tournament result (each recorded once)."""
        if table.rated or table.tournament_id is not None:
            ratings = self.bot.tournaments.ratings
            if await ratings.settle(table):
                changes = await ratings.changes(table.id)
                if changes:
                    tr = Lang(table.language)
                    parts = [
                        tr("rating.change", name=n, before=b, after=a, delta=f"{a - b:+d}")
                        for n, b, a in changes
                    ]
                    home = self.messageable(table.home_channel_id)
                    await home.send(
                        tr("rating.changes", changes=" · ".join(parts))[:2000],
                        allowed_mentions=discord.AllowedMentions.none(),
                    )
        if table.tournament_id is not None:
            await self.bot.tournaments.table_finished(table)

    async def edit_table_message(self, table: TableRow, rendered: render.Rendered) -> None:
        """Edit the table message, unless it already shows exactly this."""
        key = fingerprint(rendered)
        if not table.message_id or self.shown.get((table.id, TABLE_MESSAGE)) == key:
            return
        message = self.messageable(table.channel_id).get_partial_message(table.message_id)
        try:
            await message.edit(**rendered.edit_kwargs())
        except discord.NotFound:
            log.warning("table %s: its message is gone", table.id)
            return
        self.shown[(table.id, TABLE_MESSAGE)] = key

    async def append_record(self, table: TableRow, engine, tr: Lang) -> None:
        ui = REGISTRY[table.game]
        names = render.seat_names(table, tr)
        events = self.service.drain_events(table.id)
        lines = ui.record(events, engine.public_view(), names, tr)
        lines += [
            tr(note.key, **ui.format_params(note.params, names))
            for note in self.service.drain_notes(table.id)
        ]
        if table.status == "finished":
            lines.append(self.final_line(table, engine, names, tr))
        if not lines:
            return
        last = await self.service.store.last_record(table.id)
        deal = engine.deal_number
        text = "\n".join(lines)
        home = self.messageable(table.home_channel_id)
        fits = last is not None and not last["closed"] and len(last["lines"]) + len(text) < RECORD_LIMIT
        if fits:
            # The batch that ends a deal (its last trick and its summary) still belongs to that deal's
            # message, which is then closed; the next deal's lines start a new message.
            text = f"{last['lines']}\n{text}"
            await home.get_partial_message(last["message_id"]).edit(content=text)
            closed = last["deal"] != deal
            await self.service.store.set_record(
                table.id, last["part"], last["deal"], last["message_id"], text, closed
            )
        else:
            # A long batch (computers finishing a whole game at once) is split over several messages.
            part = last["part"] if last else 0
            for chunk in chunks(lines, RECORD_LIMIT):
                message = await home.send(chunk, allowed_mentions=discord.AllowedMentions.none())
                part += 1
                await self.service.store.set_record(table.id, part, deal, message.id, chunk)

    @staticmethod
    def final_line(table: TableRow, engine, names: list[str], tr: Lang) -> str:
        result = results.stored_result(table, engine)
        return results.final_line(REGISTRY[table.game], result, names, tr, jump_url(table))

    async def deliver_hand(self, table: TableRow, engine, seat: int, tr: Lang) -> None:
        """One DM per deal per player, edited as the hand changes."""
        deal = engine.deal_number
        store = self.service.store
        row = await store.delivery(table.id, seat, deal)
        if row is not None and row["failed"]:
            return
        mine = await self.bot.languages.lang(table.seats[seat].user_id, table.language)
        header = mine("dm.header", url=jump_url(table))
        rendered = render.prompt_message(table, engine, seat, mine, header=header)
        key = fingerprint(rendered)
        if row is not None and self.shown.get((table.id, seat)) == key:
            return
        try:
            if row is not None:
                partial = self.bot.get_partial_messageable(
                    row["channel_id"], type=discord.ChannelType.private
                )
                await partial.get_partial_message(row["message_id"]).edit(**rendered.edit_kwargs())
            else:
                user = self.bot.get_user(table.seats[seat].user_id) or await self.bot.fetch_user(
                    table.seats[seat].user_id
                )
                message = await user.send(**rendered.send_kwargs())
                await store.set_delivery(table.id, seat, deal, message.channel.id, message.id, False)
        except discord.HTTPException as exc:
            if row is None and (exc.code == DM_CLOSED or isinstance(exc, discord.Forbidden)):
                await self.dm_failed(table, seat, deal, tr)
                return
            log.warning("table %s seat %s: DM update failed: %s", table.id, seat, exc)
            return
        self.shown[(table.id, seat)] = key

    async def dm_failed(self, table: TableRow, seat: int, deal: int, tr: Lang) -> None:
        store = self.service.store
        told_before = await store.any_failed_delivery(table.id, seat)
        await store.set_delivery(table.id, seat, deal, None, None, True)
        if not told_before:
            mention = f"<@{table.seats[seat].user_id}>"
            await self.messageable(table.home_channel_id).send(
                tr("dm.closed", player=mention, button=tr("button.my_hand")),
                allowed_mentions=discord.AllowedMentions(users=True),
            )

    async def ping_turn(self, table: TableRow) -> None:
        """Once per turn: a mention at the table and, if the player wants it, a DM."""
        await self.service.store.update_table(table.id, pinged_turn=table.turn_no)
        waiting = [table.seats[s] for s in table.ping_seats if s in table.turn_seats]
        await self.call_players(table, waiting, "clock.turn_ping", "clock.turn_dm")

    async def remind(self, table: TableRow) -> None:
        """Once per move clock: the players still waited for are told time is running out."""
        await self.service.store.update_table(table.id, remind_at=None)
        waiting = [table.seats[s] for s in table.turn_seats if not table.seats[s].played_by_computer]
        await self.call_players(table, waiting, "clock.reminder", "clock.reminder_dm")

    async def call_players(self, table: TableRow, seats, table_key: str, dm_key: str) -> None:
        if not seats:
            return
        tr = Lang(table.language)
        when = render.timestamp(table.deadline)
        mentions = ", ".join(f"<@{s.user_id}>" for s in seats)
        await self.messageable(table.home_channel_id).send(
            tr(table_key, players=mentions, when=when), allowed_mentions=discord.AllowedMentions(users=True)
        )
        await self.dm_players(table, seats, dm_key, when)

    async def dm_players(self, table: TableRow, seats, key: str, when: str) -> None:
        for seat in seats:
            if not await self.service.store.turn_dms(seat.user_id):
                continue
            tr = await self.bot.languages.lang(seat.user_id, table.language)
            try:
                user = self.bot.get_user(seat.user_id) or await self.bot.fetch_user(seat.user_id)
                await user.send(
                    tr(key, game=tr(f"{table.game}.name"), id=table.id, url=jump_url(table), when=when)
                )
            except discord.HTTPException:
                pass

    async def recover(self) -> None:
        """After a start-up: redraw tables whose last change may not have reached Discord."""
        for table in await self.service.store.dirty_tables():
            if table.game in REGISTRY:
                try:
                    await self.refresh(table.id)
                except Exception:
                    log.exception("table %s: recovery failed", table.id)
