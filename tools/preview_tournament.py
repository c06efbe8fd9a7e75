"""Screenshots of a tournament as players see it: sign-up, a round, standings, podium, the live
standings, the finished event message, leaderboard and profile.

python tools/preview_tournament.py [out_dir] [width]
"""

from __future__ import annotations

import asyncio
import pathlib
import sys
import tempfile

import discord
import simcord

from bot.app import create_bot
from bot.core.config import Config
from tools.preview import shoot


def titled(channel, words: str):
    return [m for m in channel.history() if m.author.bot and m.embeds and words in (m.embeds[0].title or "")]


async def main(out_dir: pathlib.Path, width: int) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        bot = create_bot(Config(token="unused", database=f"{tmp}/db.sqlite3"))
        async with simcord.run(bot) as env:
            guild = env.create_guild()
            channel = guild.create_text_channel("events")
            staff = guild.create_role("staff", permissions=discord.Permissions(manage_guild=True))
            olga = guild.add_member(env.create_user("olga"), roles=[staff])
            names = ("ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal", "ivy")
            members = [guild.add_member(env.create_user(n)) for n in names]
            await olga.slash(
                channel,
                "tournament create",
                game="donguri",
                name="Autumn Cup",
                rounds=3,
                table_size=3,
                clock=60,
            )
            event = titled(channel, "🏆")[0]
            for member in members:
                await member.click(event, label="Sign up")
            await shoot(env, channel, [olga], titled(channel, "🏆")[0], out_dir / "t1-signup.png", width)
            await olga.click(event, label="Organiser: start")
            round_post = next(m for m in channel.history() if "Round 1" in (m.content or ""))
            await shoot(env, channel, [members[0]], round_post, out_dir / "t2-round.png", width)
            for _ in range(300):
                if titled(channel, "Final standings"):
                    break
                await env.advance_time(61)
            for words, name, height in (
                ("Standings after", "t3-standings", 1400),
                ("Final standings", "t4-final", 1400),
                ("champion", "t5-podium", 900),
                ("Live standings", "t5b-live", 1400),
                ("🏆 Autumn Cup", "t5c-event", 900),
            ):
                await shoot(
                    env, channel, [olga], titled(channel, words)[0], out_dir / f"{name}.png", width, height
                )
            board = await members[0].slash(channel, "leaderboard", game="donguri")
            await shoot(
                env, channel, [members[0]], board.response.message, out_dir / "t6-leaderboard.png", width
            )
            profile = await members[0].slash(channel, "profile")
            await shoot(
                env, channel, [members[0]], profile.response.message, out_dir / "t7-profile.png", width
            )
        await bot.store.close()


if __name__ == "__main__":
    target = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "previews")
    asyncio.run(main(target, int(sys.argv[2]) if len(sys.argv) > 2 else 480))
