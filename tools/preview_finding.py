"""Screenshots of finding a game, in English and Japanese: ``/tables`` with lobbies and a game in
play, an invitation DM, the invite-only lobby once some have answered, the answered DM, a call
for players, the DMs once the table started (with the guest and without), the line in the thread
for a guest whose DMs are closed, and a DM once its table was closed.

python tools/preview_finding.py [out_dir] [width]

Saved per language: ``finding-1-tables.png``, ``-2-invitation-dm.png``, ``-3-lobby-answers.png``,
``-4-accepted-dm.png``, ``-5-call.png``, ``-6-started-dm.png``, ``-7-started-without-dm.png``,
``-8-unreached-line.png``, ``-9-closed-dm.png``. Needs the test extra and Debian's ``chromium``
(``fonts-noto-cjk`` for Japanese).
"""

from __future__ import annotations

import asyncio
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support.table import add_computer  # noqa: E402
from tools.preview import in_each_language, message_of, shoot  # noqa: E402

HEIGHT = 1100
LANGUAGES = {
    "en": ("en-US", ("alice", "bob", "carol", "dave")),
    "ja": ("ja", ("たろう", "はなこ", "じろう", "さくら")),
}
NAMES = {"en": ("Cards club", "games", "players"), "ja": ("将棋部", "ゲーム", "募集")}


def table_message(channel):
    return [m for m in channel.history() if m.author.bot and m.embeds and "#" in (m.embeds[0].title or "")][-1]


def invitation(member):
    """The member's invitation DM (not a hand DM: its first line is the invitation's)."""
    marks = ("⚔", "✅", "❌", "⌛", "▶", "⏹", "🚫")
    return [m for m in member.user.dm_channel.history() if m.author.bot and m.embeds and (m.content or "")[:1] in marks][-1]




async def one_language(env, bot, language: str, out: pathlib.Path, width: int, locales) -> None:
    locale, names = LANGUAGES[language]
    server, games, role_name = NAMES[language]
    guild = env.create_guild(server, preferred_locale=locale)
    channel = guild.create_text_channel(games)
    host, bob, carol, dave = members = [guild.add_member(env.create_user(n)) for n in names]
    for member in members:
        locales[member.id] = locale
    for member in (bob, carol, dave):  # the bot has seen each one's language
        await member.slash(channel, "notifications")

    # A game in play, an open lobby, and an invite-only one.
    await dave.slash(channel, "othello new")
    await carol.click(table_message(channel), label="Join" if language == "en" else "参加")
    await dave.slash(channel, "saizen new", players=4)
    await host.slash(channel, "donguri new", players=4, length="short", invite=bob, invite2=carol, invite3=dave)
    await env.settle()
    listed = await bob.slash(channel, "tables")
    await shoot(env, channel, [bob], listed.response.message, out / "finding-1-tables.png", width, locale, HEIGHT)

    dm = invitation(bob)
    await shoot(env, bob.user.dm_channel, [bob.user], dm, out / "finding-2-invitation-dm.png", width, locale, HEIGHT)

    await bob.user.click(dm, label="Accept" if language == "en" else "受ける")
    await carol.user.click(invitation(carol), label="Decline" if language == "en" else "辞退する")
    await env.settle()
    lobby = table_message(channel)
    await shoot(env, channel, [host], lobby, out / "finding-3-lobby-answers.png", width, locale, HEIGHT)
    shown = invitation(bob)
    await shoot(env, bob.user.dm_channel, [bob.user], shown, out / "finding-4-accepted-dm.png", width, locale, HEIGHT)

    # A call for players: the server's role, five minutes after a lobby opened.
    role = guild.create_role(role_name, mentionable=True)
    await bot.services.settings.change(guild.id, {"lfg_role": role.id})
    await host.slash(channel, "donguri new", players=3)
    await env.advance_time(5 * 60 + 1)
    call = next(m for m in reversed(channel.history()) if m.author.bot and (m.content or "").startswith("📣"))
    await shoot(env, channel, [bob], call, out / "finding-5-call.png", width, locale, HEIGHT)

    # The invite-only table starts, with a computer in the fourth seat: bob plays, dave's invitation is over.
    lobby = message_of(guild, channel.id, lobby.id)
    await add_computer(host, lobby, label="Add computer" if language == "en" else "CPUを追加")
    await host.click(message_of(guild, channel.id, lobby.id), label="Start" if language == "en" else "開始")
    await env.settle()
    await shoot(env, bob.user.dm_channel, [bob.user], invitation(bob), out / "finding-6-started-dm.png", width, locale, HEIGHT)
    await shoot(env, dave.user.dm_channel, [dave.user], invitation(dave), out / "finding-7-started-without-dm.png", width, locale, HEIGHT)

    # A guest whose DMs are closed is named in the thread; the host then closes the table.
    env.inject_error("POST", f"/channels/{carol.user.dm_channel.id}/messages", status=403, code=50007,
                     message="Cannot send messages to this user", times=None)
    await host.slash(channel, "saizen new", players=3, invite=carol, invite2=dave)
    await env.settle()
    thread = channel.threads[-1]
    line = next(m for m in reversed(thread.history()) if m.author.bot and (m.content or "").startswith("✉"))
    await shoot(env, thread, [carol], line, out / "finding-8-unreached-line.png", width, locale, HEIGHT)
    env.backend.faults.clear()
    await host.click(table_message(channel), label="Cancel" if language == "en" else "中止")
    await env.settle()
    await shoot(env, dave.user.dm_channel, [dave.user], invitation(dave), out / "finding-9-closed-dm.png", width, locale, HEIGHT)


async def main(out_dir: pathlib.Path, width: int) -> None:
    await in_each_language(one_language, out_dir, width, LANGUAGES, channel_budget=10_000, rest_budget=0)


if __name__ == "__main__":
    target = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "previews")
    asyncio.run(main(target, int(sys.argv[2]) if len(sys.argv) > 2 else 420))
