"""Background work keyed by table: each key handled by one task at a time, the newest request kept.

Tasks exist only while there is work, so nothing waits forever in the background (a restart, a
shutdown and the simulator's settling all stay simple). A key requested while it is being handled
runs once more afterwards, so a change committed during a pass is never missed.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)


class Worker:
    def __init__(self, name: str, handle: Callable[[int], Awaitable[None]], limit: int = 4) -> None:
        self.name = name
        self.handle = handle
        self.limit = limit
        self.queue: OrderedDict[int, None] = OrderedDict()
        self.running: set[int] = set()
        self.tasks: set[asyncio.Task[None]] = set()
        self.timers: dict[int, asyncio.TimerHandle] = {}
        self.closed = False

    def request(self, key: int, delay: float = 0.0) -> None:
        if self.closed:
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

    def _spawn(self) -> None:
        # Counted through the running keys (at most ``limit``), not the whole queue: a busy bot queues
        # hundreds of tables, and this runs at every request.
        waiting = len(self.queue) - sum(1 for k in self.running if k in self.queue)
        while waiting > 0 and len(self.tasks) < self.limit:
            task = asyncio.get_running_loop().create_task(self._drain(), name=f"{self.name}-worker")
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
            waiting -= 1

    async def _drain(self) -> None:
        while not self.closed:
            key = next((k for k in self.queue if k not in self.running), None)
            if key is None:
                return
            del self.queue[key]
            self.running.add(key)
            try:
                await self.handle(key)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("%s: table %s failed", self.name, key)
            finally:
                self.running.discard(key)

    @property
    def idle(self) -> bool:
        return not self.queue and not self.running and not self.timers

    async def close(self) -> None:
        self.closed = True
        for timer in self.timers.values():
            timer.cancel()
        self.timers.clear()
        for task in list(self.tasks):
            task.cancel()
        if self.tasks:
            await asyncio.gather(*self.tasks, return_exceptions=True)
