"""Console entry point: ``tabletop-bot [--config PATH] [--shard-count N --shard-ids 0,1]``, and
``tabletop-bot migrate-db`` (see ``bot/storage/migrate.py``); SIGTERM and SIGINT shut down cleanly."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
from typing import TYPE_CHECKING, Any

import discord

from bot.app import create_bot
from bot.core.config import Config, ConfigError, check_shards, load

if TYPE_CHECKING:
    from discord.types.gateway import SessionStartLimit

NO_TOKEN = (
    "No Discord bot token: set the DISCORD_TOKEN environment variable or 'token' in the config file "
    "(see config.example.toml)."
)


def apply_endpoint_overrides(env: dict[str, str]) -> None:
    """Point discord.py at another API and gateway: only for tests against a local fake Discord."""
    base = env.get("DISCORD_API_BASE")
    if base:
        discord.http.Route.BASE = base.rstrip("/")
    gateway = env.get("DISCORD_GATEWAY_URL")
    if gateway:
        import yarl  # discord.py's URL type (it comes with aiohttp)

        # A non-sharded Client never asks GET /gateway/bot: Client.connect() goes straight to
        # DiscordWebSocket.DEFAULT_GATEWAY (also where an invalidated session reconnects), so that
        # is the URL to replace. get_bot_gateway is still patched for AutoShardedClient.
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
        original = discord.http.HTTPClient.get_bot_gateway

        async def get_bot_gateway(
            self: discord.http.HTTPClient, *args: Any, **kwargs: Any
        ) -> tuple[int, str, SessionStartLimit]:
            result = await original(self, *args, **kwargs)
            return (result[0], gateway, *result[2:])

        discord.http.HTTPClient.get_bot_gateway = get_bot_gateway  # type: ignore[method-assign]  # tests only


async def run(config: Config) -> None:
    bot = create_bot(config)
    loop = asyncio.get_running_loop()
    closing: list[asyncio.Task] = []

    def stop() -> None:
        if not closing:
            closing.append(loop.create_task(bot.close()))

    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop)
    async with bot:
        await bot.start(config.token)
    # ``async with`` skips close() once discord.py counts the bot as closed, which it does as soon as
    # our shutdown has closed the gateway, while the database may still be writing: wait for all of it.
    await bot.close()
    logging.getLogger("tabletop").info("stopped")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["migrate-db"]:
        from bot.storage import migrate

        return migrate.main(argv[1:])
    parser = argparse.ArgumentParser(prog="tabletop-bot", description=__doc__)
    parser.add_argument(
        "--config", help="path to the TOML config file (default: $TABLETOP_CONFIG or ./config.toml)"
    )
    parser.add_argument("--shard-count", type=int, help="shards of the bot in all (several processes)")
    parser.add_argument(
        "--shard-ids", type=lambda text: [int(x) for x in text.split(",") if x.strip()],
        help="the shards this process runs, as 0,1 (the others run in other processes)",
    )
    args = parser.parse_args(argv)
    try:
        config = load(args.config)
        if args.shard_count is not None or args.shard_ids is not None:
            config.shard_count = args.shard_count if args.shard_count is not None else config.shard_count
            config.shard_ids = args.shard_ids
            check_shards(config)
    except ConfigError as exc:
        print(f"tabletop-bot: {exc}", file=sys.stderr)
        return 2
    if not config.token:
        print(f"tabletop-bot: {NO_TOKEN}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=config.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=sys.stderr
    )
    for handler in logging.getLogger().handlers:  # the level holds here too: see ``LogCounters.install``
        handler.setLevel(config.log_level)
    apply_endpoint_overrides(dict(os.environ))
    try:
        asyncio.run(run(config))
    except discord.LoginFailure as exc:
        print(f"tabletop-bot: login failed: {exc}", file=sys.stderr)
        return 1
    except discord.PrivilegedIntentsRequired:
        print("tabletop-bot: Discord refused an intent this bot asks for; see the README.", file=sys.stderr)
        return 1
    except (discord.DiscordException, OSError, AttributeError) as exc:
        # discord.py raises AttributeError when the first gateway connection fails.
        print(f"tabletop-bot: could not connect to Discord: {exc!r}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
