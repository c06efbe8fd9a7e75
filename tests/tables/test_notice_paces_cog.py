"""Whole games at three paces, on SimCord's virtual time (issue 46): notices reach each player once.

A 3-player Donguri table with a one-day clock: alice keeps the default notices (``away``), bob
chose ``always``, carol ``never`` (the thread mentions her instead). Each member to act waits the
pace, then plays from their DM: live (5 s a move), slow (150 s) and away (2 h). At every pace no
mention or DM is deleted within a minute of being posted, no member ever has more than one live
notice at the table, nothing is left a minute after the end, and each member gets exactly one new
end-of-game DM.
"""

from __future__ import annotations

import pytest

from tests.support.notices import Watch
from tests.support.table import make_world, play_from_dm, result_dms, to_act
from tests.tables.test_turn_notices_cog import three_members

PACES = {"live": 5, "slow": 150, "away": 2 * 3600}


@pytest.mark.slow  # whole games; test_turn_notices_cog.py keeps their subject in the fast lane
@pytest.mark.parametrize("pace", sorted(PACES))
async def test_a_whole_game_at_each_pace_tells_each_player_once(simcord_env, pace):
    world = make_world(simcord_env)
    watch = Watch(simcord_env)
    alice, bob, carol = world.members[:3]
    await bob.slash(world.channel, "notifications", mode="always")
    await carol.slash(world.channel, "notifications", mode="never")
    await three_members(world)
    moves = 0
    while to_act(world):
        await simcord_env.advance_time(PACES[pace])
        await play_from_dm(to_act(world)[0])
        moves += 1
    end = watch.now()
    await simcord_env.advance_time(61)
    stats = {
        "moves": moves, "pings": len(watch.pings), "turn_dms": len(watch.turn_dms),
        "deleted_within_60s": len(watch.deleted_young()), "most_live": max(watch.most_live.values(), default=0),
        "left_after_end": len(watch.left()), "end_dms": len(watch.end_dms),
    }
    print(f"pace {pace}: {stats}")  # the numbers of docs/measurements.md (pytest -s)
    assert moves > 30
    assert watch.deleted_young() == [], [(p.content, p.created, p.deleted) for p in watch.deleted_young()]
    assert all(count <= 1 for count in watch.most_live.values()), dict(watch.most_live)
    assert watch.left() == [], [p.content for p in watch.left()]
    for member in (alice, bob, carol):
        assert len(watch.end_dms_of(member.id)) == 1 and len(result_dms(member)) == 1, member.name
        assert watch.end_dms_of(member.id)[0].created <= end + 1, "at the end, not later"
    assert watch.end_dms_of(carol.id)[0].silent and not watch.end_dms_of(alice.id)[0].silent
    assert watch.dms_in(carol.user.dm_channel.id) == [], "never: no turn DM"
    assert all(p.pinged == [carol.id] for p in watch.pings), "the thread mentions only whom it must"
    if pace == "live":
        assert watch.dms_in(alice.user.dm_channel.id) == [] and watch.pings == [], "nobody playing is told"
        assert watch.dms_in(bob.user.dm_channel.id), "always: at once when his turn comes round"
    if pace == "slow":
        # 150 s a move is playing, not away: after their first waits, their turns wait 300 s.
        assert len(watch.dms_in(alice.user.dm_channel.id)) <= 1 and len(watch.pings_of(carol.id)) <= 1
    if pace == "away":
        for member in (alice, carol):
            told = watch.dms_in(member.user.dm_channel.id) or watch.pings_of(member.id)
            assert len(told) >= 5, (member.name, len(told))
