"""Simulated members who open, join and play Donguri tables from what the fake Discord shows.

A member knows only what Discord shows them: the table message (its lobby buttons, then "Waiting
for @someone"), their hand DMs with card buttons, and ephemeral answers. To move they press an
enabled card in their latest hand DM of that table; when their DM offers nothing they press
**My hand / Play** on the table message and play from the private answer, as the DM-closed notice
tells them to. Button ids are the bot's: ``tt:join:<table>``, ``tt:a:<table>:<version>:<action>``
(see ``bot/components.py``).

A click counts as an accepted move when the bot answered by updating the clicked message (at once,
or by an edit after deferring that update) and the card pressed is gone from the updated hand (or
it was the last card, and the next deal's hand is shown), or a private message said the move was
played: anything else (a refusal, "out of date", "unexpected error", no answer, a deferral with
nothing after it) is not.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

from tests.support.bot_process import TOKEN, BotProcess, bot_processes
from tests.support.discord_interactions import DEFERRED_UPDATE, UPDATE, Sent, Undelivered
from tests.support.discord_model import Channel, Message, User
from tests.support.fake_discord import FakeDiscord
from tests.support.postgres import fresh_database

ANSWER_TIMEOUT = 4.0  # Discord takes no first answer after 3 s
PLAYED = "was played."  # the end of the follow-up that tells a mover their move was played (prompt.played)
TAKEN, REFUSED, WAITING, UNANSWERED, UNDELIVERED = "taken", "refused", "waiting", "unanswered", "undelivered"


@dataclass
class Table:
    """One table as its players know it."""

    id: int
    channel: Channel
    message_id: str
    players: list[User]
    computers: int = 0

    @property
    def title_mark(self) -> str:
        return f"#{self.id}"


@dataclass
class Click:
    """One move attempt and what came of it."""

    table: Table
    user: User
    custom_id: str
    label: str
    sent: Sent | None  # None: not delivered (no bot connected)
    via: str = "dm"  # "dm" or "hand" (the ephemeral My hand answer)
    hand: int = 0  # cards on the clicked message: 1 means the last card of the deal

    @property
    def version(self) -> int:
        return int(self.custom_id.split(":")[3])

    @property
    def action(self) -> str:
        return self.custom_id.split(":", 4)[4]

    @property
    def accepted(self) -> bool:
        return self.outcome == TAKEN

    def describe(self) -> str:
        """What the member saw of this click, for a failing assertion."""
        sent = self.sent
        if sent is None:
            return f"{self.custom_id} ({self.label}): {self.outcome}"
        shown = sent.response if sent.response_type in (UPDATE, 4) else (sent.edits[0] if sent.edits else None)
        return (
            f"{self.user.name} {self.custom_id} ({self.label}, via {self.via}, {self.hand} cards): "
            f"{self.outcome}; answer {sent.response_type}, said {sent.said}, shown {shown}"
        )

    @property
    def outcome(self) -> str:
        """What the member was finally shown of this click: ``TAKEN`` (the clicked hand redrawn
        without the card, at once or after a deferred update, or "your move was played"),
        ``REFUSED`` (anything else said), ``WAITING`` (deferred, and nothing since), ``UNANSWERED``
        (Discord had no answer: the click failed) or ``UNDELIVERED`` (no bot was connected)."""
        sent = self.sent
        if sent is None:
            return UNDELIVERED
        if sent.response_type not in (UPDATE, DEFERRED_UPDATE):
            return UNANSWERED if sent.response_type is None else REFUSED
        if any(PLAYED in text for text in sent.said):
            return TAKEN
        if sent.said:
            return REFUSED
        shown = sent.response if sent.response_type == UPDATE else (sent.edits[0] if sent.edits else None)
        if shown is None:
            return WAITING
        buttons = shown.get("components")
        if buttons is None:
            return REFUSED
        labels = [c.get("label") for row in buttons for c in row.get("components", [])]
        return TAKEN if self.label not in labels or self.hand == 1 else REFUSED  # the last card: a new deal


@dataclass
class Players:
    """The members of one fake Discord, and every move click they made."""

    fake: FakeDiscord
    rng: random.Random
    clicks: list[Click] = field(default_factory=list)
    refused: set[tuple[str, int]] = field(default_factory=set)  # DMs (id, edits) whose click was refused
    patience: float = 0.5  # how long a member waits for a DM to offer a card before asking for their hand

    # ---- reading what Discord shows -------------------------------------------------------------
    def table_message(self, table: Table) -> Message:
        return self.fake.message(table.message_id)

    def hand_dms(self, table: Table, user: User) -> list[Message]:
        """The member's hand DMs of this table, oldest first (turn notices have no embed; the
        end-of-game DM begins "🏁")."""
        return [m for m in self.table_dms(table, user) if not m.content.startswith("🏁")]

    def result_dms(self, table: Table, user: User) -> list[Message]:
        """The member's end-of-game DMs of this table (``bot/tables/result_dms.py``)."""
        return [m for m in self.table_dms(table, user) if m.content.startswith("🏁")]

    def table_dms(self, table: Table, user: User) -> list[Message]:
        mark = re.compile(rf"{re.escape(table.title_mark)}\b")
        return [
            m
            for m in self.fake.dms(user.id)
            if m.embeds and any(mark.search(e.get("title") or "") for e in m.embeds)
        ]

    def hand_dm(self, table: Table, user: User) -> Message | None:
        """The member's latest hand DM of this table."""
        dms = self.hand_dms(table, user)
        return dms[-1] if dms else None

    def waiting_for(self, table: Table) -> list[User]:
        """Members the table message says the table is waiting for."""
        content = self.table_message(table).content or ""
        ids = re.findall(r"<@!?(\d+)>", content)
        return [u for u in table.players if u.id in ids]

    # ---- lobby ----------------------------------------------------------------------------------
    async def answered(self, sent: Sent, what: str) -> Sent:
        if not await sent.wait(ANSWER_TIMEOUT):
            raise AssertionError(f"no answer to {what} within {ANSWER_TIMEOUT}s\n{self.fake.summary()}")
        return sent

    async def open_donguri(
        self,
        channel: Channel,
        players: list[User],
        *,
        computers: int = 0,
        length: str = "short",
        clock: int | None = None,
    ) -> Table:
        """``/donguri new`` by the first player, settings, Add computer, then Join by the others
        (the table starts by itself when the last seat is taken)."""
        host = players[0]
        size = len(players) + computers
        sent = await self.fake.slash(host, channel, "donguri new", players=size, length=length)
        await self.answered(sent, "/donguri new")
        # "Your table is open" comes once the table knows its message and thread.
        await self.fake.wait_until(lambda: sent.followups, timeout=ANSWER_TIMEOUT, what="table opened")
        lobby = await self.fake.wait_until(
            lambda: next(
                (m for m in reversed(self.fake.shown(channel.id)) if m.custom_ids("tt:join:")), None
            ),
            timeout=ANSWER_TIMEOUT,
            what="lobby message",
        )
        table_id = int(lobby.custom_ids("tt:join:")[0].split(":")[2])
        table = Table(table_id, channel, lobby.id, list(players), computers)
        if clock is not None:
            await self.lobby_click(table, host, f"tt:clock:{table_id}", [str(clock)])
        for _ in range(computers):
            await self.add_computer(table, host, "normal")
        for member in players[1:]:
            await self.lobby_click(table, member, f"tt:join:{table_id}")
        return table

    async def open_tables(self, count: int, clock: int | None = None, timeout: float = 60.0) -> list[Table]:
        """``count`` Donguri tables of three, each in a channel of its own, every third with a
        computer in a seat; returned once each has started and dealt."""
        fake, tables = self.fake, []
        for n in range(count):
            channel = fake.add_text_channel(f"games-{len(fake.model.channels)}")
            humans = 2 if n % 3 == 2 else 3
            members = [fake.add_member(f"p{len(fake.model.users)}") for _ in range(humans)]
            tables.append(await self.open_donguri(channel, members, computers=3 - humans, clock=clock))
        for table in tables:
            await self.wait_started(table, timeout=timeout)
        return tables

    async def started_donguri(self, name: str) -> Table:
        """A three-member Donguri table in a new channel ``name``, started, once the bot is quiet."""
        members = [self.fake.add_member(f"{name}{i}") for i in range(3)]
        table = await self.open_donguri(self.fake.add_text_channel(name), members)
        await self.wait_started(table, timeout=60)
        await self.fake.quiet(1.0, timeout=60)
        return table

    async def add_computer(self, table: Table, host: User, level: str) -> None:
        """Add computer, then a level in the picker the host alone sees (answered privately, or by
        a follow-up when the click was deferred)."""
        sent = await self.fake.click(host, self.table_message(table), f"tt:bot:{table.id}")
        await self.answered(sent, "Add computer")
        picker = await self.fake.wait_until(
            lambda: next(
                (
                    self.fake.model.messages[mid]
                    for mid in [sent.response_message_id, *sent.followups]
                    if mid and self.fake.model.messages[mid].custom_ids("tt:bot:")
                ),
                None,
            ),
            timeout=ANSWER_TIMEOUT,
            what="the level picker",
        )
        chosen = await self.fake.click(host, picker, f"tt:bot:{level}:{table.id}")
        await self.answered(chosen, f"level {level}")

    async def lobby_click(self, table: Table, user: User, custom_id: str, values: list[str] | None = None):
        sent = await self.fake.click(user, self.table_message(table), custom_id, values)
        await self.answered(sent, custom_id)
        if sent.response_type != UPDATE:
            raise AssertionError(f"{user.name} {custom_id}: {sent.response_type} {sent.response}")
        return sent

    async def wait_started(self, table: Table, timeout: float = 20.0) -> None:
        """Until every member holds a hand DM and the table says whom it waits for."""
        await self.fake.wait_until(
            lambda: self.table_message(table).content and all(self.hand_dm(table, u) for u in table.players),
            timeout=timeout,
            what=f"table {table.id} started with hands dealt",
        )

    # ---- moves ----------------------------------------------------------------------------------
    def playable(self, table: Table, user: User) -> tuple[Message, list[str]] | None:
        dm = self.hand_dm(table, user)
        if dm is None or (dm.id, len(dm.edits)) in self.refused:
            return None
        ids = dm.custom_ids(f"tt:a:{table.id}:")
        return (dm, ids) if ids else None

    async def move(self, table: Table, *, wait: bool = True, to: int | None = None) -> Click | None:
        """Whoever has a card to press in their DM presses one; else the member the table waits
        for asks for their hand and plays from it, and failing that everyone does. None when
        nobody can do anything. A DM whose click was refused is not pressed again until edited.
        ``to``: the click reaches the bot process of that gateway session (``FakeDiscord.click``)."""
        members = self.rng.sample(table.players, len(table.players))

        def offered():
            return next(((u, found) for u in members if (found := self.playable(table, u))), None)

        ready = offered()
        dms = [self.fake.model.dm_of[u.id] for u in members if u.id in self.fake.model.dm_of]
        deadline = time.monotonic() + self.patience
        while not ready and dms and (left := deadline - time.monotonic()) > 0:
            await self.fake.watch(dms, left)
            ready = offered()
        if ready:
            user, found = ready
            return await self._press(table, user, *found, "dm", wait, to)
        waiting = self.waiting_for(table)
        for user in waiting + [u for u in members if u not in waiting]:
            click = await self.move_from_hand(table, user, wait)
            if click is not None:
                return click
        return None

    async def move_from_hand(self, table: Table, user: User, wait: bool = True) -> Click | None:
        try:
            sent = await self.fake.click(user, self.table_message(table), f"tt:hand:{table.id}")
        except Undelivered:
            return None
        if not await sent.wait(ANSWER_TIMEOUT) or sent.response_message_id is None:
            return None
        private = self.fake.message(sent.response_message_id)
        ids = private.custom_ids(f"tt:a:{table.id}:")
        return await self._press(table, user, private, ids, "hand", wait) if ids else None

    async def _press(
        self, table, user, message: Message, ids: list[str], via: str, wait: bool, to: int | None = None
    ) -> Click:
        custom_id = self.rng.choice(ids)
        label = next(c.get("label") for c in message.buttons() if c.get("custom_id") == custom_id)
        hand = len(message.buttons())  # before the answer redraws the message
        try:
            sent = await self.fake.click(user, message, custom_id, via=to)
        except Undelivered:
            sent = None
        click = Click(table, user, custom_id, label, sent, via, hand)
        self.clicks.append(click)
        if wait and sent is not None:
            await sent.wait(ANSWER_TIMEOUT)
            await self.final_answer(click)
            if via == "dm" and sent.answered and not click.accepted:
                self.refused.add((message.id, len(message.edits)))
        return click


    async def final_answer(self, click: Click, timeout: float = ANSWER_TIMEOUT) -> str:
        """The click's outcome once a deferred answer is followed by the final one (or ``timeout``
        later: ``WAITING`` then, as the member sees it)."""
        if click.outcome == WAITING:
            with contextlib.suppress(AssertionError):
                await self.fake.wait_until(lambda: click.outcome != WAITING, timeout=timeout, what="final answer")
        return click.outcome


async def keep_playing(players: Players, table: Table, stop: asyncio.Event) -> None:
    """Members play the table until ``stop`` is set (a moment's pause when nobody could move)."""
    while not stop.is_set():
        click = await players.move(table)
        if click is None or not click.accepted:
            await asyncio.sleep(0.1)


@asynccontextmanager
async def bot_with_players(
    directory: Path, rng: random.Random, *config_lines: str
) -> AsyncIterator[tuple[FakeDiscord, BotProcess, Players]]:
    """A fake Discord, the real bot started on it (with these lines added to its config), and
    members to play; the bot is stopped at the end (its stderr is printed, which pytest shows
    when the test failed)."""
    async with FakeDiscord(token=TOKEN) as fake:
        bot = BotProcess(fake, directory, *config_lines)
        try:
            await bot.start_ready()
            yield fake, bot, Players(fake, rng)
        finally:
            await bot.stop()
            print(bot)


@asynccontextmanager
async def two_processes(
    directory: Path, cluster_url: str, seed: int | None = None
) -> AsyncIterator[tuple[FakeDiscord, Players, str, list[BotProcess]]]:
    """Two bot processes on a fresh database of the PostgreSQL cluster, started on one fake Discord:
    (fake Discord, players, database URL, processes). With ``seed``, each click reaches one of them
    at random; without, the process the test sends it to. They are stopped at the end."""
    url = await fresh_database(cluster_url)
    async with FakeDiscord(token=TOKEN) as fake:
        bots = bot_processes(fake, directory, ["a", "b"], url)
        try:
            for bot in bots:
                await bot.start_ready()
            if seed is not None:
                fake.spread = random.Random(seed)
            yield fake, Players(fake, random.Random((seed or 0) + 1)), url, bots
        finally:
            for bot in bots:
                await bot.stop()
                print(bot)
