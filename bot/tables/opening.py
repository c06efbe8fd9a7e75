"""Opening a table where a member asked, or where an event placed it: the permissions it needs first,
then its message and thread, or a channel of its own for games with speaking turns."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import discord

from bot.core.engine import IllegalAction
from bot.core.errors import UserError
from bot.core.games import REGISTRY
from bot.core.i18n import Lang, has, language_of
from bot.core.interaction import Interaction
from bot.core.options import shown_name
from bot.tables import render
from bot.tables.member_locale import member_lang
from bot.tables.speech import OVERWRITES, speech_mode

if TYPE_CHECKING:
    from bot.core.config import Config
    from bot.storage.store import TableRow
    from bot.tables.delivery import Delivery
    from bot.tables.desk import Desk
    from bot.tables.lobby_ops import LobbyOps
    from bot.tables.service import TableService

NEEDED = ("view_channel", "send_messages", "embed_links", "attach_files", "read_message_history")
NEEDED_FOR_THREADS = ("create_public_threads", "send_messages_in_threads")
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


def require(tr: Lang, perms: discord.Permissions, wanted: tuple[str, ...]) -> None:
    """Refuse, naming every permission missing of ``wanted``."""
    missing = [p for p in wanted if not getattr(perms, p)]
    if missing:
        names = tr.join(tr(f"permission.{p}") for p in missing)
        raise UserError("error.missing_permissions", permissions=names)


class Opening:
    def __init__(
        self, config: Config, service: TableService, lobby: LobbyOps, delivery: Delivery, desk: Desk
    ) -> None:
        self.config = config
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
    ):
        await self.desk.guarded(interaction, None, self._open(interaction, game, size, options, rated))

    async def _open(
        self, interaction: Interaction, game: str, size: int, options: dict[str, Any], rated: bool
    ):
        tr = member_lang(interaction)
        channel = interaction.channel
        if interaction.guild is None or not isinstance(channel, (discord.TextChannel, discord.Thread)):
            raise UserError("error.guild_text_only")
        own_channel = REGISTRY[game].channel_mode == "channel"
        in_thread = isinstance(channel, discord.Thread)
        wanted = NEEDED + (() if in_thread or own_channel else NEEDED_FOR_THREADS)
        require(tr, channel.permissions_for(interaction.guild.me), wanted)
        speech = None
        if own_channel:
            guild_perms = interaction.guild.me.guild_permissions
            speech = speech_mode(guild_perms)
            if speech is None:
                require(tr, guild_perms, ("manage_channels", "manage_roles"))
        language = language_of(interaction.guild_locale or self.config.default_language)
        lang = Lang(language)
        table = await self.lobby.open(
            game,
            guild_id=interaction.guild.id,
            channel_id=channel.id,
            host=(interaction.user.id, display(interaction.user)),
            size=size,
            options=checked_options(game, options),
            language=language,
            rated=rated,
        )
        await interaction.response.defer(ephemeral=True, thinking=True)
        if own_channel:
            home = await self.create_table_channel(interaction.guild, channel, table, lang, speech)
            message = await home.send(**render.lobby(table, lang).send_kwargs())
            await self.lobby.attach(table.id, channel_id=home.id, message_id=message.id, speech=speech)
            await channel.send(**render.announcement(table, home, lang).send_kwargs())
        else:
            message = await channel.send(**render.lobby(table, lang).send_kwargs())
            thread_id = None
            if not in_thread:
                thread = await message.create_thread(
                    name=render.game_title(table, lang)[:100], auto_archive_duration=THREAD_ARCHIVE_MINUTES
                )
                thread_id = thread.id
            await self.lobby.attach(table.id, message_id=message.id, thread_id=thread_id)
        await interaction.followup.send(tr("lobby.opened", url=message.jump_url), ephemeral=True)

    async def place_table(self, guild: discord.Guild, channel: discord.TextChannel, table) -> None:
        """Show a table that an event opened and started: its message and thread (or channel), then
        hands and pings through the usual refresh."""
        lang = Lang(table.language)
        engine = await self.service.engine(table)
        if REGISTRY[table.game].channel_mode == "channel":
            speech = speech_mode(guild.me.guild_permissions)
            home = await self.create_table_channel(guild, channel, table, lang, speech)
            message = await home.send(**render.table_message(table, engine, lang).send_kwargs())
            await self.lobby.attach(table.id, channel_id=home.id, message_id=message.id, speech=speech)
        else:
            message = await channel.send(**render.table_message(table, engine, lang).send_kwargs())
            thread = await message.create_thread(
                name=render.game_title(table, lang)[:100], auto_archive_duration=THREAD_ARCHIVE_MINUTES
            )
            await self.lobby.attach(table.id, message_id=message.id, thread_id=thread.id)
        await self.delivery.refresh(table.id)

    async def create_table_channel(
        self, guild: discord.Guild, source: Any, table: TableRow, lang: Lang, speech: str | None
    ) -> discord.TextChannel:
        return await create_table_channel(self.config, guild, source, table, lang, speech)


def table_channel_name(table: TableRow, lang: Lang) -> str:
    return f"{lang(f'{table.game}.channel')}-{table.id}"


async def create_table_channel(
    config: Config, guild: discord.Guild, source: Any, table: TableRow, lang: Lang, speech: str | None
) -> discord.TextChannel:
    """A text channel for one table: everyone may read; with overwrites only the bot writes until play.

    In the deletion fallback the bot cannot grant the turn player a per-member allow, so the
    channel stays open and out-of-turn messages are deleted instead.
    """
    wanted = config.games.get(table.game, {}).get("category")
    category = getattr(source, "category", None)
    if wanted:
        category = discord.utils.get(guild.categories, name=wanted) or await guild.create_category(wanted)
    me = guild.me
    shut = False if speech == OVERWRITES else None
    overwrites = {
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
