"""Screenshots of tournaments as organizers and players see them, from SimCord's preview page and
headless Chromium.

    python tools/preview_tournament.py [out_dir] [width] [--language en|ja ...]

For each language, an Othello de Torite Swiss of seven players whose organizer confirms each
seating, with an eighth added after the start: ``t1-signup.png``, ``t2-preview.png`` (the
organizer's look at round 2, after a swap), ``t3-round.png`` (the round's post), ``t4-live.png``
(the live standings once the event is over), ``t5-final.png`` and ``t6-podium.png``; then a Donguri
Swiss of seven at tables of four, whose short tables score fractions: ``t7-donguri.png``. Saved per
language, at phone width (420 px by default). Needs the test extra and Debian's ``chromium``
(``fonts-noto-cjk`` for Japanese).
"""

from __future__ import annotations

import asyncio
import pathlib
import sys

import discord

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.core.i18n import Lang  # noqa: E402
from tools.preview import arguments, in_each_language, shoot  # noqa: E402

NAMES = {
    "en": ("olga", "ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal"),
    "ja": ("おるが", "あん", "べん", "きゃっと", "だん", "いぶ", "ふぇい", "がす", "はる"),
}
LOCALES = {"en": "en-US", "ja": "ja"}
CUP = {"en": "Autumn Cup", "ja": "秋の大会"}


def titled(channel, words: str):
    """The newest of the bot's messages whose embed title holds ``words``."""
    return next(m for m in reversed(channel.history()) if m.author.bot and m.embeds and words in (m.embeds[0].title or ""))


def event_message(channel):
    return next(m for m in channel.history() if m.author.bot and m.embeds and "🏆" in (m.embeds[0].title or ""))


def button(message, verb: str) -> str:
    ids = [c.custom_id for row in message.components for c in row.children if getattr(c, "custom_id", None)]
    return next(i for i in ids if i.startswith(f"tt:ev:{verb}:"))


def answer(result):
    return result.followups[-1] if result.followups else result.response


async def until(env, bot, tournament_id: int, done) -> None:
    for _ in range(400):
        if done(await bot.tournaments.service.get(tournament_id)):
            return
        await env.advance_time(61)
    raise RuntimeError("the event did not get there")


async def othello(env, bot, guild, olga, members, language: str, out: pathlib.Path, width: int) -> None:
    locale = LOCALES[language]
    tr = Lang(language)
    channel = guild.create_text_channel("othello-cup")
    await olga.slash(
        channel, "tournament create", game="othello_torite", name=CUP[language], rounds=3, table_size=2,
        clock=60, confirm_pairings=True,
    )
    event = event_message(channel)
    for member in members[:7]:
        await member.click(event, custom_id=button(event, "join"))
    await shoot(env, channel, [olga], event_message(channel), out / "t1-signup.png", width, locale, 1100)
    started = await olga.click(event, custom_id=button(event, "start"))
    tournament_id = int(button(event, "drop").split(":")[-1])
    await olga.slash(channel, "tournament add", member=members[7])
    look = answer(started)
    await olga.click(look.message, custom_id=button(look.message, "confirm"))
    await until(env, bot, tournament_id, lambda t: t.round == 2)
    store = bot.tournaments.service.store
    rows = [r for r in await store.round_tables(tournament_id, 2) if r.number]
    by_id = {m.id: m for m in members}
    # Seat someone with their round-1 opponent again, so the look shows a repeat to undo.
    met = {p: q for r in await store.round_tables(tournament_id, 1) if r.number for p, q in (r.players, r.players[::-1])}
    first = next(r for r in rows if any(p in met for p in r.players))
    one = next(p for p in first.players if p in met)
    mate = next(p for p in first.players if p != one)
    swapped = await olga.slash(channel, "tournament swap", member=by_id[mate], other=by_id[met[one]])
    await shoot(env, channel, [olga], swapped.response, out / "t2-preview.png", width, locale, 1300)
    await olga.click(swapped.response.message, custom_id=button(swapped.response.message, "confirm"))
    post = next(m for m in reversed(channel.history()) if m.author.bot and "🏁" in (m.content or ""))
    await shoot(env, channel, [members[0]], post, out / "t3-round.png", width, locale, 700)

    for _ in range(400):  # the organizer confirms each round's seating as it comes
        tournament = await bot.tournaments.service.get(tournament_id)
        if tournament.status == "finished":
            break
        if tournament.round_confirmed < tournament.round:
            event = event_message(channel)
            look = (await olga.click(event, custom_id=button(event, "pairings"))).response
            await olga.click(look.message, custom_id=button(look.message, "confirm"))
        await env.advance_time(61)
    else:
        rows = await store.round_tables(tournament_id, tournament.round)
        states = [(r.number, r.table_id, r.table_id and (await bot.service.table(r.table_id)).status) for r in rows]
        raise RuntimeError(f"the event did not finish: round {tournament.round}: {states}")
    live = titled(channel, "📊")
    final = titled(channel, tr("tournament.final_standings", name=CUP[language]))
    podium = titled(channel, tr("tournament.champion", name=CUP[language]))
    await shoot(env, channel, [olga], live, out / "t4-live.png", width, locale, 1500)
    await shoot(env, channel, [olga], final, out / "t5-final.png", width, locale, 1500)
    await shoot(env, channel, [olga], podium, out / "t6-podium.png", width, locale, 900)


async def donguri(env, bot, guild, olga, members, language: str, out: pathlib.Path, width: int) -> None:
    locale = LOCALES[language]
    channel = guild.create_text_channel("donguri-cup")
    await olga.slash(
        channel, "tournament create", game="donguri", name=CUP[language], rounds=2, table_size=4, clock=60
    )
    event = event_message(channel)
    for member in members[:7]:
        await member.click(event, custom_id=button(event, "join"))
    await olga.click(event, custom_id=button(event, "start"))
    tournament_id = int(button(event, "drop").split(":")[-1])
    await until(env, bot, tournament_id, lambda t: t.status == "finished")
    final = titled(channel, Lang(language)("tournament.final_standings", name=CUP[language]))
    await shoot(env, channel, [olga], final, out / "t7-donguri.png", width, locale, 1300)


async def one_language(env, bot, language: str, out: pathlib.Path, width: int, locales) -> None:
    guild = env.create_guild(f"events-{language}", preferred_locale=LOCALES[language])
    staff = guild.create_role("staff", permissions=discord.Permissions(manage_guild=True))
    names = NAMES[language]
    olga = guild.add_member(env.create_user(names[0]), roles=[staff])
    members = [guild.add_member(env.create_user(n)) for n in names[1:]]
    for member in (olga, *members):
        locales[member.id] = LOCALES[language]
    for event in (othello, donguri):
        await event(env, bot, guild, olga, members, language, out, width)


async def main(out_dir: pathlib.Path, width: int, languages: list[str]) -> None:
    # As in the cog tests: whole events of computer games would wait on Discord's rate budgets.
    # Computers play at random (the search is for real games), as in the cog tests.
    await in_each_language(
        one_language, out_dir, width, languages, channel_budget=10_000, rest_budget=0, computer_search=False
    )


if __name__ == "__main__":
    args = arguments(__doc__, 420, LOCALES).parse_args()
    asyncio.run(main(args.out_dir, args.width, args.language or list(LOCALES)))
