"""Answers in flight: a front end's own answer that shows one of a table's surfaces, while the
delivery worker, asked by the same change to bring the table up to date, would draw it too.

A click on a hand DM is answered by redrawing that DM in the interaction's response; a lobby click
on the table message, by updating the table message. The worker waits for such an answer before
it draws that surface, then finds it shown (the front end marks what it showed once the answer got
through) or draws it itself (the answer failed). So a change costs one edit there, not two.

A pass draws from the table as it read it, which an answer may have overtaken meanwhile: the worker
asks ``overtaken`` before it edits (an answer showed a later version: it draws nothing, and a pass
from a fresh read follows) and ``begun`` around its edit (an answer raced it, and which of the two
Discord applied last is not known: the surface is drawn again).

A surface is named as in ``Delivery.shown``, except a DM, which is named by its member (the seat is
known only once the move is checked): ``TABLE_MESSAGE`` or a member's id.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

#: The longest the worker waits for an answer: longer than Discord's 3 s for a first answer, and
#: an answer that still has not come is not waited for again.
WAIT = 5.0


class Answers:
    def __init__(self) -> None:
        self.flying: dict[tuple[int, int], list[asyncio.Event]] = {}
        self.started: dict[tuple[int, int], int] = {}  # answers begun so far, per surface
        self.versions: dict[tuple[int, int], int] = {}  # the latest table version an answer showed

    def begun(self, table_id: int, surface: int) -> int:
        """How many answers showing ``surface`` have begun: compared before and after a drawing."""
        return self.started.get((table_id, surface), 0)

    def showed(self, table_id: int, surface: int, version: int) -> None:
        """An answer got through showing ``surface`` at the table's ``version``."""
        key = (table_id, surface)
        self.versions[key] = max(version, self.versions.get(key, -1))

    def overtaken(self, table_id: int, surface: int, version: int) -> bool:
        """Whether an answer is on its way to ``surface`` or showed it later than ``version``."""
        key = (table_id, surface)
        return key in self.flying or self.versions.get(key, -1) > version

    def forget(self, table_id: int) -> None:
        for store in (self.started, self.versions):
            for key in [k for k in store if k[0] == table_id]:
                del store[key]

    @contextlib.asynccontextmanager
    async def answering(self, table_id: int, surface: int) -> AsyncIterator[None]:
        """Inside, an answer that shows ``surface`` of the table is on its way."""
        key, done = (table_id, surface), asyncio.Event()
        self.flying.setdefault(key, []).append(done)
        self.started[key] = self.started.get(key, 0) + 1
        try:
            yield
        finally:
            done.set()
            events = self.flying[key]
            events.remove(done)
            if not events:
                del self.flying[key]

    async def settled(self, table_id: int, surface: int) -> None:
        """Once no answer showing ``surface`` is on its way (or after ``WAIT``)."""
        for done in list(self.flying.get((table_id, surface), ())):
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(done.wait(), WAIT)
