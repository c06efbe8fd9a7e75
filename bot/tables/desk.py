"""Where interactions meet tables: lobby buttons, hands and moves, and errors (opening a table is
``opening.Opening``).

This is the Discord side only: the change itself is checked and committed by the move service
(``moves.py``), which every front end calls; here the interaction is acknowledged in time and
answered, and the click's token kept. Every reply to a member is ephemeral and in that member's
language; every refusal changes nothing.
"""

from __future__ import annotations

import contextlib
import inspect
import logging
import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.core import faults
from bot.core.engine import Engine, IllegalAction
from bot.core.errors import UserError
from bot.core.games import REGISTRY
from bot.core.i18n import Lang
from bot.core.interaction import Interaction
from bot.core.mentions import pinging
from bot.tables import render
from bot.tables.computer_levels import ask_level
from bot.tables.deferred import Deferred, check_place
from bot.tables.delivery import TABLE_MESSAGE, fingerprint
from bot.tables.in_time import (
    NETWORK_ERRORS,
    Arrivals,
    acknowledge,
    answer_surely,
    in_time,
    send_private,
    update,
)
from bot.tables.member_locale import MemberLanguages, member_lang
from bot.tables.notices import jump_url
from bot.tables.opening import display
from bot.tables.service import TableService
from bot.tables.talk import with_said

if TYPE_CHECKING:
    from bot.storage.store import TableRow
    from bot.tables.delivery import Delivery
    from bot.tables.moves import Lobby, Moves

log = logging.getLogger(__name__)

UNKNOWN_INTERACTION = 10062  # the interaction expired: it can no longer be answered


class Desk:
    def __init__(
        self,
        service: TableService,
        moves: Moves,
        delivery: Delivery,
        arrivals: Arrivals,
        languages: MemberLanguages,
        deferred: Deferred,
    ) -> None:
        self.service = service
        self.moves = moves  # every change a member makes enters here; this answers it in Discord
        self.deferred = deferred  # a move's click whose answer is deferred, stored till answered
        self.delivery = delivery
        self.arrivals = arrivals
        self.languages = languages

    async def lang_of(self, user_id: int | None, default: str) -> Lang:
        """The language of a member's private messages when no interaction carries it: the one their
        last interaction carried (bot.tables.member_locale), else ``default`` (the table's)."""
        return await self.languages.lang(user_id, default)

    async def checked(self, interaction: Interaction, table_id: int) -> TableRow:
        """The table, if this interaction may touch it: from the table's own server, or from the DM
        of a member seated there. A forged id from elsewhere changes nothing."""
        table = await self.service.table(table_id)
        self.check(interaction, table)
        return table

    @staticmethod
    def check(interaction: Interaction, table: TableRow) -> None:
        """``checked`` on a table already read."""
        check_place(interaction.guild_id, interaction.user.id, table)

    # ---- replies ----------------------------------------------------------------------------
    async def reply(self, interaction: Interaction, text: str) -> None:
        await send_private(interaction, content=text)

    async def guarded(
        self,
        interaction: Interaction,
        table_id: int | None,
        work: Awaitable[None],
        deferring: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        """Run ``work``, acknowledged in time (``in_time.py``; ``deferring`` runs before a
        deferral); turn every failure into a specific ephemeral message."""
        with self.arrivals.handled():  # a shutdown waits for it
            if self.arrivals.closing:
                await self.refuse_while_closing(interaction, work)
                return
            try:
                await in_time(interaction, self.arrivals.left(interaction), work, deferring)
            except Exception as exc:
                await self.report(interaction, table_id, exc)

    async def refuse_while_closing(self, interaction: Interaction, work: Awaitable[None]) -> None:
        """The bot is stopping: nothing new starts (the member is told, if Discord still listens)."""
        if inspect.iscoroutine(work):
            work.close()
        with contextlib.suppress(Exception):  # discord.py's HTTP client may be closing too
            await self.reply(interaction, member_lang(interaction)("error.restarting"))

    async def report(
        self, interaction: Interaction, table_id: int | None, exc: BaseException
    ) -> None:
        """Tell the member what went wrong; an unexpected error is logged under an id they see."""
        tr = member_lang(interaction)
        if isinstance(exc, UserError):
            await self.reply(interaction, tr(exc.key, **exc.params))
        elif isinstance(exc, IllegalAction):
            await self.reply(interaction, await self.illegal_text(table_id, exc, tr))
        elif isinstance(exc, discord.Forbidden):
            log.warning("missing permission: %s", exc)
            await self.reply(interaction, tr("error.bot_forbidden"))
        elif isinstance(exc, discord.NotFound) and exc.code == UNKNOWN_INTERACTION:
            # Discord gave up on the click (no answer within 3 s: the process was overloaded); nothing
            # can answer it now. A move it made is committed, and the worker shows it.
            log.warning("table %s: a click expired before it was answered", table_id)
        else:
            error_id = secrets.token_hex(4)
            log.error("unexpected error %s (table %s)", error_id, table_id, exc_info=exc)
            if table_id is not None:
                self.service.forget(table_id)
            try:
                await self.reply(interaction, tr("error.unexpected", id=error_id))
            except discord.HTTPException:
                pass

    async def illegal_text(self, table_id: int | None, exc: IllegalAction, tr: Lang) -> str:
        if table_id is None:
            return tr(f"error.{exc.code}", **exc.params)
        table = await self.service.table(table_id)
        return render.refusal(table.game, exc, render.seat_names(table, tr), tr)

    async def send_rules(self, interaction: Interaction, game: str) -> None:
        """The game's rules, privately, in the member's language (``/<game> rules``, **Rules**)."""
        tr = member_lang(interaction)
        ui = REGISTRY[game]
        embed = discord.Embed(title=tr(f"{game}.name"), colour=0x2F7D4F)
        for heading, text in ui.rules(tr):
            embed.add_field(name=heading, value=text, inline=False)
        await send_private(interaction, embed=embed)

    # ---- buttons ----------------------------------------------------------------------------
    async def on_table_button(self, interaction: Interaction, verb: str, table_id: int) -> None:
        await self.guarded(interaction, table_id, self._table_button(interaction, verb, table_id))

    async def _table_button(self, interaction: Interaction, verb: str, table_id: int) -> None:
        user = interaction.user
        moves = self.moves
        table = await self.checked(interaction, table_id)
        if verb == "hand":
            await self.show_hand(interaction, table_id)
            return
        if verb == "bot":
            await ask_level(self, interaction, table)
            return
        async with self.showing_table(interaction, table):
            if verb == "join":
                changed = await moves.join(table_id, user.id, display(user))
            elif verb == "leave":
                changed = await moves.leave(table_id, user.id)
            elif verb == "cancel":
                changed = await moves.cancel(table_id, user.id)
            elif verb == "start":
                changed = await moves.start(table_id, user.id)
            else:
                raise UserError("error.stale")
            await self.answer_lobby(interaction, changed, verb)

    def showing_table(self, interaction: Interaction, table: TableRow) -> contextlib.AbstractAsyncContextManager[None]:
        """While inside, the click's answer is to show the table message (it was clicked there):
        the delivery worker waits for it rather than drawing the message too."""
        if not self.on_table_message(interaction, table):
            return contextlib.nullcontext()
        return self.delivery.answers.answering(table.id, TABLE_MESSAGE)

    async def answer_lobby(self, interaction: Interaction, changed: Lobby, done: str) -> None:
        """The table message as a lobby change left it: the lobby, the closed table, or the game
        the change started."""
        table, tr = changed.table, Lang(changed.table.language)
        if changed.engine is not None:
            page = await self.delivery.hooks.table_page(table)  # drawn as the delivery worker draws it
            await self.answer(interaction, table, render.table_message(table, changed.engine, tr, page=page, launch=self.delivery.launch), "start")
        elif table.status == "cancelled":
            await self.answer(interaction, table, render.closed(table, tr), "cancel")
        else:
            await self.answer(interaction, table, render.lobby(table, tr, self.delivery.launch), done)

    async def answer(
        self, interaction: Interaction, table: TableRow, rendered: render.Rendered, done: str
    ) -> None:
        """Redraw the table message in place when it was clicked; otherwise (a Join announcement
        elsewhere) confirm privately: the delivery worker, asked by the move service, redraws it."""
        if self.on_table_message(interaction, table):
            await update(interaction, **rendered.edit_kwargs())
            await self.delivery.mark(table.id, TABLE_MESSAGE, fingerprint(rendered), clicked=True)
            await self.delivery.drawn(table)
        else:
            await self.reply(interaction, member_lang(interaction)(f"lobby.done.{done}", id=table.id, url=jump_url(table)))

    @staticmethod
    def on_table_message(interaction: Interaction, table: TableRow) -> bool:
        return interaction.message is not None and interaction.message.id == table.message_id

    async def on_kick(self, interaction: Interaction, table_id: int, position: int) -> None:
        async def work() -> None:
            table = await self.checked(interaction, table_id)
            async with self.showing_table(interaction, table):
                changed = await self.moves.remove(table_id, interaction.user.id, position)
                await self.answer_lobby(interaction, changed, "join")

        await self.guarded(interaction, table_id, work())

    async def on_setting(
        self, interaction: Interaction, table_id: int, what: str, value: str
    ) -> None:
        async def work() -> None:
            table = await self.checked(interaction, table_id)
            chosen: int | str | None
            if what == "clock":
                setting, chosen = "clock", (int(value) or None) if value.isdigit() else -1
            else:
                setting, chosen = {"lang": "language", "tmo": "on_timeout"}.get(what, what), value
            async with self.showing_table(interaction, table):
                changed = await self.moves.configure(table_id, interaction.user.id, setting, chosen)
                await self.answer_lobby(interaction, changed, "join")

        await self.guarded(interaction, table_id, work())

    async def show_hand(self, interaction: Interaction, table_id: int) -> None:
        table = await self.checked(interaction, table_id)
        if table.status != "running":
            raise UserError("error.table_closed")
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise UserError("error.not_seated")
        engine = await self.service.engine(table)
        rendered = render.prompt_message(table, engine, seat, member_lang(interaction))
        await send_private(interaction, **rendered.send_kwargs())

    async def on_act(
        self, interaction: Interaction, table_id: int, version: int, action: str
    ) -> None:
        """A move's click. If its answer must be deferred, the click is stored first, and deleted
        once answered: if this process dies meanwhile, another one finishes it (``deferred.py``)."""
        click = self.deferred.click(interaction, table_id, version, action)
        await self.guarded(interaction, table_id, self._act(interaction, table_id, version, action), click.deferring)
        await click.answered()

    async def _act(self, interaction: Interaction, table_id: int, version: int, action: str) -> None:
        """The move goes through the move service, then is answered in one call: the clicked hand
        is redrawn in the interaction response; every other surface follows through the delivery
        worker, which the move service asked."""
        in_dm = interaction.guild_id is None
        token = self.delivery.tokens.of(interaction)
        user_id = interaction.user.id

        async def keep_token(table: TableRow, engine: Engine, seat: int) -> None:
            # Its token may redraw this DM, or this private hand, when the member's turn comes back.
            if token is not None and not self.on_table_message(interaction, table):
                await self.delivery.tokens.keep(token, table, engine, seat, private=not in_dm)
            await faults.point("click.before_commit")

        await faults.point("click.before_move")
        # A click on a DM is answered by redrawing that DM: the worker leaves it to the answer.
        showing = self.delivery.answers.answering(table_id, user_id) if in_dm else contextlib.nullcontext()
        async with showing:
            # Checked on the row the move reads under the table's lock: one read of the table, not two.
            played = await self.moves.play(
                table_id, user_id, version, action, check=lambda t: self.check(interaction, t), also=keep_token,
                request=str(interaction.id),
            )
            table, engine, seat = played.table, played.engine, played.seat
            await faults.point("click.before_answer")
            tr = member_lang(interaction)  # a DM follows its member's language, like an ephemeral answer
            answered = False
            try:
                if self.on_table_message(interaction, table):
                    answered = await answer_surely(interaction, lambda: acknowledge(interaction))
                else:
                    header = render.dm_header(table, engine, seat, tr, jump_url(table)) if in_dm else ""
                    rendered = render.prompt_message(table, engine, seat, tr, header=header)
                    answered = await answer_surely(
                        interaction,
                        lambda: update(interaction, **rendered.edit_kwargs()),
                        lambda: interaction.edit_original_response(**rendered.edit_kwargs()),
                    )
            except (discord.HTTPException, *NETWORK_ERRORS) as exc:
                log.warning("table %s: answering a move failed: %s", table_id, exc)
            finally:
                # Marked shown only once the answer got through: a process that dies before leaves
                # the DM as last stored, and whichever delivers the table next redraws it.
                if in_dm and answered:
                    await self.delivery.hand_shown(table, engine, seat)
                elif in_dm:
                    await self.delivery.mark(table.id, seat, None)
                    self.delivery.request(table_id)
        if not answered:  # the move is committed whatever happened to its answer: the worker shows it
            await self.tell_played(interaction, table, tr)

    async def tell_played(self, interaction: Interaction, table: TableRow, tr: Lang) -> None:
        """The mover of a move whose answer failed learns that it was played: privately, by a
        follow-up when the click was acknowledged, else (Discord gave up on it) by DM."""
        text = tr("prompt.played", url=jump_url(table))
        if interaction.response.is_done():
            try:
                await interaction.followup.send(text, ephemeral=True)
                return
            except (discord.HTTPException, *NETWORK_ERRORS) as exc:
                log.warning("table %s: a follow-up on a move failed: %s", table.id, exc)
        try:
            dm = await self.delivery.dm_channel(interaction.user.id)
            await dm.send(text)
        except (discord.HTTPException, *NETWORK_ERRORS) as exc:
            log.warning("table %s: the mover could not be told that their move was played: %s", table.id, exc)

    # ---- moves by slash command ----------------------------------------------------------------
    async def seat_here(self, interaction: Interaction, game: str) -> tuple[TableRow, Engine, int]:
        """(table, engine, seat) of the member's running ``game`` table in this channel or thread."""
        for table in await self.service.store.running_tables_at(game, interaction.channel_id or 0):
            seat = table.seat_of(interaction.user.id)
            if seat is not None:
                return table, await self.service.engine(table), seat
        raise UserError("error.no_table_here")

    async def autocomplete_actions(
        self, interaction: Interaction, game: str, label: Callable[[str], str]
    ) -> list[tuple[str, str]]:
        """Autocomplete choices for the member's legal actions here; ``label(action)`` names each."""
        try:
            _table, engine, seat = await self.seat_here(interaction, game)
        except UserError:
            return []
        return [(label(a), a) for a in engine.legal_actions(seat)]

    async def play_command(
        self,
        interaction: Interaction,
        game: str,
        action: str,
        announce: str | None = None,
        talk: str | None = None,
        pings: Sequence[int] = (),
    ) -> None:
        """Apply a move typed as a slash command; the answer is ephemeral.

        ``announce`` is posted publicly at the table once the move is accepted, pinging ``pings``
        only, and ``talk`` kept for
        the table message (a question's text, which is table talk rather than game state).
        """

        async def keep_talk(table: TableRow, engine: Engine, seat: int) -> None:
            # In the move's transaction, on the row read under the lock: kept under the move's
            # number, so the game can quote it later.
            if talk is not None:
                said = with_said(table.talk, len(engine.history) - 1, talk)
                await self.service.store.update_table(table.id, talk=said)

        async def work() -> None:
            table, engine, _seat = await self.seat_here(interaction, game)
            try:
                await self.moves.play(table.id, interaction.user.id, len(engine.history), action, also=keep_talk)
            except IllegalAction as exc:
                await self.reply(
                    interaction, await self.illegal_text(table.id, exc, member_lang(interaction))
                )
                return
            await interaction.response.send_message(member_lang(interaction)("prompt.done"), ephemeral=True)
            if announce:
                home = self.delivery.messageable(table.home_channel_id)
                await home.send(announce, allowed_mentions=pinging(pings))

        await self.guarded(interaction, None, work())

    async def on_unknown(self, interaction: Interaction) -> None:
        await self.on_refused(interaction, "unknown_id")

    async def on_refused(self, interaction: Interaction, why: str) -> None:
        """A click that no message of ours could have sent (an old layout, a forged id or menu value):
        one line in the log, and "not valid any more" to the member; nothing changes."""
        data: Mapping[str, Any] = interaction.data or {}
        custom_id = data.get("custom_id")
        log.info("refused a click by %s: %s (%.120r)", interaction.user.id, why, custom_id)
        tr = member_lang(interaction)
        await self.guarded(interaction, None, self.reply(interaction, tr("error.unknown_button")))

    async def on_stale(self, interaction: Interaction) -> None:
        await self.reply(interaction, member_lang(interaction)("error.unplayable"))
