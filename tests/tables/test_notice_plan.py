"""How long a member's turn waits before they are told: twice their usual time per move while they
play within ten minutes, the base grace period for a member who comes and goes (issue 46)."""

from __future__ import annotations

from bot.storage.store import Seat, TableRow
from bot.tables.notice_plan import LIVE, grace_for, thought


def test_a_player_at_the_table_waits_twice_their_usual_time_up_to_ten_minutes():
    assert grace_for(None, 120) == 120 and grace_for([], 120) == 120, "a pace not known yet"
    assert grace_for([5, 4, 6], 120) == 120, "a brisk player: the base"
    assert grace_for([150, 150, 150], 120) == 300, "a slow player is not away"
    assert grace_for([150, 7200, 150], 120) == 300, "one long absence does not make them away"
    assert grace_for([400, 420], 120) == LIVE
    assert grace_for([7200, 7300, 3600], 120) == 120, "hours apart: told as soon as the base allows"
    assert grace_for([150], 0) == 0, "an operator who wants notices at once gets them"


def test_a_members_time_per_move_counts_from_when_their_wait_began():
    table = TableRow(
        id=1, game="donguri", guild_id=1, channel_id=1, thread_id=None, message_id=1, host_id=1,
        status="running", size=3, options={}, seed=1, language="en", dirty=False,
        seats=[Seat(0, 11, "ann"), Seat(1, None, "computer:1"), Seat(2, 12, "ben", away=True)],
        waits={0: (3, 1000.0, True), 2: (3, 1000.0, True)}, think={0: [10.0, 20.0, 30.0]},
    )
    assert thought(table, {0, 1, 2}, 1150.0) == {0: [20.0, 30.0, 150.0]}, "the last three; no computer's"
