"""A finished game, step by step: the engine replayed from its options, seed and log, as the
platform stores every table. Step ``n`` is the game after its first ``n`` actions.

A finished game never changes, so its replay is kept (a few at a time): the actions with the events
each made, and a copy of the engine every ``EVERY`` steps, so that any step is a copy and at most
``EVERY`` moves away.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.core.engine import Engine, Event
from bot.core.games import REGISTRY
from bot.storage.store import Store, TableRow
from bot.web.drawn import Drawn
from bot.web.off_loop import off_loop

EVERY = 16
KEPT = 128  # replays kept built: about 100 to 200 kB each (a copy of the engine every EVERY steps)


@dataclass
class Step:
    """The action that led to a step: who made it, what it was, what it made happen, in which deal."""

    seat: int
    action: str
    events: list[Event]
    deal: int


@dataclass
class Replay:
    table: TableRow
    steps: list[Step] = field(default_factory=list)
    checkpoints: dict[int, Engine] = field(default_factory=dict)

    @property
    def length(self) -> int:
        return len(self.steps)

    def state(self, n: int) -> Engine:
        """The game after its first ``n`` actions: a copy of its own, to read or play on."""
        if not 0 <= n <= self.length:
            raise IndexError(n)
        start = n - n % EVERY
        engine = self.checkpoints[start].clone()
        for step in self.steps[start:n]:
            engine.apply(step.seat, step.action)
        return engine

    @classmethod
    def build(cls, table: TableRow, log: list[tuple[int, str]]) -> Replay:
        engine = REGISTRY[table.game].engine(len(table.seats), table.seed or 0, table.options)
        replay = cls(table, checkpoints={0: engine.clone()})
        for index, (seat, action) in enumerate(log, start=1):
            deal = engine.deal_number
            events = engine.apply(seat, action)
            replay.steps.append(Step(seat, action, events, deal))
            if index % EVERY == 0:
                replay.checkpoints[index] = engine.clone()
        return replay


class Replays:
    """The replays of the last ``KEPT`` finished tables asked for, each built once however many
    ask for it at the same moment."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.kept: Drawn[Replay] = Drawn(KEPT, lambda replay: 0, 0)

    async def of(self, table: TableRow) -> Replay:
        async def build() -> Replay:
            return await off_loop(Replay.build, table, await self.store.actions(table.id))

        return await self.kept.get_or_draw(table.id, build)
