"""A table's hands are drawn theirs first whose turn it is: at a new deal every member's DM is
redrawn, and the next player should not wait for the others' (issue 35, item 8). A drawing for a
version older than the one committed since is left to the pass that newer version asked for."""

from __future__ import annotations

from types import SimpleNamespace

from bot.tables.hand_lane import HandLane, first_to_act


def table(version: int = 7, message_id: int | None = 99):
    seats = [SimpleNamespace(position=p, is_computer=p == 1) for p in range(4)]
    return SimpleNamespace(id=5, version=version, status="running", seats=seats, message_id=message_id)


def engine(to_act: list[int]):
    return SimpleNamespace(to_act=lambda: to_act)


def test_the_member_to_act_comes_first_and_computers_have_no_hand_to_draw():
    assert first_to_act(table(), engine([3])) == [3, 0, 2]
    assert first_to_act(table(), engine([2, 0])) == [0, 2, 3]  # simultaneous choices: seat order among them
    assert first_to_act(table(), engine([])) == [0, 2, 3]  # the game is over: every hand, in seat order


async def test_a_new_deal_draws_the_next_players_hand_before_the_others():
    drawn: list[int] = []

    async def deliver_hand(table, engine, seat: int) -> None:
        drawn.append(seat)

    async def surface(work) -> None:
        await work

    lane = HandLane(SimpleNamespace(engines={5: (7, None)}), deliver_hand)
    await lane.draw(table(), engine([2]), surface)
    assert drawn == [2, 0, 3]
    await lane.draw(table(version=6), engine([0]), surface)  # version 7 is committed: its pass draws
    assert drawn == [2, 0, 3]
    lane.forget(5)
    assert lane.locks == {}


async def test_a_table_whose_message_is_not_posted_yet_is_left_to_the_whole_pass():
    """A rematch table's first move may be a computer's, before the pass that posts its message:
    its hands would link to no message, and a DM is not redrawn for its link alone."""
    drawn: list[int] = []
    unposted = table(message_id=None)

    async def read(table_id: int):
        return unposted

    async def deliver_hand(table, engine, seat: int) -> None:
        drawn.append(seat)

    lane = HandLane(SimpleNamespace(engines={}, table=read, engine=None), deliver_hand)
    await lane.after_move(5)
    assert drawn == []
