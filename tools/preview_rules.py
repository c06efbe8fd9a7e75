"""Screenshots of each game's rules, as ``/<game> rules`` answers them, in both languages.

    python tools/preview_rules.py [out_dir] [width]

Saved per language as ``rules-<game>.png`` (the answer is tall: the page is 2,400 px high).
"""

from __future__ import annotations

import asyncio
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools.preview import in_each_language, shoot  # noqa: E402

LANGUAGES = {"en": ("en-US", "alice"), "ja": ("ja", "たろう")}
COMMANDS = {"donguri": "donguri", "arsene": "arsene", "saizen": "saizen", "othello_torite": "othello", "final_quest": "finalquest"}


async def one_language(env, bot, language: str, out: pathlib.Path, width: int, locales) -> None:
    locale, name = LANGUAGES[language]
    guild = env.create_guild(f"rules-{language}", preferred_locale=locale)
    channel = guild.create_text_channel("games")
    member = guild.add_member(env.create_user(name))
    locales[member.id] = locale
    await env.settle()
    for game, command in COMMANDS.items():
        answer = await member.slash(channel, f"{command} rules")
        await shoot(env, channel, [member], answer.response.message, out / f"rules-{game}.png", width, locale, height=2400)


async def main(out_dir: pathlib.Path, width: int) -> None:
    await in_each_language(one_language, out_dir, width, list(LANGUAGES))


if __name__ == "__main__":
    target = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "previews")
    asyncio.run(main(target, int(sys.argv[2]) if len(sys.argv) > 2 else 420))
