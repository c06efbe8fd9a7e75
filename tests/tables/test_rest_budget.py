"""The bot-wide budget keeps the process under Discord's 50 requests a second: calls that players wait
on (hand DMs, turn pings) and calls that show the table (its message, its record) share it, and
once both kinds are refused each gets its share, so neither starves."""

from __future__ import annotations

import asyncio

import discord
import pytest
import pytest_asyncio

from bot.core.config import Config
from bot.tables.budget import BOT_SLACK, BOT_WINDOW, PACED_SHARE, Budgets, Later, paced_calls
from bot.tables.rest_shares import part, rest_share

SPAN = BOT_WINDOW + BOT_SLACK


@pytest_asyncio.fixture
async def now(monkeypatch) -> list[float]:
    clock = [100.0]
    monkeypatch.setattr(asyncio.get_running_loop(), "time", lambda: clock[0])
    return clock


def calls(budgets: Budgets, count: int, *, paced: bool, first_channel: int) -> int:
    """Spend up to ``count`` calls, each in a channel of its own; how many were allowed."""
    made = 0
    for i in range(count):
        try:
            budgets.spend(first_channel + i, paced=paced)
        except Later:
            break
        made += 1
    return made


async def test_one_kind_alone_may_use_the_whole_budget_and_no_more(now):
    budgets = Budgets(channel_budget=5, rest_budget=8)
    assert calls(budgets, 20, paced=False, first_channel=1000) == 8
    with pytest.raises(Later) as later:
        budgets.spend(1, paced=False)
    assert later.value.delay == pytest.approx(SPAN)
    now[0] += SPAN + 0.01  # the window has passed
    assert calls(budgets, 20, paced=True, first_channel=2000) == 8


async def test_under_load_hands_keep_most_of_the_budget_and_table_messages_their_share(now):
    budget = 20
    budgets = Budgets(channel_budget=5, rest_budget=budget)
    made = {False: 0, True: 0}
    channel = 1
    for _ in range(30):  # thirty seconds of both kinds asking for far more than the budget
        for _ in range(10):  # ten rounds a second, each kind asking for many calls
            for paced in (True, False):
                got = calls(budgets, 50, paced=paced, first_channel=channel)
                made[paced] += got
                channel += 50
            now[0] += 0.1
    per_second = {kind: n / 30 for kind, n in made.items()}
    assert sum(per_second.values()) <= budget / SPAN + 0.1
    assert per_second[True] == pytest.approx(budget * PACED_SHARE / SPAN, rel=0.2)
    assert per_second[False] == pytest.approx(budget * (1 - PACED_SHARE) / SPAN, rel=0.2)


async def test_no_second_holds_more_calls_than_the_budget(now):
    budget = 10
    budgets = Budgets(channel_budget=5, rest_budget=budget)
    dates: list[float] = []
    channel = 1
    for step in range(400):  # 20 s in steps of 50 ms, the kinds taking turns to ask first
        for paced in (step % 2 == 0, step % 2 == 1):
            for _ in range(3):
                try:
                    async with budgets.spending(channel, paced=paced):
                        pass
                except Later:
                    break
                dates.append(now[0])
                channel += 1
        now[0] += 0.05
    busiest = max(sum(1 for d in dates if start <= d < start + BOT_WINDOW) for start in dates)
    assert busiest <= budget
    assert len(dates) >= 0.9 * budget * 20 / SPAN  # and the budget is used, not wasted


async def test_the_channel_budget_still_applies_and_zero_means_no_bot_wide_budget(now):
    budgets = Budgets(channel_budget=2, rest_budget=0)
    budgets.spend(7)
    budgets.spend(7)
    with pytest.raises(Later):
        budgets.spend(7)
    assert calls(budgets, 500, paced=False, first_channel=10_000) == 500


def test_a_process_running_some_shards_keeps_to_their_share():
    config = Config(rest_budget=45, shard_count=4, shard_ids=[0, 1])
    assert rest_share(config) == 22
    assert rest_share(Config(rest_budget=45)) == 45
    assert rest_share(Config(rest_budget=0, shard_count=4, shard_ids=[3])) == 0  # no limit stays none
    assert rest_share(Config(rest_budget=3, shard_count=8, shard_ids=[5])) == 1


async def test_a_call_outside_a_pass_waits_for_room_instead_of_being_put_off():
    loop = asyncio.get_running_loop()
    budgets = Budgets(channel_budget=5, rest_budget=2)
    start = loop.time()
    budgets.spend(1)
    budgets.spend(2)
    async with budgets.admitted():  # a reminder, say: it cannot be tried again later
        waited = loop.time() - start
    assert SPAN - 0.05 <= waited < SPAN + 0.5
    budgets.spend(3)
    with pytest.raises(Later):
        budgets.spend(4)  # the waited call is counted: two in the window


class Transport:
    """Stands in for discord.py's own request: when each call was made."""

    def __init__(self) -> None:
        self.made: list[float] = []

    async def request(self, route, **kwargs):
        self.made.append(asyncio.get_running_loop().time())
        return {"id": "1", "channel_id": "2"}


def guarded(budget: int) -> tuple[Budgets, discord.http.HTTPClient, Transport]:
    """A real discord.py HTTP client whose transport is a stub, guarded as the bot guards its own."""
    budgets = Budgets(channel_budget=5, rest_budget=budget)
    transport = Transport()
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    http.request = transport.request
    budgets.guard(http)
    return budgets, http, transport


async def test_every_request_of_the_client_waits_for_room_whoever_makes_it():
    budgets, http, transport = guarded(3)
    # A command's own calls (a message, a thread, a permission edit), made through discord.py's
    # methods with no delivery pass around them: seven at once, with room for three a second.
    await asyncio.gather(*(http.send_message(100 + i, params=_params()) for i in range(7)))
    made = sorted(transport.made)
    assert len(made) == 7
    assert all(made[i + 3] - made[i] >= SPAN - 0.01 for i in range(len(made) - 3))  # 3 in any window
    assert made[-1] - made[0] >= 2 * SPAN - 0.02


async def test_a_call_counted_by_a_pass_is_not_counted_twice_but_a_second_call_is():
    budgets, http, transport = guarded(5)
    async with budgets.spending(1):  # the delivery worker counted its edit before rendering it
        await http.send_message(1, params=_params())
    assert len(budgets.recent) == 1
    async with budgets.spending(2):  # a hand to a member whose DM must be opened first: two calls
        await http.start_private_message(7)
        await http.send_message(2, params=_params())
    assert len(budgets.recent) == 3
    with paced_calls():  # a tournament's message: shows the event rather than a hand
        await http.send_message(3, params=_params())
    await http.send_message(4, params=_params())
    assert [kind for _, kind in budgets.recent] == [False, False, False, True, False]


async def test_no_budget_lets_every_request_through_uncounted():
    budgets, http, transport = guarded(0)
    await asyncio.gather(*(http.send_message(i, params=_params()) for i in range(60)))
    assert len(transport.made) == 60 and not budgets.recent


def _params():
    return discord.http.handle_message_parameters(content="hi").__enter__()


def test_processes_split_the_budget_by_what_each_wanted_within_what_is_free():
    assert part(45, 60, [20], [0]) == 33  # past the budget, the busier process gets most of it
    assert part(45, 20, [60], [0]) == 11
    assert part(45, 60, [20], [20]) == 25  # but only what the other does not hold yet
    assert part(45, 0, [60, 60], [20, 20]) == 1  # an idle one keeps a call a second
    assert part(45, 0, [], []) == 45  # alone
    assert part(45, 0, [0, 0], [0, 0]) == 15  # nobody wanted anything yet: evenly
    assert part(45, 5, [5, 5], [15, 15]) == 15  # under the budget: its want and a third of the rest
    assert part(45, 20, [5], [10]) == 30  # 20 wanted, and half of the 20 nobody wants


async def test_a_process_that_had_to_put_calls_off_wants_more_than_it_made(now):
    budgets = Budgets(channel_budget=5, rest_budget=4)
    assert calls(budgets, 3, paced=False, first_channel=1) == 3
    assert budgets.wanted(45) == (3, 3)
    assert calls(budgets, 5, paced=False, first_channel=100) == 1  # one more, then refused
    assert budgets.wanted(45) == (4 + 45, 4)  # its part is 4, but it would take the bot's 45
    now[0] += SPAN + 0.01
    assert budgets.wanted(45) == (0, 0)


def test_a_process_that_becomes_busy_grows_its_part_and_two_busy_ones_end_even():
    """Turns of the exchange, each process in turn: it made its whole part and wanted more (a busy
    process), or nothing (an idle one); it holds the larger of its new part and what it made."""
    budget = 12
    parts = {"a": 12, "b": 1}  # a was alone and busy; b was idle and now gets busy too
    holding = dict(parts)
    for _turn in range(8):
        for me, other in (("a", "b"), ("b", "a")):
            made = parts[me]
            wanted = made + budget
            parts[me] = part(budget, wanted, [parts[other] + budget], [holding[other]])
            holding[me] = max(parts[me], made)
            assert parts["a"] + parts["b"] <= budget + 1
    assert 5 <= parts["b"] <= 7 and 5 <= parts["a"] <= 7, parts
