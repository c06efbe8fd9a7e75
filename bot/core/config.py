"""Configuration from a TOML file, with the token taken from ``DISCORD_TOKEN`` when set (and the
Activity's client secret from ``DISCORD_CLIENT_SECRET``).

Errors name the offending key so an operator can fix the file without reading code.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DEFAULT_PATH = "config.toml"
CLIENT_SECRET_ENV = "DISCORD_CLIENT_SECRET"  # overrides ``client_secret``, as DISCORD_TOKEN does ``token``
DATABASE_ENV = "TABLETOP_DATABASE"  # overrides ``database`` (a path, or a postgresql:// URL)
#: Seconds a turn waits before its player is told (``notice_grace``): none while they are playing.
NOTICE_GRACE = 120


class ConfigError(Exception):
    pass


@dataclass
class Config:
    token: str = ""
    database: str = "data/tabletop.sqlite3"
    test_guild_id: int | None = None
    log_level: str = "INFO"
    default_language: str = "en"
    organizer_role: str = ""
    #: Messages and edits the bot makes in one channel per 5 seconds (Discord allows about 5).
    channel_budget: int = 5
    #: REST calls per second the bot makes for tables, at most (Discord allows a bot 50 in all,
    #: interaction responses aside); processes sharing a database split it (``rest_shares``).
    #: 0: no limit.
    rest_budget: int = 45
    #: Computer seats search for their move (in worker processes); off: they play at random.
    computer_search: bool = True
    #: Turn notices (a DM, a mention at the table) go to a player whose turn has waited this many
    #: seconds; a server's own setting may override it.
    notice_grace: int = NOTICE_GRACE
    #: Several processes (PostgreSQL only): how many shards the bot has, and which this process runs.
    shard_count: int | None = None
    shard_ids: list[int] | None = None
    #: The web pages (``bot/web``), served by the bot's own process on this address; port 0: none.
    web_host: str = "127.0.0.1"
    web_port: int = 8080
    #: Where people reach the pages (behind a reverse proxy, say); with it, Discord messages link to
    #: them, without it they carry no links.
    public_url: str = ""
    #: Whether a server that chose nothing with ``/settings web`` shows its pages.
    web_pages: bool = True
    #: The key that signs page addresses; empty: one is made at the first start and kept in the
    #: database, so every process sharing it signs alike.
    web_secret: str = ""
    #: The application's OAuth2 client secret, for the Discord Activity (``bot/web/activity``): it
    #: exchanges the code a member's Activity sends for their identity. Never sent to a browser.
    #: Empty: no Activity. ``DISCORD_CLIENT_SECRET`` in the environment overrides it.
    client_secret: str = ""
    #: The application has an Activity set up in Discord's developer portal (docs/activity.md): table
    #: messages offer **Play in Discord**, and the command sync keeps its Entry Point command.
    activity: bool = False
    games: dict[str, dict[str, Any]] = field(default_factory=dict)


LOG_LEVELS = {"DEBUG", "INFO", "WARNING", "ERROR"}
LANGUAGES = {"en", "ja"}


def _expect(raw: dict[str, Any], key: str, kind: type, default: Any) -> Any:
    value = raw.get(key, default)
    if kind is int and isinstance(value, bool):
        raise ConfigError(f"config key '{key}' must be an integer, got {value!r}")
    if value is not None and not isinstance(value, kind):
        raise ConfigError(f"config key '{key}' must be {kind.__name__}, got {value!r}")
    return value


def parse(raw: dict[str, Any]) -> Config:
    known = {"token", "database", "test_guild_id", "log_level", "default_language", "organizer_role", "games", "channel_budget", "rest_budget", "computer_search", "shard_count", "shard_ids", "notice_grace", "web_host", "web_port", "public_url", "web_pages", "web_secret", "client_secret", "activity"}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise ConfigError(f"config key '{unknown[0]}' is not a known setting")
    cfg = Config(
        token=_expect(raw, "token", str, ""),
        database=_expect(raw, "database", str, Config.database),
        test_guild_id=_expect(raw, "test_guild_id", int, None) or None,
        log_level=_expect(raw, "log_level", str, "INFO").upper(),
        default_language=_expect(raw, "default_language", str, "en"),
        organizer_role=_expect(raw, "organizer_role", str, ""),
        games=_expect(raw, "games", dict, {}),
        channel_budget=_expect(raw, "channel_budget", int, 5),
        rest_budget=_expect(raw, "rest_budget", int, Config.rest_budget),
        computer_search=_expect(raw, "computer_search", bool, True),
        notice_grace=_expect(raw, "notice_grace", int, NOTICE_GRACE),
        shard_count=_expect(raw, "shard_count", int, None),
        shard_ids=_expect(raw, "shard_ids", list, None),
        web_host=_expect(raw, "web_host", str, Config.web_host),
        web_port=_expect(raw, "web_port", int, Config.web_port),
        public_url=_expect(raw, "public_url", str, "").strip().rstrip("/"),
        web_pages=_expect(raw, "web_pages", bool, True),
        web_secret=_expect(raw, "web_secret", str, ""),
        client_secret=_expect(raw, "client_secret", str, ""),
        activity=_expect(raw, "activity", bool, False),
    )
    if cfg.log_level not in LOG_LEVELS:
        raise ConfigError(f"config key 'log_level' must be one of {sorted(LOG_LEVELS)}")
    if cfg.default_language not in LANGUAGES:
        raise ConfigError(f"config key 'default_language' must be one of {sorted(LANGUAGES)}")
    if cfg.channel_budget < 1:
        raise ConfigError("config key 'channel_budget' must be at least 1")
    if cfg.rest_budget < 0:
        raise ConfigError("config key 'rest_budget' must be 0 (no limit) or more")
    if cfg.notice_grace < 0:
        raise ConfigError("config key 'notice_grace' must be 0 (notices at once) or more")
    if not cfg.database:
        raise ConfigError("config key 'database' must not be empty")
    if not 0 <= cfg.web_port <= 65535:
        raise ConfigError("config key 'web_port' must be a port number, or 0 to serve no pages")
    if cfg.public_url and not cfg.public_url.startswith(("http://", "https://")):
        raise ConfigError("config key 'public_url' must start with https:// (or http://)")
    if cfg.web_secret and len(cfg.web_secret) < 16:
        raise ConfigError("config key 'web_secret' must be at least 16 characters (or left out)")
    return cfg


def check_shards(cfg: Config) -> None:
    """Shards are given together, each id below the count; and they need a database that several
    processes can share."""
    if cfg.shard_ids is not None and cfg.shard_count is None:
        raise ConfigError("config key 'shard_ids' needs 'shard_count' too")
    if cfg.shard_count is None:
        return
    if cfg.shard_count < 1:
        raise ConfigError("config key 'shard_count' must be at least 1")
    ids = cfg.shard_ids if cfg.shard_ids is not None else list(range(cfg.shard_count))
    if not ids or any(isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < cfg.shard_count for i in ids):
        raise ConfigError(f"config key 'shard_ids' must list shard numbers from 0 to {cfg.shard_count - 1}")
    if len(set(ids)) != len(ids):
        raise ConfigError("config key 'shard_ids' lists a shard twice")
    cfg.shard_ids = ids
    if cfg.shard_count > 1 and len(ids) < cfg.shard_count and not cfg.database.startswith(("postgresql://", "postgres://")):
        raise ConfigError(
            "running some of the shards in this process means other processes run the rest, and they "
            "must share the database: set 'database' to a postgresql:// URL (see the README)"
        )


def load(path: str | None = None, env: dict[str, str] | None = None) -> Config:
    """Read the file named by ``path``, ``TABLETOP_CONFIG`` or ./config.toml (if present)."""
    env = dict(os.environ) if env is None else env
    chosen = path or env.get("TABLETOP_CONFIG")
    raw: dict[str, Any] = {}
    if chosen or Path(DEFAULT_PATH).exists():
        file = Path(chosen or DEFAULT_PATH)
        try:
            raw = tomllib.loads(file.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ConfigError(f"config file '{file}' does not exist") from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"config file '{file}' is not valid TOML: {exc}") from None
    cfg = parse(raw)
    if env.get("DISCORD_TOKEN"):
        cfg.token = env["DISCORD_TOKEN"]
    if env.get(CLIENT_SECRET_ENV):
        cfg.client_secret = env[CLIENT_SECRET_ENV]
    if env.get(DATABASE_ENV):
        cfg.database = env[DATABASE_ENV]
    check_shards(cfg)
    return cfg
