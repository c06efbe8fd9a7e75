"""The pages take turns, after the game: the web tier shares the bot's event loop with the moves,
so a burst of page requests must never stand between a click and its answer.

A page is drawn by one of a few ``slots``; before it starts, it lets the game's own work under way
(clicks being handled, the next player's hand being drawn) finish first, up to ``YIELD``. Those
past the slots wait their turn, at most ``QUEUE`` of them and at most ``PATIENCE`` each; beyond
that a page answers 503 with ``Retry-After``, as a browser or proxy understands. Moves never wait
for a page, and are never refused for one.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable

SLOTS = 2
QUEUE = 256
PATIENCE = 3.0  # seconds a page waits for a slot before it is answered 503
YIELD = 0.2  # seconds a page lets the game's work go first, at most
RETRY_AFTER = 2  # seconds, as a 503 tells the browser


class Overloaded(Exception):
    """Too many pages at once: answered 503 with ``Retry-After``."""


class PageGate:
    def __init__(
        self,
        busy: Callable[[], bool] = lambda: False,
        slots: int = SLOTS,
        queue: int = QUEUE,
        patience: float = PATIENCE,
        yield_for: float = YIELD,
    ) -> None:
        self.busy = busy  # whether the game has work under way that the pages should let go first
        self.slots = asyncio.Semaphore(slots)
        self.queue = queue
        self.patience = patience
        self.yield_for = yield_for
        self.waiting = 0
        self.drawing = 0
        self.refused = 0  # pages answered 503 since start

    @contextlib.asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        """Inside: this page's turn to be drawn."""
        if self.waiting >= self.queue:
            self.refused += 1
            raise Overloaded
        self.waiting += 1
        try:
            async with asyncio.timeout(self.patience):
                await self.slots.acquire()
        except TimeoutError:
            self.refused += 1
            raise Overloaded from None
        finally:
            self.waiting -= 1
        self.drawing += 1
        try:
            await self.after_the_game()
            yield
        finally:
            self.drawing -= 1
            self.slots.release()

    async def after_the_game(self) -> None:
        loop = asyncio.get_running_loop()
        until = loop.time() + self.yield_for
        await asyncio.sleep(0)  # the clicks already arrived are handled before this page
        while self.busy() and loop.time() < until:
            await asyncio.sleep(0.002)
