"""``/settings``: a server's admins see how the bot works in their server, and change it.

Without options it shows every setting, its value and whether it is the default; each option
given changes one setting (``reset`` puts one back to its default), then shows them all. Discord
offers the command only to members with Manage Server, and it checks that again when it runs:
a server may have opened the command to others in its Integrations settings.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str
from discord.ext import commands

from bot.core.errors import UserError
from bot.core.i18n import Lang
from bot.core.interaction import Interaction
from bot.core.translator import choice, choices, command
from bot.tables.member_locale import member_lang
from bot.tables.permissions import missing_for_table, named
from bot.tables.render import clock_name
from bot.tables.server_settings import INVITE_LAPSES, MAX_CHANNELS, NAMES, Settings
from bot.tables.terms import CLOCKS, LEVELS, TIMEOUT_POLICIES

if TYPE_CHECKING:
    from bot.tables.desk import Desk
    from bot.tables.server_settings import ServerSettings

SERVER_LOCALE = "server"  # the language choice that follows the server's locale
NO_CLOCK = 0
CHANNEL_REF = re.compile(r"^(?:<#(\d+)>|(\d+))$")
CHANNEL_GAME = "final_quest"  # the game whose tables get a channel of their own, for the category's name

LANGUAGE_CHOICES = [
    Choice(name=locale_str("From the server's locale", key="cmd.settings.language.server"), value=SERVER_LOCALE),
    Choice(name=locale_str("English", key="cmd.settings.language.en"), value="en"),
    Choice(name=locale_str("Japanese", key="cmd.settings.language.ja"), value="ja"),
]


CLOCK_CHOICES = [choice("cmd.settings.clock.none", NO_CLOCK)] + [choice(f"cmd.clock.c{c}", c) for c in CLOCKS]
POLICY_CHOICES = choices("cmd.tournament.policy", TIMEOUT_POLICIES)
LEVEL_CHOICES = choices("cmd.tournament.level", LEVELS)
LAPSE_CHOICES = [choice(f"cmd.clock.c{c}", c) for c in INVITE_LAPSES]
RESET_CHOICES = choices("server.name", NAMES)


def channel_ids(text: str, guild: discord.Guild) -> list[int]:
    """The text channels a list names (``#games #cards``, or ids), each a channel of this server
    where a table message can go; anything else is refused, named."""
    found: list[int] = []
    for token in re.split(r"[\s,、]+", text.strip()):
        if not token:
            continue
        match = CHANNEL_REF.match(token)
        if match is None:
            raise UserError("server.error.not_a_channel", text=token[:50])
        channel_id = int(match.group(1) or match.group(2))
        channel = guild.get_channel(channel_id)
        if channel is None:
            raise UserError("server.error.other_server", what=f"<#{channel_id}>")
        if not isinstance(channel, discord.TextChannel):
            raise UserError("server.error.not_text", what=channel.mention)
        found.append(channel_id)
    if not found:
        raise UserError("server.error.no_channels")
    if len(set(found)) > MAX_CHANNELS:
        raise UserError("server.error.too_many_channels", max=MAX_CHANNELS)
    return found


def is_admin(interaction: Interaction) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return perms is not None and perms.manage_guild


class SettingsCommands(commands.Cog):
    def __init__(self, settings: ServerSettings, desk: Desk) -> None:
        self.settings = settings
        self.desk = desk  # answers every interaction, whatever happens

    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    @command(
        "cmd.settings",
        "Server admins: how the bot works in this server; give an option to change it",
        language="Language of the public table messages",
        organizer_role="Members with this role may run tournaments",
        category="The category where Final Quest tables get their own channel",
        table_channels="Channels where tables may be opened, e.g. #games #cards (default: anywhere)",
        clock="The turn clock new tables start with (the host may change it)",
        on_timeout="What happens when a player runs out of time",
        computer_level="Level of the computer that plays for a player who runs out of time",
        thread_pings="Turn notices mention the players in the table's thread",
        web="Show this server's games on the bot's web pages",
        invite_lapse="How long an invitation to a table waits for its answer",
        lfg_role="A role mentioned when a lobby is still short of players after 5 minutes",
        reset="Put one setting back to its default",
    )
    @app_commands.choices(
        language=LANGUAGE_CHOICES,
        clock=CLOCK_CHOICES,
        on_timeout=POLICY_CHOICES,
        computer_level=LEVEL_CHOICES,
        invite_lapse=LAPSE_CHOICES,
        reset=RESET_CHOICES,
    )
    async def show_or_change(
        self,
        interaction: Interaction,
        language: str | None = None,
        organizer_role: discord.Role | None = None,
        category: discord.CategoryChannel | None = None,
        table_channels: str | None = None,
        clock: int | None = None,
        on_timeout: str | None = None,
        computer_level: str | None = None,
        thread_pings: bool | None = None,
        web: bool | None = None,
        invite_lapse: int | None = None,
        lfg_role: discord.Role | None = None,
        reset: str | None = None,
    ) -> None:
        async def work() -> None:
            guild = interaction.guild
            if guild is None:
                raise UserError("error.guild_text_only")
            if not is_admin(interaction):
                raise UserError("server.error.admins_only")
            values: dict[str, Any] = {}
            resets: list[str] = []
            if language == SERVER_LOCALE:
                resets.append("language")
            elif language is not None:
                values["language"] = language
            if organizer_role is not None:
                if guild.get_role(organizer_role.id) is None:  # a role of another server
                    raise UserError("server.error.other_server", what=f"<@&{organizer_role.id}>")
                values["organizer_role"] = organizer_role.id
            if category is not None:
                if not isinstance(guild.get_channel(category.id), discord.CategoryChannel):
                    raise UserError("server.error.other_server", what=f"<#{category.id}>")
                values["category"] = category.id
            if table_channels is not None:
                values["table_channels"] = channel_ids(table_channels, guild)
            if clock is not None:
                values["clock"] = clock or None
            for name, value in (("on_timeout", on_timeout), ("computer_level", computer_level)):
                if value is not None:
                    values[name] = value
            for name, flag in (("thread_pings", thread_pings), ("web", web)):
                if flag is not None:
                    values[name] = flag
            if invite_lapse is not None:
                values["invite_lapse"] = invite_lapse
            if lfg_role is not None:
                if guild.get_role(lfg_role.id) is None:  # a role of another server
                    raise UserError("server.error.other_server", what=f"<@&{lfg_role.id}>")
                if lfg_role.is_default():
                    raise UserError("server.error.lfg_everyone")
                values["lfg_role"] = lfg_role.id
            if reset is not None:
                if reset in values:
                    raise UserError("server.error.reset_and_set", setting=member_lang(interaction)(f"server.name.{reset}"))
                resets.append(reset)
            tr = member_lang(interaction)
            if values or resets:
                chosen = await self.settings.change(guild.id, values, resets)
                header = tr("server.saved", settings=tr.join(tr(f"server.name.{n}") for n in [*values, *resets]))
            else:
                chosen = await self.settings.of(guild.id)
                header = ""
            warnings = self.warnings(guild, chosen, tr) if "table_channels" in values else []
            if lfg_role is not None and not (lfg_role.mentionable or guild.me.guild_permissions.mention_everyone):
                warnings.append(tr("server.lfg_warning", role=lfg_role.mention))
            embed = self.shown(guild, chosen, tr, interaction.guild_locale)
            content = "\n".join([header, *warnings]).strip() or None
            await interaction.response.send_message(content=content, embed=embed, ephemeral=True)

        await self.desk.guarded(interaction, None, work())

    # ---- what /settings shows -----------------------------------------------------------------
    def shown(self, guild: discord.Guild, chosen: Settings, tr: Lang, guild_locale: Any) -> discord.Embed:
        embed = discord.Embed(title=tr("server.title", server=guild.name), colour=0x5865F2)
        for name in NAMES:
            value, gone = self.value_text(name, guild, chosen, tr, guild_locale)
            mark = tr("server.default") if chosen.is_default(name) or gone else tr("server.chosen")
            lines = [f"{value} · *{mark}*"]
            if gone:
                lines.append(tr(f"server.gone.{name}"))
            embed.add_field(name=tr(f"server.name.{name}"), value="\n".join(lines)[:1024], inline=False)
        embed.set_footer(text=tr("server.footer"))
        return embed

    def value_text(self, name: str, guild: discord.Guild, chosen: Settings, tr: Lang, guild_locale: Any) -> tuple[str, bool]:
        """A setting's value as an admin reads it, and whether what was chosen is gone."""
        if name == "language":
            language = tr(f"server.language.{self.settings.language(chosen, guild_locale)}")
            return (language if chosen.language else tr("server.from_locale", language=language)), False
        if name == "organizer_role":
            role = self.settings.organizer_role(guild, chosen)
            return (role.value.mention if role.value is not None else tr("server.no_role")), role.gone
        if name == "lfg_role":
            called = self.settings.lfg_role(guild, chosen)
            return (called.value.mention if called.value is not None else tr("server.no_lfg_role")), called.gone
        if name == "category":
            found = self.settings.category(guild, chosen, CHANNEL_GAME)
            if isinstance(found.value, discord.CategoryChannel):
                return found.value.mention, found.gone
            if isinstance(found.value, str):
                return tr("server.category_to_create", name=found.value), found.gone
            return tr("server.category_of_channel"), found.gone
        if name == "table_channels":
            channels = self.settings.table_channels(guild, chosen)
            text = tr.join(c.mention for c in channels.value) if channels.value else tr("server.anywhere")
            return text, channels.gone
        if name in ("clock", "invite_lapse"):
            return clock_name(getattr(chosen, name), tr), False
        if name == "on_timeout":
            return tr(f"cmd.tournament.policy.{chosen.on_timeout}"), False
        if name == "computer_level":
            return tr(f"cmd.tournament.level.{chosen.computer_level}"), False
        return tr("server.on" if getattr(chosen, name) else "server.off"), False

    def warnings(self, guild: discord.Guild, chosen: Settings, tr: Lang) -> list[str]:
        """The channels just chosen where a table could not open now, with what the bot lacks."""
        lines = []
        for channel in self.settings.table_channels(guild, chosen).value:
            if not isinstance(channel, discord.TextChannel):
                continue
            missing = missing_for_table(guild.me, channel, own_channel=False)
            if missing:
                lines.append(tr("server.channel_warning", channel=channel.mention, permissions=named(missing, tr)))
        return lines

