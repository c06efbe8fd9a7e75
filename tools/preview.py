"""Screenshots of what players see, from SimCord's preview page and headless Chromium.

    python tools/preview.py [out_dir] [width]

Opens a Donguri table with three members in a simulated server, starts it, and saves PNGs of the
lobby, the running table, the ephemeral hand prompt and the DM hand at phone width.
"""

from __future__ import annotations

import asyncio
import pathlib
import shutil
import sys
import tempfile

import simcord

from bot.app import create_bot
from bot.core.config import Config

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or "chromium"


async def shoot(env, channel, viewers, target, out: pathlib.Path, width: int, height: int = 900) -> None:
    async with env.preview(channel, viewers=viewers, width=width, height=height, display="fixed") as preview:
        if target is not None:
            await preview.show(target)
        proc = await asyncio.create_subprocess_exec(
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--virtual-time-budget=5000",
            f"--window-size={width},{height}",
            f"--screenshot={out}",
            preview.url,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )
        await proc.wait()
    print(out)


async def main(out_dir: pathlib.Path, width: int) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        bot = create_bot(Config(token="unused", database=f"{tmp}/db.sqlite3"))
        async with simcord.run(bot) as env:
            guild = env.create_guild()
            channel = guild.create_text_channel("games")
            alice, bob, carol = (guild.add_member(env.create_user(n)) for n in ("alice", "bob", "carol"))
            await alice.slash(channel, "donguri new", players=3, length="short")
            lobby = [m for m in channel.history() if m.embeds][-1]
            await bob.click(lobby, label="Join")
            await shoot(env, channel, [alice], lobby, out_dir / "1-lobby.png", width)
            await carol.click(lobby, label="Join")
            table = [m for m in channel.history() if m.embeds][-1]
            first = next(m for m in (alice, bob, carol) if str(m.id) in (table.content or ""))
            dm = [m for m in first.user.dm_channel.history() if m.author.bot][-1]
            ids = [c.custom_id for row in dm.components for c in row.children if not c.disabled]
            await first.user.click(dm, custom_id=ids[0])
            table = [m for m in channel.history() if m.embeds][-1]
            await shoot(env, channel, [alice], table, out_dir / "2-table.png", width)
            second = next(m for m in (alice, bob, carol) if str(m.id) in (table.content or ""))
            prompt = await second.click(table, label="My hand / Play")
            await shoot(env, channel, [second], prompt, out_dir / "3-hand-prompt.png", width)
            dm = [m for m in second.user.dm_channel.history() if m.author.bot][-1]
            await shoot(env, second.user.dm_channel, [second.user], dm, out_dir / "4-dm-hand.png", width)
        await bot.store.close()


if __name__ == "__main__":
    target = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "previews")
    asyncio.run(main(target, int(sys.argv[2]) if len(sys.argv) > 2 else 400))
