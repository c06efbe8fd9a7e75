"""Three bot processes (the real entry point) sharing one PostgreSQL database and one fake Discord.

Each interaction reaches one process chosen at random, as DM clicks reach shard 0 whatever server
the table is in. The same click is sent to two processes at the same instant; processes are killed
with SIGKILL and restarted while the others go on; move clocks run out while the process that
armed them is dead. Then: each move applied once, each timeout handled once, nothing stuck or
stale, every record line once, one hand DM per seat per deal, no error logged.
"""

from __future__ import annotations

import asyncio
import random
import time

import asyncpg

from tests.support import audit
from tests.support.bot_process import TOKEN, bot_processes
from tests.support.discord_gateway import shard_of
from tests.support.discord_traffic import most_within
from tests.support.fake_discord import FakeDiscord
from tests.support.players import Click, Players, Table, keep_playing, two_processes
from tests.support.postgres import fresh_database

PROCESSES = 3
SETTLE = 6.0  # seconds without a REST call: every process's work has ended
DM_WAIT = 3.0  # how long a member waits for their DM to show their turn


async def double_click(players: Players, table: Table) -> list[Click]:
    """The member to act presses the same card twice at once, each press reaching another process."""
    fake = players.fake

    def offered():
        return next(((u, f) for u in table.players if (f := players.playable(table, u))), None)

    # As a member would, wait for the DM to show the turn: with Discord's global limit kept across
    # the processes, a burst of moves may take a moment to reach every DM.
    ready = offered()
    dms = [fake.model.dm_of[u.id] for u in table.players if u.id in fake.model.dm_of]
    deadline = time.monotonic() + DM_WAIT
    while ready is None and dms and (left := deadline - time.monotonic()) > 0:
        await fake.watch(dms, left)
        ready = offered()
    if ready is None:
        return []
    user, (message, ids) = ready
    custom_id = players.rng.choice(ids)
    label = next(c.get("label") for c in message.buttons() if c.get("custom_id") == custom_id)
    hand = len(message.buttons())
    sent = await asyncio.gather(
        fake.click(user, message, custom_id, via=0), fake.click(user, message, custom_id, via=1)
    )
    clicks = [Click(table, user, custom_id, label, s, "dm", hand) for s in sent]
    await asyncio.gather(*(s.wait(4.0) for s in sent))
    players.clicks.extend(clicks)
    return clicks


async def timeout_notes(url: str, table_id: int) -> int:
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetchval(
            "SELECT COUNT(*) FROM table_log WHERE table_id = $1 AND code = 'clock.computer_played'", table_id
        )
    finally:
        await conn.close()


async def table_rows(url: str) -> str:
    """What the database says of each table, for a failure's report."""
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch(
            "SELECT id, status, version, dirty, message_id, courier, (SELECT COUNT(*) FROM actions a"
            " WHERE a.table_id = t.id) AS moves FROM game_tables t ORDER BY id"
        )
        shown = await conn.fetch("SELECT * FROM shown ORDER BY table_id, surface")
    finally:
        await conn.close()
    return "\n".join([*map(str, rows), *map(str, shown)])


async def test_processes_sharing_postgresql_apply_each_move_and_timeout_once(tmp_path, pg_cluster):
    url = await fresh_database(pg_cluster.url)
    rng = random.Random(21)
    async with FakeDiscord(token=TOKEN) as fake:
        bots = bot_processes(fake, tmp_path, [f"bot{i}" for i in range(PROCESSES)], url)
        try:
            for bot in bots:
                await bot.start_ready()
            fake.spread = random.Random(3)
            players = Players(fake, rng)
            try:
                tables = await players.open_tables(4)
                clocked = await players.open_tables(2, clock=60)
            except AssertionError:
                print(await table_rows(url))
                raise

            # The same click at two processes at once: one of them applies it.
            doubles = 0
            for _ in range(4):
                for table in tables:
                    clicks = await double_click(players, table)
                    if clicks:
                        doubles += 1
                        assert sum(c.accepted for c in clicks) <= 1, [c.sent.response for c in clicks]
            assert doubles >= 8

            # Play on while processes die and come back, one at a time.
            stop = asyncio.Event()
            loops = [asyncio.create_task(keep_playing(players, t, stop)) for t in tables]
            for _ in range(4):
                await asyncio.sleep(rng.uniform(0.5, 2.0))
                victim = rng.choice(bots)
                await victim.kill()
                await asyncio.sleep(rng.uniform(0.2, 1.0))
                await victim.start_ready()
            stop.set()
            await asyncio.gather(*loops)

            # Move clocks run out while the processes that armed them are dead: another process
            # takes the deadline over, and it is handled once.
            before = [await timeout_notes(url, t.id) for t in clocked]
            conn = await asyncpg.connect(url)
            try:
                await conn.execute(
                    "UPDATE game_tables SET deadline = $1, remind_at = NULL WHERE id = ANY($2::bigint[])",
                    time.time() + 1.0,
                    [t.id for t in clocked],
                )
            finally:
                await conn.close()
            for bot in bots[:2]:
                await bot.kill()
            deadline = time.monotonic() + 40
            while time.monotonic() < deadline:
                notes = [await timeout_notes(url, t.id) for t in clocked]
                if all(n > b for n, b in zip(notes, before, strict=True)):
                    break
                await asyncio.sleep(0.5)
            for bot in bots[:2]:
                await bot.start_ready()
            await fake.quiet(SETTLE, timeout=90)
            after = [await timeout_notes(url, t.id) for t in clocked]
            assert after == [b + 1 for b in before], (before, after)

            truths = audit.read_tables(url)
            moves = sum(c.accepted for c in players.clicks)
            assert moves > 8 * len(tables), f"only {moves} moves were played"
            everything = tables + clocked
            report = {
                "acknowledged moves lost or doubled": audit.lost_or_doubled(players.clicks, truths),
                "stuck tables": audit.stuck(players, everything, truths),
                "stale surfaces": audit.stale(players, everything, truths),
                "record lines lost or repeated": audit.record_lines(fake, everything, truths),
                "hand DMs missing or repeated": audit.hand_dms(players, everything, truths),
                "errors logged": [e for bot in bots for e in bot.errors()],
            }
            failed = {k: v for k, v in report.items() if v}
            assert not failed, "\n".join(f"{k}: {len(v)}\n  " + "\n  ".join(v[:8]) for k, v in failed.items())
            assert not fake.unknown, fake.summary()
        finally:
            for bot in bots:
                await bot.stop()
                print(bot)


async def test_two_shard_processes_a_table_in_one_played_from_dms_in_the_other(tmp_path, pg_cluster):
    """Shard 1's process serves the server; every DM click goes to shard 0's process, as Discord
    sends them. The table plays to the same end either way."""
    url = await fresh_database(pg_cluster.url)
    async with FakeDiscord(token=TOKEN) as fake:
        while shard_of(fake.guild.id, 2) != 1:  # a server on shard 1, so its DMs go elsewhere
            fake.guild = fake.model.add_guild()
        bots = [
            *bot_processes(fake, tmp_path, ["shard0"], url, "shard_count = 2", "shard_ids = [0]"),
            *bot_processes(fake, tmp_path, ["shard1"], url, "shard_count = 2", "shard_ids = [1]"),
        ]
        try:
            for bot in bots:
                await bot.start_ready()
            players = Players(fake, random.Random(8))
            (table,) = await players.open_tables(1)
            for _ in range(25):
                if await players.move(table) is None:
                    break
            await fake.quiet(SETTLE, timeout=60)
            shards = {(s.connection.shard, s.channel_id in fake.model.dm_of.values()) for s in fake.sent.values()}
            assert ((0, 2), True) in shards and ((1, 2), False) in shards, shards  # (shard, count), a DM?
            # Turns that come back reach DMs through the members' click tokens, which are stored
            # with each move, whichever process delivers the table.
            by_token = sum(1 for c in fake.calls if c.kind == "followup.edit" and c.status == 200)
            by_bot = sum(1 for c in fake.calls if c.label == "dm.message.edit")
            assert by_token > by_bot, (by_token, by_bot)
            truths = audit.read_tables(url)
            assert sum(c.accepted for c in players.clicks) >= 10
            report = {
                "acknowledged moves lost or doubled": audit.lost_or_doubled(players.clicks, truths),
                "stuck tables": audit.stuck(players, [table], truths),
                "stale surfaces": audit.stale(players, [table], truths),
                "errors logged": [e for bot in bots for e in bot.errors()],
            }
            assert not any(report.values()), report
        finally:
            for bot in bots:
                await bot.stop()
                print(bot)


async def test_a_table_passed_between_processes_keeps_the_pace_of_its_message_and_record(tmp_path, pg_cluster):
    """Clicks reach either of two processes at random, so the table passes from one to the other
    move after move; its message still changes at most once per 2 s and its record once per 5 s,
    as with one process (each process remembering only its own edits made about twice as many)."""
    async with two_processes(tmp_path, pg_cluster.url, seed=5) as (fake, players, url, bots):
        (table,) = await players.open_tables(1)
        await fake.quiet(SETTLE, timeout=60)
        began = time.monotonic()
        moves = 0
        while time.monotonic() - began < 8.0:  # about 50 moves: the game goes on throughout
            click = await players.move(table)
            assert click is not None, fake.summary()
            moves += click.accepted
            await asyncio.sleep(0.1)
        ended = time.monotonic()
        assert moves >= 30 and not audit.read_tables(url)[table.id].engine.is_terminal()
        calls = fake.calls_between(began, ended)
        assert len({id(c.sent.connection) for c in players.clicks[-moves:]}) == 2, "both processes took clicks"
        edits = [c for c in calls if c.label == "channel.message.edit" and c.channel_id == str(table.channel.id)]
        records = [c for c in calls if c.place == "thread" and c.kind.startswith("message.")]
        seconds = ended - began
        assert len(edits) <= seconds / 2 + 1, (len(edits), seconds, moves)
        assert len(records) <= seconds / 5 + 1, (len(records), seconds, moves)
        assert not [e for bot in bots for e in bot.errors()]


async def test_processes_delivering_tables_in_one_channel_keep_its_budget_together(tmp_path, pg_cluster):
    """Three tables share a channel, and their clicks reach either of two processes at random. Each
    table message keeps its pace (one edit per 2 s), so together they would make 7 or 8 edits in
    5 s; the channel still gets at most 5, as with one process. (Each process counting only its
    own calls let through 10.)"""
    async with two_processes(tmp_path, pg_cluster.url, seed=7) as (fake, players, url, bots):
        channel = fake.add_text_channel("games-shared")
        tables = []
        for _ in range(3):
            members = [fake.add_member(f"p{len(fake.model.users)}") for _ in range(3)]
            tables.append(await players.open_donguri(channel, members))
        for table in tables:
            await players.wait_started(table, timeout=60)
        await fake.quiet(SETTLE, timeout=60)
        began = time.monotonic()
        moves = 0
        playing = list(tables)
        while playing and time.monotonic() - began < 10.0:
            for table in list(playing):
                click = await players.move(table)
                if click is None:  # the game is over
                    assert audit.read_tables(url)[table.id].engine.is_terminal(), fake.summary()
                    playing.remove(table)
                else:
                    moves += click.accepted
        await fake.quiet(SETTLE, timeout=60)
        calls = [c for c in fake.calls_between(began, time.monotonic()) if c.channel_id == str(channel.id)]
        assert moves >= 30 and len(calls) >= 6, (moves, len(calls))
        assert most_within([c.at for c in calls], 5.0) <= 5, sorted(round(c.at - began, 2) for c in calls)
        truths = audit.read_tables(url)
        assert not audit.stale(players, tables, truths)  # the final state is shown all the same
        assert not [e for bot in bots for e in bot.errors()]
