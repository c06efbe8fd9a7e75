"""The null bot of ``benchmarks/load.py``: what discord.py and one durable commit cost per move.

It answers every button click by committing one row to SQLite (WAL, synchronous=NORMAL, as the
real bot's store) and then updating the clicked message (one UPDATE_MESSAGE response, type 7).
The real bot's durable moves per second are reported as a share of this one's, measured against
the same fake Discord in the same run.

With ``null_dm_edit = true`` in its config it also edits, after each answer, the message of the
lane's previous click through that click's interaction token, as the real bot shows the next
player's turn in their DM (``bot/tables/tokens.py``): the least any bot does per move that answers
the click and edits the next player's DM (``benchmarks/p1_floor.py``).

Run like the real entry point: ``python -m benchmarks.null_bot --config config.toml`` with
``DISCORD_TOKEN``, ``DISCORD_API_BASE`` and ``DISCORD_GATEWAY_URL`` set.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
import tomllib

import aiosqlite
import discord
from discord.webhook.async_ import async_context

from bot.main import apply_endpoint_overrides

log = logging.getLogger("tabletop")  # the fake's process helper waits for "tabletop: ready as"


class NullBot(discord.Client):
    def __init__(self, database: str, dm_edit: bool = False) -> None:
        super().__init__(intents=discord.Intents.default())
        self.database = database
        self.db: aiosqlite.Connection | None = None
        self.dm_edit = dm_edit
        self.last_token: dict[int, str] = {}  # channel -> the token of its last click

    async def setup_hook(self) -> None:
        self.db = await aiosqlite.connect(self.database)
        for pragma in ("journal_mode=WAL", "synchronous=NORMAL"):
            async with self.db.execute(f"PRAGMA {pragma}"):
                pass
        await self.db.execute(
            "CREATE TABLE IF NOT EXISTS moves (id INTEGER PRIMARY KEY, click TEXT, user_id INTEGER)"
        )
        await self.db.commit()

    async def on_ready(self) -> None:
        log.info("ready as %s", self.user)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.component:
            return
        click = (interaction.data or {}).get("custom_id", "")
        await self.db.execute(
            "INSERT INTO moves (click, user_id) VALUES (?, ?)", (click, interaction.user.id)
        )
        await self.db.commit()
        await interaction.response.edit_message(content=f"moved: {click}")
        if self.dm_edit:
            token = self.last_token.get(interaction.channel_id)
            self.last_token[interaction.channel_id] = interaction.token
            if token is not None:  # the same call ``Tokens.edit`` makes
                await async_context.get().edit_original_interaction_response(
                    self.application_id, token, session=self.http._HTTPClient__session,
                    payload={"content": f"your turn: {click}"},
                )

    async def close(self) -> None:
        await super().close()
        if self.db is not None:
            await self.db.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--config", required=True)
    args = parser.parse_args()
    with open(args.config, "rb") as f:
        config = tomllib.load(f)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    apply_endpoint_overrides(dict(os.environ))
    bot = NullBot(config["database"], dm_edit=config.get("null_dm_edit", False))
    asyncio.run(bot.start(os.environ["DISCORD_TOKEN"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
