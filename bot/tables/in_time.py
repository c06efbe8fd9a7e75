"""Answering an interaction within Discord's 3 seconds, however busy the bot is.

Discord forgets an interaction that is not answered within 3 s of its creation (the click fails
with 10062 Unknown interaction). A button's work usually ends well before, and its answer then
redraws the clicked message in one call. Under load it may not: 2 s after the interaction
arrived (``ANSWER_BY``), the click is acknowledged by a deferred update, the work goes on, and its
answer edits the clicked message (``update``) or comes as a private follow-up (``send_private``).
An answer that fails on the way (a 5xx, a dropped connection) is tried again while Discord still
takes it (``answer_surely``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, TypeVar

import aiohttp
import discord

from bot.core import faults

ANSWER_BY = 2.0
RESPOND_WITHIN = 3.0  # Discord's limit for the first answer, from the interaction's arrival
# A try is not started later than this before Discord's limit: it would arrive too late.
LAST_TRY = 0.4
RETRY_AFTER = 0.15  # the first pause between two tries; each next one is twice as long
TRIES = 5
ALREADY_ANSWERED = 40060
KEPT = 4096  # arrival times kept, for interactions not yet handled
#: failures on the way to Discord: the same call may pass if made again
NETWORK_ERRORS = (OSError, asyncio.TimeoutError, aiohttp.ClientError)

T = TypeVar("T")
log = logging.getLogger(__name__)

#: interaction id -> the lock its one response is sent under, while ``in_time`` runs its work:
#: a deferral and the work's own answer never both go out.
ANSWERING: dict[int, asyncio.Lock] = {}
#: interaction id -> the loop time by which Discord must have its first answer, while ``in_time``
#: runs its work
DEADLINES: dict[int, float] = {}


class Arrivals:
    """When each interaction reached the bot (noted as the gateway event is parsed), and which are
    being handled: a shutdown lets those end before it closes what they use (``drained``)."""

    def __init__(self) -> None:
        self.times: OrderedDict[int, float] = OrderedDict()
        self.handling: set[asyncio.Task[Any]] = set()
        self.closing = False  # the bot is stopping: an interaction is answered so, and not run

    @contextlib.contextmanager
    def handled(self) -> Iterator[None]:
        """Inside: the current task is handling an interaction."""
        task = asyncio.current_task()
        assert task is not None
        self.handling.add(task)
        try:
            yield
        finally:
            self.handling.discard(task)

    async def drained(self, timeout: float) -> None:
        """Once every interaction being handled is done; at most ``timeout`` seconds, so that one
        Discord holds up cannot hold up the shutdown."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        await asyncio.sleep(0)  # an interaction's task that was started gets to begin
        while (others := self.handling - {asyncio.current_task()}) and (left := deadline - loop.time()) > 0:
            await asyncio.wait(others, timeout=left)

    def note(self, interaction: discord.Interaction) -> None:
        self.times[interaction.id] = asyncio.get_running_loop().time()
        while len(self.times) > KEPT:
            self.times.popitem(last=False)

    def left(self, interaction: discord.Interaction) -> float:
        """Seconds left before the interaction must be acknowledged."""
        now = asyncio.get_running_loop().time()
        return ANSWER_BY - (now - self.times.pop(interaction.id, now))


async def in_time(
    interaction: discord.Interaction,
    left: float,
    work: Awaitable[T],
    deferring: Callable[[], Awaitable[None]] | None = None,
) -> T:
    """Await ``work``; if it is not done within ``left`` seconds, acknowledge a component
    interaction first (a deferred update of the clicked message) and then wait for it.
    ``deferring()`` runs just before the deferral is sent (a move's click is stored, so that
    another process can answer it if this one dies)."""
    if interaction.type is not discord.InteractionType.component:
        return await work
    lock = ANSWERING[interaction.id] = asyncio.Lock()
    DEADLINES[interaction.id] = asyncio.get_running_loop().time() + left + RESPOND_WITHIN - ANSWER_BY
    task = asyncio.ensure_future(work)
    try:
        return await asyncio.wait_for(asyncio.shield(task), max(left, 0.0))
    except TimeoutError:
        async with lock:
            if not interaction.response.is_done():
                if deferring is not None:
                    try:
                        await deferring()
                    except Exception:  # deferred all the same: this process may still answer it
                        log.warning("a click could not be stored before its deferral", exc_info=True)
                await faults.point("click.deferring")
                try:
                    await interaction.response.defer()
                except discord.HTTPException:
                    pass  # too late anyway: the work still ends, and its answer edits the message
        return await task
    finally:
        ANSWERING.pop(interaction.id, None)
        DEADLINES.pop(interaction.id, None)


def transient(exc: BaseException) -> bool:
    """A server error, a rate limit or the network: the same call may pass if made again."""
    if isinstance(exc, discord.HTTPException):
        return exc.status >= 500 or exc.status == 429
    return isinstance(exc, NETWORK_ERRORS)


async def answer_surely(
    interaction: discord.Interaction,
    answer: Callable[[], Awaitable[None]],
    answered: Callable[[], Awaitable[object]] | None = None,
) -> bool:
    """``answer()``, made again (up to ``TRIES`` times) while Discord takes an answer when a try
    fails on the way. True once an answer got through; False when none did in time (the caller
    tells the member another way). A failure no retry mends (a 4xx) is raised.

    Discord may have taken a try whose reply was lost: the next one is refused as already answered
    (40060), and ``answered()`` makes sure of the rest (the deferral may be what got through).
    """
    loop = asyncio.get_running_loop()
    if interaction.response.is_done():  # acknowledged: its webhook takes edits for 15 minutes
        deadline = loop.time() + RESPOND_WITHIN
    else:
        deadline = DEADLINES.get(interaction.id, loop.time() + RESPOND_WITHIN - ANSWER_BY)
    pause = RETRY_AFTER
    for _ in range(TRIES):
        try:
            # discord.py itself tries a 5xx again 1 s later, then 3 s later: past Discord's limit. A
            # try still waiting when only ``LAST_TRY`` is left gives way to one more.
            await asyncio.wait_for(answer(), max(deadline - loop.time() - LAST_TRY, LAST_TRY))
            return True
        except discord.HTTPException as exc:
            if exc.code == ALREADY_ANSWERED:
                if answered is not None:
                    await answered()
                return True
            if not transient(exc):
                raise
        except NETWORK_ERRORS:  # a dropped connection, or the try gave way
            pass
        left = deadline - loop.time()
        if left < LAST_TRY / 2:  # too late for one more
            break
        await asyncio.sleep(min(pause, max(left - LAST_TRY, 0.0)))
        pause *= 2
    return False


def answering(interaction: discord.Interaction[Any]) -> contextlib.AbstractAsyncContextManager[Any]:
    lock = ANSWERING.get(interaction.id)
    return lock if lock is not None else contextlib.nullcontext()


async def acknowledge(interaction: discord.Interaction) -> None:
    """A deferred update, unless the interaction is answered already."""
    async with answering(interaction):
        if not interaction.response.is_done():
            await interaction.response.defer()


async def update(interaction: discord.Interaction, **fields: Any) -> None:
    """Redraw the clicked message: in the response, or by editing it once the click is deferred."""
    async with answering(interaction):
        if interaction.response.is_done():
            await interaction.edit_original_response(**fields)
        else:
            await interaction.response.edit_message(**fields)


async def send_private(interaction: discord.Interaction, **fields: Any) -> None:
    """An ephemeral answer: the response, or a follow-up once the click is deferred."""
    async with answering(interaction):
        if interaction.response.is_done():
            await interaction.followup.send(ephemeral=True, **fields)
        else:
            await interaction.response.send_message(ephemeral=True, **fields)
