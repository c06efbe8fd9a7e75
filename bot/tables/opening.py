"""Opening a table where a member asked, or where an event placed it: the permissions it needs first,
then its message and thread, or a channel of its own for games with speaking turns."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

import discord

from bot.core.engine import IllegalAction
from bot.core.errors import UserError
from bot.core.games import REGISTRY
from bot.core.i18n import Lang, has
from bot.core.interaction import Interaction
from bot.core.options import shown_name
from bot.tables import render
from bot.tables.invitations import guests_of, invited_lines
from bot.tables.member_locale import member_lang
from bot.tables.permissions import home_permissions, require_for_table
from bot.tables.speech import OVERWRITES, speech_mode

if TYPE_CHECKING:
    from bot.storage.store import TableRow
    from bot.tables.delivery import Delivery
    from bot.tables.desk import Desk
    from bot.tables.lobby_ops import LobbyOps
    from bot.tables.server_settings import ServerSettings
    from bot.tables.service import TableService

THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080  # a week


def display(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


def checked_options(game: str, options: dict[str, Any]) -> dict[str, Any]:
    """The game's options as its engine declares them, defaults filled. A bad one is refused in the
    game's own words when it has them (``<game>.error.bad_<option>``, then ``<game>.error.bad_option``)."""
    engine = REGISTRY[game].engine
    try:
        return engine.check_options(options)
    except IllegalAction as exc:
        option = exc.params.get("option")
        keys = (f"{game}.error.bad_{option}", f"{game}.error.bad_option", "error.bad_option")
        params = {**exc.params, "option": shown_name(engine.declared_options, str(option))}
        raise UserError(next(k for k in keys if has(k)), **params) from None


class Opening:
    def __init__(
        self,
        settings: ServerSettings,
        service: TableService,
        lobby: LobbyOps,
        delivery: Delivery,
        desk: Desk,
    ) -> None:
        self.settings = settings  # the server's: where tables open, their language, clock, category
        self.service = service
        self.lobby = lobby
        self.delivery = delivery
        self.desk = desk  # answers the interaction, whatever happens

    async def open_table(
        self,
        interaction: Interaction,
        game: str,
        size: int,
        options: dict[str, Any],
        rated: bool = False,
        invited: Sequence[discord.abc.User] = (),
    ) -> None:
        work = self._open(interaction, game, size, options, rated, invited)
        await self.desk.guarded(interaction, None, work)

    async def _open(
        self,
        interaction: Interaction,
        game: str,
        size: int,
        options: dict[str, Any],
        rated: bool,
        invited: Sequence[discord.abc.User],
    ) -> None:
        tr = member_lang(interaction)
        channel, guild = interaction.channel, interaction.guild
        if guild is None or not isinstance(channel, (discord.TextChannel, discord.Thread)):
            raise UserError("error.guild_text_only")
        settings = await self.settings.of(guild.id)
        elsewhere = self.settings.elsewhere(channel, settings)
        if elsewhere:
            raise UserError("error.not_a_table_channel", channels=tr.join(c.mention for c in elsewhere))
        own_channel = REGISTRY[game].channel_mode == "channel"
        in_thread = isinstance(channel, discord.Thread)
        category = self.settings.category(guild, settings, game).value if own_channel else None
        require_for_table(tr, guild.me, channel, own_channel, category)
        speech = speech_mode(home_permissions(guild.me, channel, category)) if own_channel else None
        language = self.settings.language(settings, interaction.guild_locale)
        lang = Lang(language)
        guests = await guests_of(interaction, channel, invited, self.service.store, tr)
        table = await self.lobby.open(
            game,
            guild_id=guild.id,
            channel_id=channel.id,
            host=(interaction.user.id, display(interaction.user)),
            size=size,
            options=checked_options(game, options),
            language=language,
            rated=rated,
            clock=settings.clock,
            on_timeout=settings.on_timeout,
            level=settings.computer_level,
            guests=guests,
            invites_lapse=self.service.now() + settings.invite_lapse,
        )
        await interaction.response.defer(ephemeral=True, thinking=True)
        if own_channel:
            home = await self.create_table_channel(guild, channel, table, lang, speech)
            message = await home.send(**render.lobby(table, lang, self.delivery.launch).send_kwargs())
            await self.lobby.attach(table.id, channel_id=home.id, message_id=message.id, speech=speech)
            await channel.send(**render.announcement(table, home, lang).send_kwargs())
        else:
            message = await channel.send(**render.lobby(table, lang, self.delivery.launch).send_kwargs())
            thread_id = None
            if not in_thread:
                thread = await message.create_thread(
                    name=render.game_title(table, lang)[:100], auto_archive_duration=THREAD_ARCHIVE_MINUTES
                )
                thread_id = thread.id
            await self.lobby.attach(table.id, message_id=message.id, thread_id=thread_id)
        lines = [tr("lobby.opened", url=message.jump_url)]
        if table.guests:  # the invitation DMs go with the pass, now that the lobby message is up
            self.delivery.request(table.id)
            lines += invited_lines(table.guests, table.invites_lapse, tr)
        await interaction.followup.send("\n".join(lines), ephemeral=True)
        await self.delivery.rearm()  # the clock, for when the lobby closes unless joined, or its invitations lapse

    async def place_table(self, guild: discord.Guild, channel: discord.TextChannel, table: TableRow) -> None:
        """Show a table that an event opened and started: its message and thread (or channel), then
        hands and pings through the usual refresh."""
        lang = Lang(table.language)
        engine = await self.service.engine(table)
        if REGISTRY[table.game].channel_mode == "channel":
            category = await self.category(guild, table.game)
            speech = speech_mode(home_permissions(guild.me, channel, category))
            home = await self.create_table_channel(guild, channel, table, lang, speech)
            message = await home.send(**render.table_message(table, engine, lang, launch=self.delivery.launch).send_kwargs())
            await self.lobby.attach(table.id, channel_id=home.id, message_id=message.id, speech=speech)
        else:
            message = await channel.send(**render.table_message(table, engine, lang, launch=self.delivery.launch).send_kwargs())
            thread = await message.create_thread(
                name=render.game_title(table, lang)[:100], auto_archive_duration=THREAD_ARCHIVE_MINUTES
            )
            await self.lobby.attach(table.id, message_id=message.id, thread_id=thread.id)
        await self.delivery.refresh(table.id)

    async def category(self, guild: discord.Guild, game: str) -> discord.CategoryChannel | str | None:
        return await table_category(self.settings, guild, game)

    async def create_table_channel(
        self, guild: discord.Guild, source: Any, table: TableRow, lang: Lang, speech: str | None
    ) -> discord.TextChannel:
        return await create_table_channel(self.settings, guild, source, table, lang, speech)



def table_channel_name(table: TableRow, lang: Lang) -> str:
    return f"{lang(f'{table.game}.channel')}-{table.id}"


async def table_category(
    settings: ServerSettings, guild: discord.Guild, game: str
) -> discord.CategoryChannel | str | None:
    """Where ``game``'s own channels go in this server (a name: a category still to create; None:
    the category of the channel the table is opened from)."""
    return settings.category(guild, await settings.of(guild.id), game).value


async def create_table_channel(
    settings: ServerSettings, guild: discord.Guild, source: Any, table: TableRow, lang: Lang, speech: str | None
) -> discord.TextChannel:
    """A text channel for one table: everyone may read; with overwrites only the bot writes until play.

    In the deletion fallback the bot cannot grant the turn player a per-member allow, so the
    channel stays open and out-of-turn messages are deleted instead.
    """
    category = await table_category(settings, guild, table.game)
    if category is None:
        category = getattr(source, "category", None)
    elif isinstance(category, str):
        category = await guild.create_category(category)
    me = guild.me
    shut = False if speech == OVERWRITES else None
    overwrites: dict[discord.Role | discord.Member | discord.Object, discord.PermissionOverwrite] = {
        guild.default_role: discord.PermissionOverwrite(
            send_messages=shut, send_messages_in_threads=shut
        ),
        me: discord.PermissionOverwrite(
            view_channel=True,
            send_messages=True,
            embed_links=True,
            attach_files=True,
            read_message_history=True,
        ),
    }
    return await guild.create_text_channel(
        name=table_channel_name(table, lang), category=category, overwrites=overwrites,
        reason=render.game_title(table, lang),
    )
