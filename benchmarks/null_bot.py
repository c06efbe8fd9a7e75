"""The null bot of ``benchmarks/load.py``: what discord.py and one durable commit cost per move.

It answers every button click by committing one row to SQLite (WAL, synchronous=NORMAL, as the
real bot's store) and then updating the clicked message (one UPDATE_MESSAGE response, type 7).
The real bot's durable moves per second are reported as a share of this one's, measured against
the same fake Discord in the same run.

With ``null_dm_edit = true`` in its config it also edits, after each answer, the message of the
lane's previous click through that click's interaction token, as the real bot shows the next
player's turn in their DM (``bot/tables/tokens.py``): the least any bot does per move that answers
the click and edits the next player's DM (``benchmarks/p1_floor.py``).

With ``null_render = true`` as well, each lane is a real 3-player Donguri game held in memory: a
click plays a random legal move through the engine's contract (``apply``, with its checks), the
answer is the clicker's real prompt (``render.prompt_message``, as the bot draws a hand) and the DM
edit the next player's. That is the rules and the two drawings every move needs, without the
transaction's other rows, the reads, the table message, the record or any delivery bookkeeping.

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
from discord.http import handle_message_parameters
from discord.webhook.async_ import async_context

from bot.core.games import register
from bot.core.i18n import Lang
from bot.main import apply_endpoint_overrides
from bot.storage.store import Seat, TableRow
from bot.tables import render
from cogs.donguri.engine import DonguriEngine
from cogs.donguri.render import DonguriUI

log = logging.getLogger("tabletop")  # the fake's process helper waits for "tabletop: ready as"


class NullBot(discord.Client):
    def __init__(self, database: str, dm_edit: bool = False, draw: bool = False) -> None:
        super().__init__(intents=discord.Intents.default())
        self.database = database
        self.db: aiosqlite.Connection | None = None
        self.dm_edit = dm_edit or draw
        self.draw = draw
        self.last_token: dict[int, str] = {}  # channel -> the token of its last click
        self.games: dict[int, tuple[TableRow, DonguriEngine]] = {}  # channel -> its game (``null_render``)
        self.tr = Lang("en")
        if draw:
            register(DonguriUI())

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
        if self.draw:
            answer, turn = self.play(interaction.channel_id or 0)
            # The clicker's hand shows no card to play now; the lane's driver needs a button to press.
            move = {"type": 2, "style": 1, "label": "Move", "custom_id": click}
            answer.view.rows.append({"type": 1, "components": [move]})
            await interaction.response.edit_message(**answer.edit_kwargs())
            fields = turn.edit_kwargs()
        else:
            await interaction.response.edit_message(content=f"moved: {click}")
            fields = {"content": f"your turn: {click}"}
        if self.dm_edit:
            token = self.last_token.get(interaction.channel_id)
            self.last_token[interaction.channel_id] = interaction.token
            if token is not None:  # the same call ``Tokens.edit`` makes
                with handle_message_parameters(**fields) as params:
                    await async_context.get().edit_original_interaction_response(
                        self.application_id, token, session=self.http._HTTPClient__session,
                        payload=params.payload, multipart=params.multipart, files=params.files,
                    )

    def play(self, channel_id: int) -> tuple[render.Rendered, render.Rendered]:
        """A legal move at the lane's game (the next in turn of its list); the clicker's prompt and the next player's."""
        table, engine = self.games.get(channel_id) or self.new_game(channel_id)
        if engine.is_terminal():
            table, engine = self.new_game(channel_id)
        (seat,) = engine.to_act()
        legal = engine.legal_actions(seat)
        engine.apply(seat, legal[len(engine.history) % len(legal)])
        table.version += 1
        answer = render.prompt_message(table, engine, seat, self.tr, header="DM")
        following = engine.to_act()[0] if engine.to_act() else seat
        return answer, render.prompt_message(table, engine, following, self.tr, header="DM")

    def new_game(self, channel_id: int) -> tuple[TableRow, DonguriEngine]:
        seats = [Seat(n, 1000 + n, f"player {n}") for n in range(3)]
        table = TableRow(
            id=channel_id % 100000, game="donguri", guild_id=1, channel_id=channel_id, thread_id=None,
            message_id=None, host_id=1000, status="running", size=3, options={}, seed=channel_id,
            language="en", dirty=False, seats=seats,
        )
        self.games[channel_id] = table, DonguriEngine(3, channel_id, {})
        return self.games[channel_id]

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
    bot = NullBot(
        config["database"], dm_edit=config.get("null_dm_edit", False), draw=config.get("null_render", False)
    )
    asyncio.run(bot.start(os.environ["DISCORD_TOKEN"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
