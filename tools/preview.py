"""Screenshots of what players see, from SimCord's preview page and headless Chromium.

    python tools/preview.py [out_dir] [width] [--game GAME ...] [--language en|ja ...]

For every game and both languages: a server in that language, two members whose Discord is in it
(Japanese names for Japanese), a table opened and filled with computers, a few moves, then the
computers finish the game. Saved per language, at phone width (400 px by default):
``<game>-1-lobby.png``, ``-2-table.png``, ``-3-dm.png`` (the DM prompt of a member),
``-4-final.png``, ``-5-end-dm.png`` (the host's DMs once the game is over: the last hand closed,
then the result, at the bottom), ``-6-rematch.png`` (the final table once the host has pressed **Rematch**) and
``-10-offer.png`` (the offer in the table's thread, mentioning the guest), ``-7-help.png`` (the host's answer to the
table's **?**), ``-8-away.png`` (the table once a computer plays the guest's seat: the seat list
says so once) and, for Final Quest, ``-9-facts.png`` (the question answered, quoted in the facts).
Needs the test extra and Debian's ``chromium`` (``fonts-noto-cjk`` for Japanese).
"""

from __future__ import annotations

import argparse
import asyncio
import pathlib
import re
import shutil
import sys
import tempfile

import simcord

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.app import create_bot  # noqa: E402
from bot.core.config import Config  # noqa: E402
from tests.support.locales import patch_client_locales  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or "chromium"
LANGUAGES = {"en": ("en-US", ("alice", "bob")), "ja": ("ja", ("たろう", "はなこ"))}
#: Game → (slash command, options of its ``new``, opening moves made by the members).
GAMES = {
    "donguri": ("donguri", {"players": 4, "length": "short"}, 3),  # 4: the second card struck through
    "arsene": ("arsene", {"players": 3}, 3),
    "saizen": ("saizen", {"players": 3, "jokers": 1}, 4),
    "othello_torite": ("othello", {}, 3),
    "final_quest": ("finalquest", {}, 0),  # a member's turn then opens with their own question
}
QUESTION = {"en": "Is your highest card a face card?", "ja": "いちばん大きいカードは絵札ですか?"}
HEIGHT = 1500


async def shoot(
    env, channel, viewers, target, out: pathlib.Path, width: int, locale: str, height: int = HEIGHT, layout="message"
) -> None:
    """``channel`` as ``viewers`` see it, at ``target`` (a message; None: the newest), through headless
    Chromium into ``out``."""
    async with env.preview(
        channel, viewers=viewers, layout=layout, width=width, height=height, display="fixed", locale=locale
    ) as preview:
        if target is not None:
            await preview.show(target)
        proc = await asyncio.create_subprocess_exec(
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
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


def channel_of(guild, channel_id: int):
    for channel in guild.channels.values():
        for found in (channel, *channel.threads):
            if found.id == channel_id:
                return found
    raise LookupError(channel_id)


def message_of(guild, channel_id: int, message_id: int):
    return next(m for m in channel_of(guild, channel_id).history() if m.id == message_id)


def hand_dm(member):
    messages = [m for m in member.user.dm_channel.history() if m.author.bot and m.components]
    return messages[-1] if messages else None


def playable(message) -> list[str]:
    return [
        c.custom_id
        for row in message.components
        for c in row.children
        if getattr(c, "custom_id", "").startswith("tt:a") and not c.disabled
    ]


async def play_a_move(bot, guild, table, members) -> bool:
    """The first member to act plays their first offered move, from their DM."""
    message = message_of(guild, table.channel_id, table.message_id)
    waiting = {int(uid) for uid in re.findall(r"<@(\d+)>", message.content or "")}
    for member in members:
        dm = hand_dm(member) if member.id in waiting else None
        ids = playable(dm) if dm else []
        if ids:
            select = next((row.children[0] for row in dm.components if row.children[0].type.value == 3), None)
            if ids[0].startswith("tt:as:") and select is not None:
                await member.user.select(dm, [select.options[0].value], custom_id=ids[0])
            else:
                await member.user.click(dm, custom_id=ids[0])
            return True
    return False


async def settled(env, bot, table_id: int) -> None:
    """Until the delivery worker has drawn what the table holds now."""
    await bot.delivery.refresh(table_id)
    for _ in range(200):
        await env.settle()
        if bot.delivery.worker.idle:
            return
        await asyncio.sleep(0.01)


async def member_to_ask(env, bot, table_id: int, members):
    """The member whose turn it is once the computers have played up to it, before their action."""
    for _ in range(50):
        table = await bot.service.table(table_id)
        engine = await bot.service.engine(table)
        public = engine.public_view()
        asker = next((m for m in members if table.seat_of(m.id) == public["turn_seat"]), None)
        if asker is not None and public["phase"] == "turn":
            return asker if public["main_action"] is None else None
        await settled(env, bot, table_id)
        await asyncio.sleep(0.05)
    return None


async def answer_the_question(bot, guild, table_id: int, members) -> None:
    """The member asked a free question answers YES, with the table's button."""
    table = await bot.service.table(table_id)
    engine = await bot.service.engine(table)
    pending = engine.public_view()["pending"]
    asked = next((m for m in members if pending and table.seat_of(m.id) == pending["seat"]), None)
    if asked is not None:
        message = message_of(guild, table.channel_id, table.message_id)
        await asked.click(message, custom_id=f"tt:a:{table_id}:{len(engine.history)}:answer:yes")


async def one_game(env, bot, game: str, language: str, out: pathlib.Path, width: int, locales) -> None:
    locale, names = LANGUAGES[language]
    command, options, moves = GAMES[game]
    guild = env.create_guild(f"{game}-{language}", preferred_locale=locale)
    channel = guild.create_text_channel("games")
    members = [guild.add_member(env.create_user(n)) for n in names]
    for member in members:
        locales[member.id] = locale
    host, guest = members
    await host.slash(channel, f"{command} new", **options)
    table_id = max(t.id for t in await bot.store.tables_with_status("lobby"))
    table = await bot.service.table(table_id)
    lobby = message_of(guild, table.channel_id, table.message_id)
    if table.size > 2:
        await guest.click(lobby, custom_id=f"tt:join:{table_id}")
    await shoot(env, channel_of(guild, table.channel_id), [host], lobby, out / f"{game}-1-lobby.png", width, locale)
    if table.size == 2:
        await guest.click(lobby, custom_id=f"tt:join:{table_id}")
    while (table := await bot.service.table(table_id)).status == "lobby":
        picker = await host.click(message_of(guild, table.channel_id, table.message_id), custom_id=f"tt:bot:{table_id}")
        await host.click(picker.response, custom_id=f"tt:bot:normal:{table_id}")
    for _ in range(moves):
        await play_a_move(bot, guild, await bot.service.table(table_id), members)
    table = await bot.service.table(table_id)
    home = channel_of(guild, table.home_channel_id)
    if game == "final_quest":
        asker = await member_to_ask(env, bot, table_id, members)
        if asker is not None:
            target = next(m for m in members if m is not asker)
            await asker.slash(home, "finalquest ask", player=target, question=QUESTION[language])
    message = message_of(guild, table.channel_id, table.message_id)
    await shoot(env, channel_of(guild, table.channel_id), [host], message, out / f"{game}-2-table.png", width, locale)
    waiting = {int(uid) for uid in re.findall(r"<@(\d+)>", message.content or "")}
    shown = next((m for m in members if m.id in waiting and hand_dm(m)), guest if hand_dm(guest) else host)
    dm = hand_dm(shown)
    if dm is not None:
        await shoot(env, shown.user.dm_channel, [shown.user], dm, out / f"{game}-3-dm.png", width, locale)
    table_channel = channel_of(guild, table.channel_id)
    message = message_of(guild, table.channel_id, table.message_id)
    helped = await host.click(message, custom_id=f"tt:help:{table_id}")
    await shoot(env, table_channel, [host], helped, out / f"{game}-7-help.png", width, locale)
    if game == "final_quest":
        await answer_the_question(bot, guild, table_id, members)
        await settled(env, bot, table_id)
        table = await bot.service.table(table_id)
        message = message_of(guild, table.channel_id, table.message_id)
        await shoot(env, table_channel, [host], message, out / f"{game}-9-facts.png", width, locale)
    await bot.seat_ops.hand_to_computer(table_id, guest.id)
    await settled(env, bot, table_id)
    table = await bot.service.table(table_id)
    message = message_of(guild, table.channel_id, table.message_id)
    await shoot(env, table_channel, [host], message, out / f"{game}-8-away.png", width, locale)
    for member in members:
        await bot.seat_ops.hand_to_computer(table_id, member.id)
    await bot.service.play_computers(table_id)  # the rest at once, rather than at the worker's pace
    await bot.delivery.refresh(table_id)
    for _ in range(500):  # until the delivery worker has shown the finished table and its record
        await env.settle()
        table = await bot.service.table(table_id)
        if bot.delivery.worker.idle and not await bot.store.log_after(table_id, table.recorded):
            break
        await asyncio.sleep(0.01)
    table = await bot.service.table(table_id)
    final = message_of(guild, table.channel_id, table.message_id)
    await shoot(env, channel_of(guild, table.channel_id), [host], final, out / f"{game}-4-final.png", width, locale)
    await shoot(env, host.user.dm_channel, [host.user], None, out / f"{game}-5-end-dm.png", width, locale, layout="channel")
    await host.click(final, custom_id=f"tt:rematch:{table_id}")
    if len({s.user_id for s in table.seats} - {None}) > 1:  # else the rematch has started at once
        final = message_of(guild, table.channel_id, table.message_id)
        await shoot(env, channel_of(guild, table.channel_id), [host], final, out / f"{game}-6-rematch.png", width, locale)
        await settled(env, bot, table_id)
        offer = [m for m in channel_of(guild, table.home_channel_id).history() if (m.content or "").startswith("🔁")]
        if offer:
            await shoot(env, channel_of(guild, table.home_channel_id), [guest], offer[-1], out / f"{game}-10-offer.png", width, locale)


async def in_each_language(one_language, out_dir: pathlib.Path, width: int, languages, **config) -> None:
    """``one_language(env, bot, language, out, width, locales)`` for each language in turn, on one bot
    in SimCord (``config`` added to its own) with a throwaway database; ``out`` is
    ``out_dir/<language>``."""
    locales = patch_client_locales(setattr)
    with tempfile.TemporaryDirectory() as tmp:
        bot = create_bot(Config(token="unused", database=f"{tmp}/db.sqlite3", **config))
        try:
            async with simcord.run(bot) as env:
                env.settle_timeout = 40  # a busy machine takes long over a round of computer moves
                for language in languages:
                    (out_dir / language).mkdir(parents=True, exist_ok=True)
                    await one_language(env, bot, language, out_dir / language, width, locales)
        finally:
            await bot.close()  # its workers stop before its database closes


def arguments(doc: str, width: int, languages) -> argparse.ArgumentParser:
    """The command line every preview tool shares: where to save, at what width, in which languages."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("out_dir", nargs="?", default="previews", type=pathlib.Path)
    parser.add_argument("width", nargs="?", default=width, type=int)
    parser.add_argument("--language", action="append", choices=sorted(languages), help="default: both")
    return parser


async def main(out_dir: pathlib.Path, width: int, games: list[str], languages: list[str]) -> None:
    async def every_game(env, bot, language: str, out: pathlib.Path, width: int, locales) -> None:
        for game in games:
            await one_game(env, bot, game, language, out, width, locales)

    # As in the cog tests: a game played out at once would wait on Discord's rate budgets here.
    await in_each_language(every_game, out_dir, width, languages, channel_budget=10_000, rest_budget=0)


if __name__ == "__main__":
    parser = arguments(__doc__, 400, LANGUAGES)
    parser.add_argument("--game", action="append", choices=sorted(GAMES), help="default: every game")
    args = parser.parse_args()
    asyncio.run(main(args.out_dir, args.width, args.game or list(GAMES), args.language or list(LANGUAGES)))
