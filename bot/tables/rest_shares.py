"""Discord's global limit (50 REST calls a second) is per bot, whatever the number of processes.

Processes sharing one PostgreSQL database split ``rest_budget`` through it, one process at a time
(a lock). Every second each process stores how many calls it wanted in the last second and takes a
part of the budget: its want and an even share of what nobody wants, or, when the processes want
more than the budget, a part in proportion to its want; but only what the others do not hold. A
process holds the larger of its part and the calls it made in the last second, so a part given up
is taken by another only once its calls have left the window, and the processes together keep to
the budget (beyond a call a second for each idle one). A busy process gets most of it, an idle one
little; one that died stops counting after a few seconds. Until it has heard from the others, a
process keeps to its shards' share (``rest_share``). With SQLite one process owns the database,
and this does not run.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.core.config import Config
    from bot.storage.store import Store
    from bot.tables.budget import Budgets

log = logging.getLogger(__name__)
INTERVAL = 1.0
HEARD = 3.0  # a process not heard from for this long no longer takes a part
FLOOR = 1  # an idle process may still make a call a second


def rest_share(config: Config) -> int:
    """This process's part of the bot-wide budget until it has heard from the other processes: its
    shards' share when the bot runs in several (Discord counts the calls of all of them together);
    0 stays "no limit"."""
    if not config.rest_budget:
        return 0
    if config.shard_count and config.shard_ids:
        return max(1, config.rest_budget * len(config.shard_ids) // config.shard_count)
    return config.rest_budget


def part(budget: int, wanted: float, wants: list[float], holdings: list[float]) -> int:
    """This process's part of ``budget``: while the processes want less than the budget, its want
    and an even share of the rest (so that a process a click has just reached need not wait for the
    next exchange); past it, in proportion to its want. No more than what the others do not hold,
    and the floor at least."""
    total = wanted + sum(wants)
    if total <= budget:
        fair = wanted + (budget - total) / (1 + len(wants))
    else:
        fair = budget * wanted / total
    free = budget - sum(holdings)
    return max(FLOOR, int(min(fair, free)))


class RestShares:
    def __init__(
        self, store: Store, config: Config, budgets: Budgets, me: str, is_closed: Callable[[], bool]
    ) -> None:
        self.store = store
        self.config = config
        self.budgets = budgets
        self.me = me  # this process, as the others know it
        self.is_closed = is_closed
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self.store.db.shared and self.config.rest_budget and self.task is None:
            self.task = asyncio.get_running_loop().create_task(self.run(), name="rest-shares")

    async def run(self) -> None:
        while not self.is_closed():
            try:
                await self.once()
            except Exception:
                log.exception("sharing the REST budget failed; keeping the shards' share")
                self.budgets.rest_budget = rest_share(self.config)
            await asyncio.sleep(INTERVAL)

    async def once(self) -> None:
        budget = self.config.rest_budget
        wanted, used = self.budgets.wanted(budget)
        share = partial(part, budget)
        self.budgets.rest_budget = await self.store.shared_work.rest_wants(self.me, wanted, used, time.time(), HEARD, share)

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
            self.task = None
