"""Discord's rate limits, kept before a call rather than learnt from a 429.

Two limits bind the delivery worker. Each channel (DMs included) takes about 5 messages and edits
per 5 s. A bot token makes at most 50 requests a second in all; interaction responses are not
counted. Past the first, Discord answers 429 and that edit waits. Past the second, every request
of the bot waits, and repeated 429s count towards Discord's temporary ban for invalid requests.
So calls are counted here, and a surface over a limit is shown later with the latest state.
Processes sharing a database count each channel's calls there as well (``shared``): a channel
where two processes deliver tables, or a member's DM, gets no more from both than from one.

Under the bot-wide limit there are two kinds of call: those players wait on (their hand DM, the
turn ping) and those that show the table to everyone (its message and record). Either kind may use
the whole budget while the other asks for nothing; once both are refused, each gets its share (three
quarters for hands and pings), so under load hands stay prompt and table messages still follow,
more slowly.

Every request made with the bot's token passes ``guard``, at discord.py's HTTP client: a call the
delivery worker counted first (``spending``, which can put a surface off before it is rendered) goes
straight through, and any other (a command's message, a DM opened, a reminder, a permission edit)
waits for room. So nothing the bot does can exceed the budget, whoever wrote the call.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import time
from collections import deque
from collections.abc import AsyncIterator, Iterator
from typing import Any, Literal, overload

import discord

from bot.core.meters import NO_METERS, Meters

CHANNEL_WINDOW = 5.0  # the channel budget (config ``channel_budget``) counts calls in this many seconds
# A call is dated when its answer came back (``spending``), which is never before Discord counted it;
# the slack covers the clocks' granularity. (The process tests wait 6 s for quiet: more than 5.25.)
CHANNEL_SLACK = 0.25
BOT_WINDOW = 1.0  # the bot-wide budget (config ``rest_budget``) counts calls in this many seconds
BOT_SLACK = 0.05
#: Share of the bot-wide budget reserved for table messages and records (the rest for hands and pings).
PACED_SHARE = 0.25

# The call ``spending`` counted and the next request may make (a one-item list, emptied once made).
#: A call counted: ``[date, paced]``, one list shared by the channel's count and the bot-wide one
#: (``spending`` moves its date to the call's end).
Call = list[Any]
_counted: contextvars.ContextVar[Call | None] = contextvars.ContextVar("counted", default=None)
# Whether the requests made here show a table or an event to everyone (``paced``) rather than to a
# player waiting on them.
_paced: contextvars.ContextVar[bool] = contextvars.ContextVar("paced", default=False)


@contextlib.contextmanager
def paced_calls() -> Iterator[None]:
    """The requests made inside are of the paced kind (a tournament's message, say)."""
    token = _paced.set(True)
    try:
        yield
    finally:
        _paced.reset(token)


class Later(Exception):
    """A surface could not be brought up to date now; the table is tried again after ``delay``."""

    def __init__(self, delay: float) -> None:
        super().__init__(delay)
        self.delay = delay


class Budgets:
    """The calls made in each channel in the last 5 s, and by the whole process in the last second.

    Each call is a ``[date, paced]`` entry, shared by both counts."""

    def __init__(self, channel_budget: int, rest_budget: int, meters: Meters = NO_METERS) -> None:
        self.channel_budget = channel_budget
        self.meters = meters  # every call made and how it ended, by route, for the operators' /metrics
        self.rest_budget = rest_budget  # 0: no bot-wide budget
        self.calls: dict[int, deque[Call]] = {}  # channel -> its calls
        self.recent: deque[Call] = deque()  # the process's calls
        self.waiting = {False: 0.0, True: 0.0}  # kind (paced?) -> until when it counts as refused
        #: With processes sharing the database: the ``SharedWork`` that counts each channel's calls for all.
        self.shared: Any = None

    @overload
    def spend(self, channel_id: int | None, *, peek: Literal[False] = ..., paced: bool = ...) -> Call: ...

    @overload
    def spend(self, channel_id: int | None, *, peek: bool, paced: bool = ...) -> Call | None: ...

    def spend(self, channel_id: int | None, *, peek: bool = False, paced: bool = False) -> Call | None:
        """Count one call in a channel (its date, which ``spending`` moves to the call's end), or raise
        ``Later`` when a budget is spent; ``peek``: only raise (to spare rendering); ``paced``: the
        call shows the table to everyone rather than to a player waiting on it."""
        now = asyncio.get_running_loop().time()
        window = self.calls.setdefault(channel_id, deque()) if channel_id is not None else deque()
        span = CHANNEL_WINDOW + CHANNEL_SLACK
        while window and window[0][0] <= now - span:
            window.popleft()
        if len(window) >= self.channel_budget:
            raise Later(window[0][0] + span - now)
        if self.rest_budget:
            self._bot_wide(now, paced)
        if peek:
            return None
        date = [now, paced]
        window.append(date)
        if self.rest_budget:
            self.recent.append(date)
        if len(self.calls) > 4096:
            self.calls = {k: v for k, v in self.calls.items() if v and v[-1][0] > now - CHANNEL_WINDOW}
        return date

    def pruned(self, now: float) -> deque[Call]:
        """The process's calls still in the bot-wide window."""
        while self.recent and self.recent[0][0] <= now - BOT_WINDOW - BOT_SLACK:
            self.recent.popleft()
        return self.recent

    def _bot_wide(self, now: float, paced: bool) -> None:
        """Raise ``Later`` unless the process may make one more call of this kind now. A kind that was
        refused in the last second has the rest of its share kept for it; otherwise the other kind
        may use the whole budget."""
        recent = self.pruned(now)
        span = BOT_WINDOW + BOT_SLACK
        total = len(recent)
        other = not paced
        kept = 0.0
        if self.waiting[other] > now:
            share = self.rest_budget * (PACED_SHARE if other else 1 - PACED_SHARE)
            kept = max(0.0, share - sum(1 for _, p in recent if p == other))
        if total + kept < self.rest_budget:
            return
        self.waiting[paced] = now + span
        free = recent[0][0] + span if recent else now
        if total < self.rest_budget:  # only the other kind's share stands in the way
            free = min(free, self.waiting[other])
        raise Later(max(free - now, 0.02))

    def wanted(self, whole: int) -> tuple[float, int]:
        """How many calls this process wanted in the last second, and how many it made. A process
        that had to put calls off would have made more: it wants the ``whole`` bot's budget besides,
        so that a small part can grow again."""
        now = asyncio.get_running_loop().time()
        refused = max(self.waiting.values()) > now
        made = len(self.pruned(now))
        return made + (whole if refused else 0), made

    @contextlib.asynccontextmanager
    async def spending(self, channel_id: int | None, *, paced: bool = False) -> AsyncIterator[None]:
        """``spend`` for the call made inside, dated when it has ended. Discord counts a call when it
        arrives, and a call can start well after it was counted here (an intent committed first, a
        busy event loop): dated at its start, it could leave the count before Discord's own did."""
        date = self.spend(channel_id, paced=paced)
        call = None
        if self.shared is not None and channel_id is not None:
            call = await self._shared(channel_id, date)
        token = _counted.set([date])
        try:
            yield
        finally:
            _counted.reset(token)
            date[0] = asyncio.get_running_loop().time()
            if call is not None:
                await self.shared.channel_call_ended(call, time.time())

    async def _shared(self, channel_id: int, date: Call) -> int:
        """Count the call in the channel for every process too; if the others have spent its budget,
        take back this process's count and raise ``Later``."""
        span = CHANNEL_WINDOW + CHANNEL_SLACK
        try:
            call: int | None
            call, wait = await self.shared.take_channel_call(channel_id, time.time(), span, self.channel_budget)
        except BaseException:
            self._unspend(channel_id, date)
            raise
        if call is None:
            self._unspend(channel_id, date)
            raise Later(max(wait, 0.02))
        return call

    def _unspend(self, channel_id: int, date: Call) -> None:
        for calls in (self.calls.get(channel_id), self.recent):
            if calls is not None and any(d is date for d in calls):
                calls.remove(date)

    @contextlib.asynccontextmanager
    async def admitted(self, *, paced: bool = False) -> AsyncIterator[None]:
        """For a call outside a delivery pass (opening a DM, a reminder, a command's message): wait
        until the bot-wide budget has room rather than put it off, then count it like ``spending``."""
        while True:
            try:
                date = self.spend(None, paced=paced)
                break
            except Later as later:
                await asyncio.sleep(later.delay)
        try:
            yield
        finally:
            date[0] = asyncio.get_running_loop().time()

    def guard(self, http: Any) -> None:
        """Count every request of discord.py's HTTP client (interaction responses go through its
        webhook adapter instead, and Discord does not count them). A request that ``spending``
        counted goes straight through; any other is ``admitted``."""
        request = http.request

        async def metered(route: Any, **kwargs: Any) -> Any:
            kind = f"{route.method} {route.path}"  # the route's pattern: a few dozen kinds, no ids
            outcome = "failed"
            started = time.perf_counter()
            try:
                result = await request(route, **kwargs)
                outcome = "ok"
                return result
            except discord.HTTPException as exc:
                outcome = str(exc.status)
                raise
            finally:
                self.meters.called(kind, outcome, time.perf_counter() - started)

        @functools.wraps(request)
        async def counted(route: Any, **kwargs: Any) -> Any:
            ticket = _counted.get()
            if ticket:
                ticket.clear()  # one call was counted: the next request in the block waits its turn
                return await metered(route, **kwargs)
            if not self.rest_budget:
                return await metered(route, **kwargs)
            async with self.admitted(paced=_paced.get()):
                return await metered(route, **kwargs)

        http.request = counted
