"""The real bot against the fake Discord of an application with an Activity: **Play in Discord**
answers with ``LAUNCH_ACTIVITY`` (callback type 12), the table remembered for that member and
channel first; and the command sync keeps the application's Entry Point command, which Discord
refuses to let a bulk overwrite drop (50240), with ``activity = true`` or without it."""

from __future__ import annotations

import random
import sqlite3
from contextlib import asynccontextmanager

from tests.support.bot_process import TOKEN, BotProcess
from tests.support.discord_commands import ENTRY_POINT, ENTRY_POINT_DROPPED
from tests.support.discord_interactions import DEFERRED_UPDATE, LAUNCH
from tests.support.fake_discord import FakeDiscord
from tests.support.players import Players


@asynccontextmanager
async def bot_on(
    tmp_path, *config_lines: str, activities: bool = True, entry_point: bool = True, env: dict[str, str] | None = None
):
    """A fake Discord whose application has an Activity (and its Entry Point command, unless the
    owner deleted it), with the real bot started on it."""
    async with FakeDiscord(token=TOKEN) as fake:
        if activities:
            fake.app_commands.enable_activities()
        if not entry_point:
            fake.app_commands.global_commands.clear()
        bot = BotProcess(fake, tmp_path, *config_lines)
        bot.env.update(env or {})
        try:
            await bot.start_ready()
            yield fake, bot
        finally:
            await bot.stop()
            print(bot)


def launches(bot: BotProcess) -> list[tuple[int, int, int, int]]:
    with sqlite3.connect(bot.database) as db:
        return db.execute("SELECT user_id, guild_id, channel_id, table_id FROM activity_launches").fetchall()


async def test_play_in_discord_launches_the_activity_at_the_table(tmp_path):
    async with bot_on(tmp_path, "activity = true") as (fake, bot):
        players = Players(fake, random.Random(45))
        table = await players.started_donguri("activity")
        message = players.table_message(table)
        assert message.custom_ids("tt:play:") == [f"tt:play:{table.id}"]
        member = table.players[1]

        sent = await fake.click(member, message, f"tt:play:{table.id}")
        assert await sent.wait(4.0), "answered"
        assert sent.response_type == LAUNCH and fake.app_commands.launched == [sent], sent.said
        assert sent.latency < fake.interaction_deadline
        remembered = (int(member.id), int(fake.guild.id), int(table.channel.id), table.id)
        assert launches(bot) == [remembered], "the Activity's web side reads where it was launched from"

        again = await fake.click(member, players.table_message(table), f"tt:play:{table.id}")
        assert await again.wait(4.0) and again.response_type == LAUNCH
        assert launches(bot) == [remembered], "one row per member and channel"
        await fake.quiet(0.5, timeout=30)
        assert not fake.problems and not bot.errors(), (fake.problems, bot.errors()[:20])


async def test_a_press_deferred_under_load_is_told_to_press_again(tmp_path):
    slow = {"TABLETOP_HOLD_AT": "launch.before_answer=2.5"}  # past the 2 s after which a click is deferred
    async with bot_on(tmp_path, "activity = true", env=slow) as (fake, bot):
        players = Players(fake, random.Random(48))
        table = await players.started_donguri("busy")
        member = table.players[0]
        sent = await fake.click(member, players.table_message(table), f"tt:play:{table.id}")
        assert await sent.wait(4.0) and sent.response_type == DEFERRED_UPDATE, "acknowledged in time"
        await fake.wait_until(lambda: sent.said, timeout=10, what="the follow-up")
        assert sent.said == ["The bot was too busy to open the Activity in time. Press **Play in Discord** again."]
        assert launches(bot) == [(int(member.id), int(fake.guild.id), int(table.channel.id), table.id)]
        assert not fake.app_commands.launched and not bot.errors()


async def test_in_a_thread_nothing_is_launched_and_the_member_is_told(tmp_path):
    async with bot_on(tmp_path, "activity = true") as (fake, bot):
        players = Players(fake, random.Random(47))
        first = await players.started_donguri("halls")
        hall = next(c for c in fake.model.channels.values() if c.is_thread and c.parent_id == first.channel.id)
        members = [fake.add_member(f"hall{i}") for i in range(3)]
        table = await players.open_donguri(hall, members)
        await players.wait_started(table, timeout=60)
        sent = await fake.click(members[0], players.table_message(table), f"tt:play:{table.id}")
        assert await sent.wait(4.0) and sent.response_type != LAUNCH, "Discord would open no Activity there"
        assert "Activities cannot open in a thread." in (fake.message(sent.response_message_id).content or "")
        assert launches(bot) == [(int(members[0].id), int(fake.guild.id), int(first.channel.id), table.id)]
        await fake.quiet(0.5, timeout=30)
        assert not fake.problems and not fake.app_commands.launched and not bot.errors()


async def test_the_sync_keeps_the_entry_point_command_as_the_owner_set_it(tmp_path):
    async with FakeDiscord(token=TOKEN) as fake:
        fake.app_commands.enable_activities()
        entry = fake.app_commands.entry_point()
        assert entry is not None
        entry.update(name="play", description="Play cards", description_localizations={"ja": "カードで遊ぶ"})
        bot = BotProcess(fake, tmp_path, "activity = true")
        try:
            await bot.start_ready()
        finally:
            await bot.stop()
        kept = fake.app_commands.entry_point()
        assert kept is not None and not fake.app_commands.refused
        assert (kept["id"], kept["name"], kept["handler"]) == (entry["id"], "play", 2), "the same command, untouched"
        assert kept["description_localizations"] == {"ja": "カードで遊ぶ"}
        names = {c["name"] for c in fake.app_commands.global_commands}
        assert {"donguri", "tables", "play"} <= names, "the bot's own commands beside it"


async def test_an_application_without_an_entry_point_gets_one(tmp_path):
    async with bot_on(tmp_path, "activity = true", entry_point=False) as (fake, _bot):
        made = fake.app_commands.entry_point()
        assert made is not None
        assert (made["name"], made["type"], made["handler"]) == ("launch", ENTRY_POINT, 2)
        assert made["description"] == "Play this server's card games inside Discord"
        assert made["description_localizations"] == {"ja": "このサーバーのカードゲームをDiscordの中で遊ぶ"}
        assert made["contexts"] == [0], "in a server: the Activity plays that server's tables"


async def test_a_bot_without_activity_set_still_starts_beside_an_entry_point(tmp_path):
    async with bot_on(tmp_path) as (fake, bot):
        assert [code for code, _ in fake.app_commands.refused] == [ENTRY_POINT_DROPPED], "the plain sync, refused"
        assert fake.app_commands.entry_point() is not None, "then kept"
        assert any("Entry Point command is kept" in line for line in bot.lines), "the owner is told"
        players = Players(fake, random.Random(46))
        table = await players.started_donguri("no-activity")
        assert not players.table_message(table).custom_ids("tt:play:"), "no button: activity is not set"


async def test_without_an_activity_the_sync_is_one_overwrite(tmp_path):
    async with bot_on(tmp_path, activities=False) as (fake, _bot):
        assert not fake.calls_to("GET", f"/applications/{fake.application_id}/commands")
        assert len(fake.calls_to("PUT", f"/applications/{fake.application_id}/commands")) == 1
        assert fake.app_commands.entry_point() is None and not fake.app_commands.refused


async def test_activity_set_without_an_activity_syncs_as_before(tmp_path):
    async with bot_on(tmp_path, "activity = true", activities=False) as (fake, bot):
        assert fake.app_commands.entry_point() is None and not fake.app_commands.refused
        assert any("the application has no Activity" in line for line in bot.lines), "the owner is told"
