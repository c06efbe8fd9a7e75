"""Background work keyed by table: each key handled by one task at a time, the newest request kept.

Tasks exist only while there is work, so nothing waits forever in the background (a restart, a
shutdown and the simulator's settling all stay simple). A key requested while it is being handled
runs once more afterwards, so a change committed during a pass is never missed.

A worker may also have a short, urgent kind of work (``first``): for the delivery worker, the hands
of a table that was just moved, which the next player waits for. Urgent work has a queue and tasks
of its own, so it never waits behind the usual work of other keys (a delivery pass is slow at its
paced surfaces and notices); the key's usual work follows it, in its turn. A usual pass that takes
the key first does the urgent part too, and the urgent request is then dropped. With ``alongside``
a key's urgent work may run while its usual work does (the handlers keep out of each other's way);
otherwise it waits for it.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)


class Worker:
    def __init__(
        self,
        name: str,
        handle: Callable[[int], Awaitable[None]],
        limit: int = 4,
        first: Callable[[int], Awaitable[None]] | None = None,
        first_limit: int = 0,
        alongside: bool = False,
    ) -> None:
        self.name = name
        self.handle = handle
        self.limit = limit  # tasks for the usual work
        self.first = first  # a key's urgent work (``request(urgent=True)``); its usual work covers it too
        self.first_limit = first_limit or limit  # tasks for the urgent work
        self.alongside = alongside
        self.queue: OrderedDict[int, None] = OrderedDict()
        self.firsts: OrderedDict[int, None] = OrderedDict()  # keys whose urgent work is due
        self.running: set[int] = set()  # keys whose usual work runs
        self.hurrying: set[int] = set()  # keys whose urgent work runs
        self.tasks: set[asyncio.Task[None]] = set()
        self.draining: dict[bool, set[asyncio.Task[None]]] = {False: set(), True: set()}  # by urgency
        self.timers: dict[int, asyncio.TimerHandle] = {}
        self.closed = False

    def request(self, key: int, delay: float = 0.0, urgent: bool = False) -> None:
        """The key's work after ``delay``; ``urgent``: its urgent work now, and its usual work after."""
        if self.closed:
            return
        if urgent and self.first is not None:
            self.firsts[key] = None
            self.queue[key] = None
            self._spawn()
            return
        if delay > 0:  # the sooner of two delays stands: a surface put off for 5 s must not hold one due now
            loop = asyncio.get_running_loop()
            timer = self.timers.get(key)
            if timer is None or loop.time() + delay < timer.when():
                if timer is not None:
                    timer.cancel()
                self.timers[key] = loop.call_later(delay, self._due, key)
            return
        self.queue[key] = None
        self._spawn()

    def _due(self, key: int) -> None:
        self.timers.pop(key, None)
        self.request(key)

    def _free(self, key: int, urgent: bool) -> bool:
        """Whether the key's work of this kind may start now."""
        if key in (self.hurrying if urgent else self.running):
            return False
        return self.alongside or key not in (self.running if urgent else self.hurrying)

    def _spawn(self) -> None:
        # Counted through the running keys (at most ``limit`` and ``first_limit``), not the whole queue: a
        # busy bot queues hundreds of tables, and this runs at every request.
        for urgent, queue in ((True, self.firsts), (False, self.queue)):
            tasks = self.draining[urgent]
            mine, other = (self.hurrying, self.running) if urgent else (self.running, self.hurrying)
            blocked = mine if self.alongside else mine | other
            waiting = len(queue) - sum(1 for k in blocked if k in queue)
            while waiting > 0 and len(tasks) < (self.first_limit if urgent else self.limit):
                task = asyncio.get_running_loop().create_task(self._drain(urgent), name=f"{self.name}-worker")
                self.tasks.add(task)
                tasks.add(task)
                task.add_done_callback(self.tasks.discard)
                task.add_done_callback(tasks.discard)
                waiting -= 1

    async def _drain(self, urgent: bool) -> None:
        queue, running = (self.firsts, self.hurrying) if urgent else (self.queue, self.running)
        handle = self.first if urgent and self.first is not None else self.handle
        while not self.closed:
            key = next((k for k in queue if self._free(k, urgent)), None)
            if key is None:
                return
            del queue[key]
            if not urgent and key not in self.hurrying:
                self.firsts.pop(key, None)  # the whole pass does the urgent part first
            running.add(key)
            try:
                await handle(key)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("%s: table %s failed", self.name, key)
            finally:
                running.discard(key)
            if key in self.firsts or key in self.queue:
                self._spawn()  # the key's other work may have waited for this to end

    @property
    def hurrying_now(self) -> bool:
        """Whether urgent work is due or under way (for the delivery worker: a hand someone waits for)."""
        return bool(self.firsts or self.hurrying)

    @property
    def idle(self) -> bool:
        return not (self.queue or self.firsts or self.running or self.hurrying or self.timers)

    async def close(self) -> None:
        self.closed = True
        for timer in self.timers.values():
            timer.cancel()
        self.timers.clear()
        for task in list(self.tasks):
            task.cancel()
        if self.tasks:
            await asyncio.gather(*self.tasks, return_exceptions=True)
