"""Screenshots of the turn notices, from SimCord's preview page and headless Chromium.

    python tools/preview_notices.py [out_dir] [width] [--language en|ja ...]

For each language: three members at a Donguri table with a one-day clock. The first to play is
away: after the grace period they get a DM (their one ping); at the clock's reminder it is
replaced; once they move, it says they have played. Then an unclocked table whose members chose
``/notifications never``: the thread mentions the one it waits for, and says they have played
once they move. The answers of /notifications follow. Saved per language as
``notice-<n>-<what>.png``.
"""

from __future__ import annotations

import asyncio
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools import preview  # noqa: E402
from tools.preview import channel_of, hand_dm, in_each_language, playable  # noqa: E402

LANGUAGES = {"en": ("en-US", ("alice", "bob", "carol")), "ja": ("ja", ("たろう", "はなこ", "じろう"))}
DAY = 86400


async def shoot(env, channel, viewers, out: pathlib.Path, width: int, locale: str, height: int = 900) -> None:
    """The whole channel, where a notice stands among the messages around it."""
    await preview.shoot(env, channel, viewers, None, out, width, locale, height, layout="channel")


async def table(env, bot, guild, members, clock: int | None):
    host = members[0]
    channel = guild.create_text_channel(f"games-{clock or 'free'}")
    await host.slash(channel, "donguri new", players=3, length="short")
    table_id = max(t.id for t in await bot.store.tables_with_status("lobby"))
    row = await bot.service.table(table_id)
    lobby = next(m for m in channel.history() if m.id == row.message_id)
    if clock:
        await host.select(lobby, [str(clock)], custom_id=f"tt:clock:{table_id}")
    for member in members[1:]:
        await member.click(lobby, custom_id=f"tt:join:{table_id}")
    row = await bot.service.table(table_id)
    return row, channel_of(guild, row.home_channel_id)


def to_act(members, row):
    return next(m for m in members if row.seat_of(m.id) in row.turn_seats)


async def one_language(env, bot, language: str, out: pathlib.Path, width: int, locales) -> None:
    locale, names = LANGUAGES[language]
    guild = env.create_guild(f"notices-{language}", preferred_locale=locale)
    members = [guild.add_member(env.create_user(n)) for n in names]
    for member in members:
        locales[member.id] = locale
    row, home = await table(env, bot, guild, members, DAY)
    away = to_act(members, row)
    await env.advance_time(125)
    await shoot(env, away.user.dm_channel, [away.user], out / "notice-1-dm.png", width, locale)
    await env.advance_time(DAY * 0.8)
    await shoot(env, away.user.dm_channel, [away.user], out / "notice-2-reminder-dm.png", width, locale)
    dm = hand_dm(away)
    await away.user.click(dm, custom_id=playable(dm)[0])
    await shoot(env, away.user.dm_channel, [away.user], out / "notice-3-moved-dm.png", width, locale)
    settings = guild.create_text_channel("settings")
    for member in members:
        await member.slash(settings, "notifications", mode="never")
    row, home = await table(env, bot, guild, members, None)
    waited = to_act(members, row)
    await env.advance_time(125)
    await shoot(env, home, [waited], out / "notice-4-never-thread.png", width, locale)
    dm = hand_dm(waited)
    await waited.user.click(dm, custom_id=playable(dm)[0])
    await shoot(env, home, [waited], out / "notice-5-moved-thread.png", width, locale)
    host = members[0]
    for mode in ("always", "away", "never"):
        await host.slash(settings, "notifications", mode=mode)
    await host.slash(settings, "notifications")
    await shoot(env, settings, [host], out / "notice-6-settings.png", width, locale, height=1300)


async def main(out_dir: pathlib.Path, width: int, languages: list[str]) -> None:
    await in_each_language(one_language, out_dir, width, languages, channel_budget=10_000)


if __name__ == "__main__":
    args = preview.arguments(__doc__, 420, LANGUAGES).parse_args()
    asyncio.run(main(args.out_dir, args.width, args.language or list(LANGUAGES)))
