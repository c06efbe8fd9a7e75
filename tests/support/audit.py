"""Compare what the fake Discord shows with what the bot committed to its database.

The truth is the database: each table's seats, seed, options and action log, replayed through the
pure engine. Each check returns a list of readable problems (empty when all is well):

* :func:`lost_or_doubled`: every move acknowledged to a member is in the log exactly once, at the
  version its button carried, and no human move is in the log that nobody pressed;
* :func:`unanswered_deferrals`: every click that was deferred got its final answer;
* :func:`committed_unacknowledged`: no member was told a committed move failed;
* :func:`stuck`: the seat to act can move from what Discord shows it (an enabled card in its hand
  DM at the committed version), and no computer is left to act;
* :func:`stale`: the table message and every hand DM show the committed state;
* :func:`record_lines`: every trick and deal line of the public record is in the thread once;
* :func:`hand_dms`: one hand DM per human seat per deal dealt, and one end-of-game DM once the
  table is finished.

The SQL reads today's schema (``bot/migrations``); if the schema changes, only :func:`read_tables`
changes with it.
"""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from bot.core.engine import Engine, Event
from bot.core.i18n import Lang
from cogs.donguri.engine import DonguriEngine
from cogs.donguri.render import DonguriUI, card_label
from tests.support.discord_model import User
from tests.support.fake_discord import FakeDiscord
from tests.support.players import WAITING, Click, Players, Table


@dataclass
class Seat:
    position: int
    user_id: str | None
    name: str
    away: bool

    @property
    def computer(self) -> bool:
        return self.user_id is None or self.away


@dataclass
class Truth:
    """One table as committed: its rows, and its engine replayed from the log."""

    id: int
    status: str
    language: str
    seats: list[Seat]
    log: list[tuple[int, int, str, bool]]  # idx, seat, action, by computer
    engine: Engine | None = None
    events: list[Event] = field(default_factory=list)
    deals: list[int] = field(default_factory=list)  # the deal each logged move belongs to

    def seat_of(self, user_id: str) -> int | None:
        return next((s.position for s in self.seats if s.user_id == user_id), None)

    @property
    def version(self) -> int:
        return len(self.log)

    def names(self) -> list[str]:
        tr = Lang(self.language)
        out = []
        for seat in self.seats:
            if seat.user_id is None:
                out.append(tr("table.computer", n=seat.name.split(":")[-1]))
            else:
                out.append(seat.name)  # a computer playing for a member: the seat list says so once
        return out


def read_tables(database: Path | str, table_id: int | None = None) -> dict[int, Truth]:
    """Every Donguri table in the database (or one), replayed (read-only; the bot may be running).
    ``database``: an SQLite file, or a ``postgresql://`` URL."""
    which = "game = 'donguri'" + ("" if table_id is None else f" AND id = {int(table_id)}")
    tables, seat_rows, action_rows = _rows(
        database,
        [
            f"SELECT * FROM game_tables WHERE {which} ORDER BY id",
            f"SELECT * FROM seats WHERE table_id IN (SELECT id FROM game_tables WHERE {which})"
            " ORDER BY table_id, position",
            f"SELECT * FROM actions WHERE table_id IN (SELECT id FROM game_tables WHERE {which})"
            " ORDER BY table_id, idx",
        ],
    )
    seats_of: dict[int, list[Seat]] = {}
    for r in seat_rows:
        user = None if r["user_id"] is None else str(r["user_id"])
        seats_of.setdefault(r["table_id"], []).append(Seat(r["position"], user, r["name"], bool(r["away"])))
    logs: dict[int, list] = {}
    for r in action_rows:
        logs.setdefault(r["table_id"], []).append((r["idx"], r["seat"], r["action"], bool(r["by_computer"])))
    out = {}
    for row in tables:
        seats, log = seats_of.get(row["id"], []), logs.get(row["id"], [])
        truth = Truth(row["id"], row["status"], row["language"], seats, log)
        if row["status"] != "lobby":
            engine = DonguriEngine(len(seats), row["seed"], json.loads(row["options"]))
            for _, seat, action, _ in log:
                truth.deals.append(engine.deal_number)
                truth.events += engine.apply(seat, action)
            truth.engine = engine
        out[row["id"]] = truth
    return out


def _rows(database: Path | str, queries: list[str]) -> list[list]:
    """The rows of each query (no parameters), from SQLite or PostgreSQL, read synchronously."""
    if str(database).startswith(("postgresql://", "postgres://")):
        return _pg_rows(str(database), queries)
    db = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    db.row_factory = sqlite3.Row
    try:
        return [db.execute(q).fetchall() for q in queries]
    finally:
        db.close()


def _pg_rows(url: str, queries: list[str]) -> list[list]:
    """asyncpg on a thread of its own: callers may be inside an event loop and expect an answer now."""
    import asyncpg

    async def fetch() -> list[list]:
        conn = await asyncpg.connect(url)
        try:
            async with conn.transaction(isolation="repeatable_read", readonly=True):  # one snapshot
                return [await conn.fetch(q) for q in queries]
        finally:
            await conn.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, fetch()).result()


def lost_or_doubled(clicks: list[Click], truths: dict[int, Truth]) -> list[str]:
    problems = []
    acknowledged: Counter[tuple[int, int]] = Counter()
    pressed: set[tuple[int, int, str]] = set()
    for click in clicks:
        truth = truths[click.table.id]
        seat = truth.seat_of(click.user.id)
        pressed.add((truth.id, seat, click.action))
        if not click.accepted:
            continue
        acknowledged[(truth.id, click.version)] += 1
        entry = truth.log[click.version] if click.version < len(truth.log) else None
        if entry is None or entry[1:3] != (seat, click.action):
            problems.append(
                f"table {truth.id}: acknowledged {click.custom_id} by seat {seat} is not in the log"
            )
    problems += [
        f"table {t}: version {v} acknowledged {n} times" for (t, v), n in acknowledged.items() if n > 1
    ]
    for truth in (truths[t] for t in sorted({c.table.id for c in clicks})):
        gaps = [idx for n, (idx, *_) in enumerate(truth.log) if idx != n]
        if gaps:
            problems.append(f"table {truth.id}: the log has a gap before move {gaps[0]}")
        moves = Counter(
            (deal, seat, action) for deal, (_, seat, action, _) in zip(truth.deals, truth.log, strict=True)
        )
        problems += [f"table {truth.id}: {m} is in the log {n} times" for m, n in moves.items() if n > 1]
        for idx, seat, action, by_computer in truth.log:
            if not by_computer and (truth.id, seat, action) not in pressed:
                problems.append(f"table {truth.id}: move {idx} {action} of seat {seat} was never pressed")
    return problems


def unanswered_deferrals(clicks: list[Click]) -> list[str]:
    """Clicks deferred ("thinking…" on the button) that never got their final answer: the clicked
    hand redrawn, or a private word, from whichever process finished them."""
    return [
        f"table {c.table.id}: {c.custom_id} by {c.user.name} was deferred and never answered"
        for c in clicks
        if c.outcome == WAITING
    ]


def committed_unacknowledged(fake: FakeDiscord, clicks: list[Click], truths: dict[int, Truth]) -> list[str]:
    """Moves that were committed while their mover was not told so (an error, or no answer)."""
    problems = []
    acknowledged = {(c.table.id, c.version, c.action) for c in clicks if c.accepted}
    for click in clicks:
        truth = truths[click.table.id]
        entry = truth.log[click.version] if click.version < len(truth.log) else None
        if entry is None or entry[1:3] != (truth.seat_of(click.user.id), click.action):
            continue
        if (truth.id, click.version, click.action) in acknowledged:
            continue  # another press of the same button (a stale copy of the DM) was the one taken
        sent = click.sent
        told = [fake.message(m).content for m in sent.followups] if sent else []
        answer = (sent.response or {}).get("content") if sent else None
        problems.append(
            f"table {truth.id}: {click.custom_id} was committed but {click.user.name} got "
            f"{sent.response_type if sent else 'nothing'} {answer or ''} {told or ''}".rstrip()
        )
    return problems


def _expected_ids(table: Table, truth: Truth, seat: int) -> set[str]:
    return {f"tt:a:{table.id}:{truth.version}:{a}" for a in truth.engine.legal_actions(seat)}


def stuck(players: Players, tables: list[Table], truths: dict[int, Truth]) -> list[str]:
    problems = []
    for table in tables:
        truth = truths[table.id]
        if truth.status != "running":
            continue
        for seat in truth.engine.to_act():
            record = truth.seats[seat]
            if record.computer:
                problems.append(f"table {table.id}: a computer (seat {seat}) is to act and nobody moves it")
                continue
            user = next(u for u in table.players if u.id == record.user_id)
            dm = players.hand_dm(table, user)
            shown = set(dm.custom_ids(f"tt:a:{table.id}:")) if dm else set()
            if not shown & _expected_ids(table, truth, seat):
                problems.append(
                    f"table {table.id}: {user.name} is to act at v{truth.version} and has no working button"
                )
    return problems


def dealt(tables: list[Table], truths: dict[int, Truth]) -> Iterator[tuple[Table, Truth]]:
    """The tables that have started, with their truth."""
    for table in tables:
        if truths[table.id].engine is not None:
            yield table, truths[table.id]


def members(table: Table, truth: Truth) -> Iterator[tuple[Seat, User]]:
    """Every seat a member plays, with that member."""
    for seat in truth.seats:
        if not seat.computer:
            yield seat, next(u for u in table.players if u.id == seat.user_id)


def stale(players: Players, tables: list[Table], truths: dict[int, Truth]) -> list[str]:
    problems = []
    for table, truth in dealt(tables, truths):
        engine = truth.engine
        message = players.table_message(table)
        waiting = set(re.findall(r"<@!?(\d+)>", message.content or ""))
        expected = {truth.seats[s].user_id for s in engine.to_act() if truth.seats[s].user_id}
        if truth.status == "running" and waiting != expected:
            problems.append(
                f"table {table.id}: the table message waits for {waiting}, the log for {expected}"
            )
        counts = engine.public_view()["hand_counts"]
        text = message.text()
        for seat, name in enumerate(truth.names()):
            # A computer's name carries its level, e.g. **🤖 Computer 1 (normal)**.
            shown = re.compile(rf"\*\*{re.escape(name)}( \([^)]*\))?\*\*")
            # A finished table names its players in the result block first, then in the seat list.
            lines = [ln for ln in text.splitlines() if shown.search(ln)]
            if not any(re.search(rf"\b{counts[seat]} cards?\b", ln) for ln in lines):
                problems.append(
                    f"table {table.id}: {name} holds {counts[seat]} cards; the table shows {lines!r}"
                )
        for seat, user in members(table, truth):
            dm = players.hand_dm(table, user)
            hand = sorted(card_label(c, len(truth.seats)) for c in engine.hands[seat.position])
            labels = sorted(c.get("label") for c in dm.buttons()) if dm else None
            if truth.status == "running" and labels != hand:
                problems.append(f"table {table.id}: {user.name}'s DM shows {labels}, the hand is {hand}")
            enabled = set(dm.custom_ids(f"tt:a:{table.id}:")) if dm else set()
            want = _expected_ids(table, truth, seat.position) if truth.status == "running" else set()
            if enabled != want:
                problems.append(
                    f"table {table.id}: {user.name}'s DM offers {sorted(enabled)}, expected {sorted(want)}"
                )
    return problems


def record_lines(fake: FakeDiscord, tables: list[Table], truths: dict[int, Truth]) -> list[str]:
    problems = []
    ui = DonguriUI()
    for table, truth in dealt(tables, truths):
        thread = fake.model.channels.get(table.message_id)  # a thread from a message has its id
        expected = ui.record(truth.events, truth.engine.public_view(), truth.names(), Lang(truth.language))
        # The same line can belong twice (two deals with the same first trick, played by the same
        # seats), so the lines are compared in order, not each counted once.
        wanted = set(expected)
        shown = [
            line
            for message in (fake.shown(thread.id) if thread else [])
            for line in message.content.splitlines()
            if line in wanted
        ]
        if shown == expected:
            continue
        times, belongs = Counter(shown), Counter(expected)
        wrong = [line for line in belongs if times[line] != belongs[line]]
        for line in wrong:
            problems.append(f"table {table.id}: record line shown {times[line]} times, not {belongs[line]}: {line}")
        if not wrong:
            problems.append(f"table {table.id}: record lines out of order")
    return problems


def hand_dms(players: Players, tables: list[Table], truths: dict[int, Truth]) -> list[str]:
    problems = []
    for table, truth in dealt(tables, truths):
        for _, user in members(table, truth):
            sent = len(players.hand_dms(table, user))
            if sent != truth.engine.deal_number:
                problems.append(
                    f"table {table.id}: {user.name} got {sent} hand DMs for {truth.engine.deal_number} deals"
                )
            results = len(players.result_dms(table, user))
            if results != (truth.status == "finished"):
                problems.append(f"table {table.id} ({truth.status}): {user.name} got {results} end-of-game DMs")
    return problems
