"""The load benchmark's driver: tables to play, clicks in a closed or an open loop, and stored
tables seeded straight into the database.

A :class:`Lane` is one table in play. For the real bot it is a 3-player Donguri table opened and
started through the gateway like members do; the driver keeps the table's engine (replayed from
the database once) and presses the card of the seat to act by its button id, on that member's
hand DM as soon as the DM shows it (or, after 2 s, from the private answer of **My hand /
Play**): Discord only lets a member press what they are shown. For the null bot a lane is a
message with one button.

The hand-off of a turn is timed from Discord's side: from the click that passed the turn (its
gateway frame) to the edit, or the new message, that made the next player's DM show the card they
press (the fake Discord dates each edit as it arrives). A DM that did not show it within
``PATIENCE`` counts as not shown in time, however late it came.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from cogs.donguri.engine import DonguriEngine
from cogs.donguri.render import card_label
from tests.support import audit
from tests.support.discord_interactions import Sent, Undelivered
from tests.support.discord_model import Message, User
from tests.support.fake_discord import FakeDiscord
from tests.support.players import Click, Players, Table

ANSWER_TIMEOUT = 4.0
PATIENCE = 2.0  # how long a member waits for their DM to show their turn before asking for their hand


@dataclass
class Lane:
    table: Table | None  # None for a null-bot lane
    users: list[User]  # by seat
    message: Message | None = None  # the null bot's button message
    engine: DonguriEngine | None = None
    busy: bool = False
    resync: bool = False  # a click went unanswered: read the log again before the next move
    passed: tuple[float, str] | None = None  # the last accepted click: (when sent, by which member)

    @property
    def done(self) -> bool:
        """The game is over: nothing left to press."""
        return self.engine is not None and self.engine.is_terminal()


@dataclass
class Tally:
    """What came of the clicks of one measurement."""

    sent: list[Sent] = field(default_factory=list)
    accepted: int = 0
    unanswered: int = 0
    refused: int = 0  # answered with something else than the move (out of date, an error ...)
    skipped: int = 0  # open loop: an arrival found no idle table
    stuck: int = 0  # the member to act was shown no button for the move, even by My hand
    #: Seconds from a click to the next player's DM showing their turn (another member's turn
    #: only; ``inf`` when it was not shown within ``PATIENCE``).
    handoffs: list[float] = field(default_factory=list)
    started: float = 0.0
    ended: float = 0.0

    @property
    def seconds(self) -> float:
        return max(self.ended - self.started, 1e-9)

    def latencies_ms(self) -> list[float]:
        return sorted(s.latency * 1000 for s in self.sent if s.latency is not None)

    def handoffs_ms(self) -> list[float]:
        return sorted(1000 * h for h in self.handoffs)


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile of sorted ``values``, interpolated between ranks (``statistics``'
    inclusive method); an infinite value (a DM not shown in time) makes any rank it touches infinite."""
    if not values:
        return float("nan")
    rank = q * (len(values) - 1)
    low = int(rank)
    high = min(low + 1, len(values) - 1)
    part = rank - low
    if part == 0 or values[low] == values[high]:
        return values[low]
    return values[low] + (values[high] - values[low]) * part


# ---- lanes ---------------------------------------------------------------------------------
async def open_lanes(
    fake: FakeDiscord, players: Players, database: Path, count: int, failures: list[str], parallel: int = 8
) -> list[Lane]:
    """``count`` started Donguri tables, each in a channel of its own, as lanes. A table that fails
    to open or start (the bot refused a click, or answered too late) is left out and its error
    added to ``failures``."""
    gate = asyncio.Semaphore(parallel)

    async def one(n: int) -> Table | None:
        async with gate:
            members = [fake.add_member(f"b{n}x{i}") for i in range(3)]
            try:
                table = await players.open_donguri(
                    fake.add_text_channel(f"bench-{n}"), members, length="standard"
                )
                await players.wait_started(table, timeout=120)
            except AssertionError as exc:
                failures.append(str(exc).splitlines()[0][:300])
                return None
            return table

    start = len(fake.model.guilds[fake.guild.id].channels)
    tables = [t for t in await asyncio.gather(*(one(start + n) for n in range(count))) if t is not None]
    truths = audit.read_tables(database)
    lanes = []
    for table in tables:
        truth = truths[table.id]
        users = [next(u for u in table.players if u.id == s.user_id) for s in truth.seats]
        lanes.append(Lane(table, users, engine=truth.engine))
    return lanes


def null_lanes(fake: FakeDiscord, count: int) -> list[Lane]:
    lanes = []
    for n in range(count):
        channel = fake.add_text_channel(f"null-{n}")
        user = fake.add_member(f"n{n}")
        button = {"type": 2, "style": 1, "label": "Move", "custom_id": f"null:{n}"}
        message = fake.model.post(
            channel.id,
            fake.model.bot.id,
            {"content": "null", "components": [{"type": 1, "components": [button]}]},
        )
        lanes.append(Lane(None, [user], message=message))
    return lanes


def shown_at(message: Message) -> float:
    """When the message came to show what it shows now (its last edit, or its sending)."""
    return message.edits[-1] if message.edits else message.created_at


async def target(fake: FakeDiscord, players: Players, lane: Lane, user: User, custom_id: str, tally: Tally):
    """The message showing ``custom_id`` to ``user``: their hand DM once it is redrawn, or else the
    private answer of **My hand / Play** (Discord only lets members press what they are shown).
    A turn handed over by another member's click is timed (``Tally.handoffs``)."""
    channel = fake.model.dm_of.get(user.id)
    passed = lane.passed if lane.passed is not None and lane.passed[1] != user.id else None
    deadline = time.monotonic() + PATIENCE
    while True:
        dm = players.hand_dm(lane.table, user)
        if dm is not None and custom_id in dm.custom_ids():
            if passed is not None:
                took = shown_at(dm) - passed[0]
                tally.handoffs.append(took if took <= PATIENCE else float("inf"))
            return dm
        left = deadline - time.monotonic()
        if left <= 0 or channel is None:
            break
        await fake.watch([channel], left)
    if passed is not None:
        tally.handoffs.append(float("inf"))
    sent = await fake.click(user, players.table_message(lane.table), f"tt:hand:{lane.table.id}")
    if await sent.wait(ANSWER_TIMEOUT) and sent.response_message_id:
        private = fake.message(sent.response_message_id)
        if custom_id in private.custom_ids():
            return private
    return None


async def step(fake: FakeDiscord, players: Players, lane: Lane, rng: random.Random, tally: Tally, database):
    """One move on the lane; waits for the answer."""
    lane.busy = True
    try:
        if lane.table is None:
            user, message, custom_id, label = (
                lane.users[0],
                lane.message,
                lane.message.custom_ids()[0],
                "Move",
            )
        else:
            if lane.resync:
                lane.engine = audit.read_tables(database, lane.table.id)[lane.table.id].engine
                lane.resync = False
                lane.passed = None
            engine = lane.engine
            if engine.is_terminal():
                return
            (seat,) = engine.to_act()
            action = rng.choice(engine.legal_actions(seat))
            user = lane.users[seat]
            custom_id = f"tt:a:{lane.table.id}:{len(engine.history)}:{action}"
            label = card_label(action.removeprefix("play:"), 3)
            message = await target(fake, players, lane, user, custom_id, tally)
            lane.passed = None
            if message is None:
                tally.stuck += 1
                lane.engine = audit.read_tables(database, lane.table.id)[lane.table.id].engine
                return
        hand = len(message.buttons())  # before the answer redraws the message
        try:
            sent = await fake.click(user, message, custom_id)
        except Undelivered:
            tally.unanswered += 1
            return
        tally.sent.append(sent)
        if not await sent.wait(ANSWER_TIMEOUT):
            tally.unanswered += 1
            lane.resync = lane.table is not None
            return
        if lane.table is None:
            ok = sent.updated
        else:
            ok = Click(lane.table, user, custom_id, label, sent, hand=hand).accepted
            if ok:
                lane.engine.apply(seat, action)
                lane.passed = (sent.sent_at, user.id)
            else:  # out of step with the database: read it again
                lane.engine = audit.read_tables(database, lane.table.id)[lane.table.id].engine
        tally.accepted += ok
        tally.refused += not ok
    finally:
        lane.busy = False


def in_play(lanes: list[Lane], count: int) -> list[Lane]:
    """The first ``count`` lanes whose game is not over (a finished table gives way to the next)."""
    return [lane for lane in lanes if not lane.done][:count]


async def closed_loop(fake, players, lanes: list[Lane], count: int, seconds: float, rng, database) -> Tally:
    """``count`` tables in play, each moving again as soon as its last move is answered."""
    tally = Tally(started=time.monotonic())
    until = tally.started + seconds
    taken: set[int] = set()

    def next_lane() -> Lane | None:
        lane = next((x for x in lanes if not x.done and id(x) not in taken), None)
        if lane is not None:
            taken.add(id(lane))
        return lane

    async def run() -> None:
        lane = next_lane()
        while lane is not None and time.monotonic() < until:
            if lane.done:
                lane = next_lane()
                continue
            await step(fake, players, lane, rng, tally, database)

    await asyncio.gather(*(run() for _ in range(count)))
    tally.ended = time.monotonic()
    return tally


async def open_loop(fake, players, lanes: list[Lane], count: int, rate: float, seconds: float, rng, database):
    """Moves arrive at ``rate`` per second (Poisson), each on a random idle one of ``count`` tables
    in play; an arrival that finds every table busy is skipped."""
    tally = Tally(started=time.monotonic())
    tasks = []
    at = tally.started
    while True:
        at += rng.expovariate(rate)
        if at > tally.started + seconds:
            break
        await asyncio.sleep(max(0.0, at - time.monotonic()))
        playing = in_play(lanes, count)
        idle = [lane for lane in rng.sample(playing, min(len(playing), 8)) if not lane.busy]
        if not idle:
            tally.skipped += 1
            continue
        lane = idle[0]
        lane.busy = True
        tasks.append(asyncio.create_task(step(fake, players, lane, rng, tally, database)))
    await asyncio.gather(*tasks)
    tally.ended = time.monotonic()
    return tally


# ---- stored tables ---------------------------------------------------------------------------
def seed_tables(
    database: Path,
    count: int,
    *,
    moves: int,
    guild: int,
    channel: int,
    dirty: bool = False,
    places: list[tuple[int, int, list[int]]] | None = None,
    seed: int = 1,
) -> None:
    """Write ``count`` running 3-player Donguri tables with ``moves`` moves each straight into an
    existing (migrated) database. ``places`` gives each table's (message id, thread id, user ids)
    when the fake must know them (dirty tables are redrawn at start-up); otherwise ids are made up.
    Follows today's schema (``bot/migrations``)."""
    rng = random.Random(seed)
    stamp = datetime.now(UTC).isoformat(timespec="seconds")
    db = sqlite3.connect(database)
    try:
        with db:
            for n in range(count):
                message, thread, users = (
                    places[n]
                    if places
                    else (10**17 + 2 * n, 10**17 + 2 * n, [10**16 + 3 * n + i for i in range(3)])
                )
                table_seed = rng.getrandbits(62)
                engine = DonguriEngine(3, table_seed, {"length": "standard"})
                log = []
                for _ in range(moves):
                    (seat,) = engine.to_act()
                    action = rng.choice(engine.legal_actions(seat))
                    engine.apply(seat, action)
                    log.append((seat, action))
                cur = db.execute(
                    "INSERT INTO game_tables (game, guild_id, channel_id, thread_id, message_id, host_id, status,"
                    " size, options, seed, language, dirty, created_at, updated_at, turn_seats, turn_no)"
                    " VALUES ('donguri', ?, ?, ?, ?, ?, 'running', 3, ?, ?, 'en', ?, ?, ?, ?, ?)",
                    (
                        guild,
                        channel,
                        thread,
                        message,
                        users[0],
                        json.dumps({"length": "standard"}),
                        table_seed,
                        int(dirty),
                        stamp,
                        stamp,
                        json.dumps(engine.to_act()),
                        1 + len(log),
                    ),
                )
                table_id = cur.lastrowid
                db.executemany(
                    "INSERT INTO seats (table_id, position, user_id, name) VALUES (?, ?, ?, ?)",
                    [(table_id, i, u, f"Player {u % 1000}") for i, u in enumerate(users)],
                )
                db.executemany(
                    "INSERT INTO actions (table_id, idx, seat, action, by_computer, created_at) VALUES (?, ?, ?, ?, 0, ?)",
                    [(table_id, i, s, a, stamp) for i, (s, a) in enumerate(log)],
                )
    finally:
        db.close()
