"""Screenshots of a server setting the bot up, in English and Japanese: the welcome, /settings with
its defaults, after changes (with a channel where the bot cannot post yet), after the chosen role
and category were deleted, and a table refused for a missing permission.

python tools/preview_settings.py [out_dir] [width]
"""

from __future__ import annotations

import asyncio
import pathlib
import sys
import tempfile

import discord
import simcord
from simcord.backend import serializers
from simcord.backend.models.channel import Overwrite, OverwriteType

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.app import create_bot  # noqa: E402
from bot.core.config import Config  # noqa: E402
from tests.support.locales import patch_client_locales  # noqa: E402
from tools.preview import LANGUAGES, shoot  # noqa: E402

HEIGHT = 1300
NAMES = {"en": ("Cards club", "games", "quiet", "staff", "Card tables"), "ja": ("将棋部", "ゲーム", "雑談", "運営", "卓")}


async def one_language(env, bot, language: str, out: pathlib.Path, width: int, locales) -> None:
    locale, (member_name, _) = LANGUAGES[language]
    server, games, quiet_name, staff_name, category_name = NAMES[language]
    backend = env.backend
    guild = env.create_guild(server, preferred_locale=locale)
    channel = guild.create_text_channel(games)
    quiet = guild.create_text_channel(quiet_name)
    admins = guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    admin = guild.add_member(env.create_user(member_name), roles=[admins])
    locales[admin.id] = locale
    # The bot joins: its welcome in the system channel.
    backend.edit_guild(guild.id, {"system_channel_id": channel.id})
    payload = dict(serializers.guild_create_payload(backend, backend.get_guild(guild.id)))
    payload.pop("unavailable")
    backend.emit("GUILD_CREATE", payload)
    await env.settle()
    welcome = next(m for m in channel.history() if m.author.bot)
    await shoot(env, channel, [admin], welcome, out / "settings-0-welcome.png", width, locale)

    shown = await admin.slash(channel, "settings")
    await shoot(env, channel, [admin], shown.response.message, out / "settings-1-defaults.png", width, locale)

    staff = guild.create_role(staff_name)
    tables = guild.create_category(category_name)
    bot_id = backend.bot_user.id
    deny = discord.Permissions(send_messages=True)
    backend.set_overwrite(quiet.id, Overwrite(bot_id, OverwriteType.MEMBER, 0, deny.value))
    await env.settle()
    changed = await admin.slash(
        channel, "settings", language="en" if language == "ja" else "ja", organizer_role=staff, category=tables,
        table_channels=f"{channel.mention} {quiet.mention}", clock=3600, computer_level="hard", thread_pings=False,
    )
    await shoot(env, channel, [admin], changed.response.message, out / "settings-2-changed.png", width, locale)

    backend.delete_role(guild.id, staff.id)
    backend.delete_channel(tables.id)
    await env.settle()
    gone = await admin.slash(channel, "settings")
    await shoot(env, channel, [admin], gone.response.message, out / "settings-3-gone.png", width, locale)

    refused = await admin.slash(quiet, "donguri new", players=3)
    await shoot(env, quiet, [admin], refused.response.message, out / "settings-4-refused.png", width, locale)


async def main(out_dir: pathlib.Path, width: int) -> None:
    locales = patch_client_locales(setattr)
    with tempfile.TemporaryDirectory() as tmp:
        bot = create_bot(Config(token="unused", database=f"{tmp}/db.sqlite3"))
        async with simcord.run(bot) as env:
            for language in LANGUAGES:
                (out_dir / language).mkdir(parents=True, exist_ok=True)
                await one_language(env, bot, language, out_dir / language, width, locales)
        await bot.close()


if __name__ == "__main__":
    target = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "previews")
    asyncio.run(main(target, int(sys.argv[2]) if len(sys.argv) > 2 else 420))
