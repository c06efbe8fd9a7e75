"""What each server chose with ``/settings``, read through a cache that every process keeps fresh.

A server that set nothing gets the defaults: ``config.toml``'s per-server fields (``default_language``,
``organizer_role``, ``[games.<game>] category``) and the bot's own for the rest. Reads come from
memory. Every change raises one counter in the database, in its own transaction; each process
compares the counter with the one it read last at most every ``INTERVAL`` seconds, when it next
reads a setting, and forgets every server's settings when the counter moved. So a change made in
one process takes effect in every other within ``INTERVAL`` seconds, at the cost of one small read
per process per interval.

A role, category or channel chosen once may be deleted since: it is read as not chosen (the
default applies), and ``/settings`` says so (``Resolved.gone``).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import discord

from bot.core.errors import UserError
from bot.core.i18n import LANGUAGES, language_of
from bot.tables.terms import CLOCKS, LEVELS, TIMEOUT_POLICIES

if TYPE_CHECKING:
    from bot.core.config import Config
    from bot.storage.servers import ServerRows

INTERVAL = 15.0  # seconds between two reads of the counter, at most
CACHED = 10_000  # servers whose settings are kept in memory
#: The most channels a server may name for its tables.
MAX_CHANNELS = 25
#: How long an invitation may wait for its answer: an hour to a week.
INVITE_LAPSES = (3600, 4 * 3600, 12 * 3600, 86400, 3 * 86400, 7 * 86400)
T = TypeVar("T")


@dataclass(frozen=True)
class Settings:
    """One server's settings, each its chosen value or its default (``chosen`` names the former)."""

    #: Public table messages: "en" or "ja"; None: the server's own locale.
    language: str | None = None
    #: Members with this role may run tournaments (besides Manage Server); None: config's ``organizer_role``.
    organizer_role: int | None = None
    #: Where games with a channel of their own (Final Quest) get it; None: config's, or the channel's.
    category: int | None = None
    #: Where tables may be opened; empty: anywhere the bot can post.
    table_channels: tuple[int, ...] = ()
    #: The turn clock a new table starts with (seconds per move; None: no clock) ...
    clock: int | None = None
    #: ... and what a timeout does there.
    on_timeout: str = "computer_turn"
    #: The level of a computer that plays for a player (out of time, or handed their seat).
    computer_level: str = "normal"
    #: Turn notices mention the players in the table's thread (off: only DMs, as each member chose).
    thread_pings: bool = True
    #: The server's games have pages on the bot's web server.
    web: bool = True
    #: How long an invitation to a table waits for its answer (seconds).
    invite_lapse: int = 86400
    #: A role mentioned when a lobby is still short of players after a few minutes; None: none.
    lfg_role: int | None = None
    chosen: frozenset[str] = frozenset()

    def is_default(self, name: str) -> bool:
        return name not in self.chosen


NAMES = tuple(f for f in Settings.__dataclass_fields__ if f != "chosen")
DEFAULTS = Settings()


def checked(name: str, value: Any) -> Any:
    """A setting's value as stored, or ``UserError`` when it is not one the setting takes."""
    ok = {
        "language": lambda v: v in LANGUAGES,
        "organizer_role": lambda v: isinstance(v, int) and not isinstance(v, bool) and v > 0,
        "category": lambda v: isinstance(v, int) and not isinstance(v, bool) and v > 0,
        "table_channels": lambda v: (
            isinstance(v, (list, tuple))
            and 0 < len(v) <= MAX_CHANNELS
            and all(isinstance(c, int) and not isinstance(c, bool) and c > 0 for c in v)
        ),
        "clock": lambda v: v is None or v in CLOCKS,
        "on_timeout": lambda v: v in TIMEOUT_POLICIES,
        "computer_level": lambda v: v in LEVELS,
        "thread_pings": lambda v: isinstance(v, bool),
        "web": lambda v: isinstance(v, bool),
        "invite_lapse": lambda v: v in INVITE_LAPSES,
        "lfg_role": lambda v: isinstance(v, int) and not isinstance(v, bool) and v > 0,
    }
    if name not in ok or not ok[name](value):
        raise UserError("error.bad_setting")
    return sorted(set(value)) if name == "table_channels" else value


def settings_from(stored: dict[str, Any]) -> Settings:
    """The settings a server stored, over the defaults; a value no longer valid is left out."""
    values: dict[str, Any] = {}
    for name, value in stored.items():
        try:
            value = checked(name, value)
        except UserError:
            continue
        values[name] = tuple(value) if name == "table_channels" else value
    return replace(DEFAULTS, **values, chosen=frozenset(values))


@dataclass
class Resolved(Generic[T]):
    """A setting found in a server: what applies now, and whether what was chosen is gone."""

    value: T
    gone: bool = False


class ServerSettings:
    def __init__(
        self,
        rows: ServerRows,
        config: Config,
        now: Callable[[], float] = time.monotonic,
        interval: float = INTERVAL,
    ) -> None:
        self.rows = rows
        self.config = config  # the defaults of servers that set nothing
        self.now = now
        self.interval = interval
        self.cache: OrderedDict[int, Settings] = OrderedDict()
        self.version: int | None = None
        self.checked_at = float("-inf")
        #: Raised whenever cached settings are forgotten: a read that began before is not kept.
        self.generation = 0

    # ---- reading ----------------------------------------------------------------------------------
    async def of(self, guild_id: int | None) -> Settings:
        """The server's settings (a DM, ``None``, has the defaults)."""
        if guild_id is None:
            return DEFAULTS
        await self.follow()
        found = self.cache.get(guild_id)
        if found is not None:
            self.cache.move_to_end(guild_id)
            return found
        generation = self.generation
        found = settings_from(await self.rows.settings(guild_id))
        if generation == self.generation:  # nothing was forgotten while this read was under way
            self.cache[guild_id] = found
            while len(self.cache) > CACHED:
                self.cache.popitem(last=False)
        return found

    def forget(self, guild_id: int | None = None) -> None:
        """Forget one server's settings, or every server's."""
        self.generation += 1
        if guild_id is None:
            self.cache.clear()
        else:
            self.cache.pop(guild_id, None)

    async def follow(self) -> None:
        """Forget every server's settings when another process changed one since the last look,
        looking at most once per interval."""
        moment = self.now()
        if moment - self.checked_at < self.interval:
            return
        self.checked_at = moment
        version = await self.rows.version()
        if version != self.version:
            self.forget()
            self.version = version

    # ---- changing ---------------------------------------------------------------------------------
    async def change(self, guild_id: int, values: dict[str, Any], reset: Sequence[str] = ()) -> Settings:
        """Set ``values`` and put the settings named in ``reset`` back to their default; the
        server's settings after the change. A value the setting does not take changes nothing."""
        stored = {name: checked(name, value) for name, value in values.items()}
        if any(name not in NAMES for name in reset):
            raise UserError("error.bad_setting")
        version = await self.rows.change(guild_id, stored, tuple(n for n in reset if n not in stored))
        if self.version is not None and version == self.version + 1:
            self.forget(guild_id)  # only this change since the last look
        else:
            self.forget()  # and others, made by other processes
        self.version = version
        return await self.of(guild_id)

    # ---- what applies in a server ---------------------------------------------------------------
    def language(self, settings: Settings, guild_locale: Any) -> str:
        """The language of a new table's public messages."""
        if settings.language is not None:
            return settings.language
        return language_of(guild_locale or self.config.default_language)

    def organizer_role(self, guild: discord.Guild, settings: Settings) -> Resolved[discord.Role | None]:
        """The role whose members may run tournaments: the chosen one, or config's by name or id."""
        gone = False
        if settings.organizer_role is not None:
            role = guild.get_role(settings.organizer_role)
            if role is not None:
                return Resolved(role)
            gone = True
        wanted = self.config.organizer_role
        found = next((r for r in guild.roles if wanted and wanted in (r.name, str(r.id))), None)
        return Resolved(found, gone)

    def lfg_role(self, guild: discord.Guild, settings: Settings) -> Resolved[discord.Role | None]:
        """The role called when a lobby is short of players: the chosen one, unless deleted since."""
        if settings.lfg_role is None:
            return Resolved(None)
        role = guild.get_role(settings.lfg_role)
        return Resolved(role, gone=role is None)

    def category(self, guild: discord.Guild, settings: Settings, game: str) -> Resolved[discord.CategoryChannel | str | None]:
        """Where a game's own channels go: the chosen category; else config's category of the game,
        found by name, or that name to create it (None: the category of the channel opened from)."""
        gone = False
        if settings.category is not None:
            found = guild.get_channel(settings.category)
            if isinstance(found, discord.CategoryChannel):
                return Resolved(found)
            gone = True
        name = self.config.games.get(game, {}).get("category")
        if not name:
            return Resolved(None, gone)
        return Resolved(discord.utils.get(guild.categories, name=name) or str(name), gone)

    def table_channels(self, guild: discord.Guild, settings: Settings) -> Resolved[list[discord.abc.GuildChannel]]:
        """The channels where tables may be opened (empty: anywhere); chosen channels deleted since
        are left out, and when none is left, tables may be opened anywhere again."""
        found: list[discord.abc.GuildChannel] = [
            c for c in map(guild.get_channel, settings.table_channels) if c is not None
        ]
        return Resolved(found, bool(settings.table_channels) and not found)

    def elsewhere(
        self, channel: discord.abc.GuildChannel | discord.Thread, settings: Settings
    ) -> list[discord.abc.GuildChannel]:
        """The channels where the server lets tables open, when ``channel`` is none of them (nor a
        thread of one); empty when tables may open in ``channel``."""
        allowed = self.table_channels(channel.guild, settings).value
        where = channel.parent_id if isinstance(channel, discord.Thread) else channel.id
        return [] if not allowed or any(c.id == where for c in allowed) else allowed
