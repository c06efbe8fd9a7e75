"""What the pages have drawn, kept by what it was drawn from (a table's version, a step of a
finished game), so that each is drawn once however many ask for it.

Viewers asking at the same moment for what is not drawn yet wait for the one drawing: a table with
2,000 live viewers is drawn once per version, not 2,000 times. What is kept is bounded by count and
by bytes (pictures are tens of kilobytes), the least recently used let go first.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, TypeVar

T = TypeVar("T")


class Drawn(Generic[T]):
    def __init__(self, count: int, size: Callable[[T], int], budget: int) -> None:
        self.count = count
        self.size = size
        self.budget = budget  # bytes kept at most
        self.kept: OrderedDict[Hashable, tuple[T, int]] = OrderedDict()
        self.held = 0
        self.drawing: dict[Hashable, asyncio.Future[T]] = {}  # drawings under way, by key

    def get(self, key: Hashable) -> T | None:
        found = self.kept.get(key)
        if found is None:
            return None
        self.kept.move_to_end(key)
        return found[0]

    async def get_or_draw(self, key: Hashable, draw: Callable[[], Awaitable[T]]) -> T:
        """What ``key`` names, drawn by ``draw`` unless kept or being drawn for someone else. The
        drawing is a task of its own: a viewer who leaves does not cancel it for the others."""
        found = self.get(key)
        if found is not None:
            return found
        task = self.drawing.get(key)
        if task is None:
            task = self.drawing[key] = asyncio.ensure_future(draw())
            task.add_done_callback(lambda done: self._drawn(key, done))
        return await asyncio.shield(task)

    def _drawn(self, key: Hashable, task: asyncio.Future[T]) -> None:
        if self.drawing.get(key) is task:
            del self.drawing[key]
        if not task.cancelled() and task.exception() is None:
            self.put(key, task.result())

    def __len__(self) -> int:
        return len(self.kept)

    def clear(self) -> None:
        self.kept.clear()
        self.held = 0

    def put(self, key: Hashable, value: T) -> None:
        size = self.size(value)
        old = self.kept.pop(key, None)
        if old is not None:
            self.held -= old[1]
        self.kept[key] = (value, size)
        self.held += size
        while self.kept and (len(self.kept) > self.count or self.held > self.budget):
            _, (_, freed) = self.kept.popitem(last=False)
            self.held -= freed
