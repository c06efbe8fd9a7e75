"""Invite-only lobbies below Discord (part of issue 47): only the host and the members invited may
join; a guest who joins has accepted; a decline and a lapse are kept on the table's row, once."""

from __future__ import annotations

import pytest

from bot.core.errors import UserError
from bot.storage.invitations import ACCEPTED, DECLINED, LAPSED, PENDING, Guest
from bot.tables.lobby_ops import closing_time

HOST, BOB, CAROL, DAVE = 1, 2, 3, 4


async def invite_only(world, guests=(BOB, CAROL), lapse=100.0):
    return await world.lobby.open(
        "donguri", guild_id=9, channel_id=10, host=(HOST, "alice"), size=4, options={"length": "short"},
        language="en", guests=[Guest(g, f"m{g}") for g in guests], invites_lapse=lapse,
    )


def states(table) -> dict[int, str]:
    return {g.user_id: g.state for g in table.guests}


async def test_only_guests_join_and_a_join_accepts(world):
    table = await invite_only(world)
    assert states(await world.tables.table(table.id)) == {BOB: PENDING, CAROL: PENDING}
    with pytest.raises(UserError) as refused:
        await world.lobby.join(table.id, (DAVE, "dave"))
    assert refused.value.key == "error.invite_only"
    unchanged = await world.tables.table(table.id)
    assert [s.user_id for s in unchanged.seats] == [HOST] and unchanged.version == table.version
    joined = await world.lobby.join(table.id, (BOB, "bob"))
    assert [s.user_id for s in joined.seats] == [HOST, BOB] and states(joined)[BOB] == ACCEPTED
    declined = await world.lobby.decline(table.id, CAROL)
    assert states(declined) == {BOB: ACCEPTED, CAROL: DECLINED}
    with pytest.raises(UserError) as again:
        await world.lobby.decline(table.id, CAROL)
    assert again.value.key == "error.invite_answered"
    with pytest.raises(UserError) as stranger:
        await world.lobby.decline(table.id, DAVE)
    assert stranger.value.key == "error.not_invited"
    # A guest who declined may still change their mind while the invitation holds.
    assert states(await world.lobby.join(table.id, (CAROL, "carol")))[CAROL] == ACCEPTED


async def test_unanswered_invitations_lapse_once_at_their_time(world):
    table = await invite_only(world, guests=(BOB, CAROL, DAVE), lapse=100.0)
    await world.lobby.join(table.id, (BOB, "bob"))
    assert await world.store.invitations.next_lapse() == 100.0
    assert await world.store.invitations.lapsing(99.0) == []
    assert await world.lobby.lapse(table.id, 99.0) is None, "not yet"
    assert await world.store.invitations.lapsing(100.0) == [table.id]
    late = await world.lobby.lapse(table.id, 100.0)
    assert [g.user_id for g in late] == [CAROL, DAVE]
    assert await world.lobby.lapse(table.id, 100.0) is None, "lapsed once"
    lapsed = await world.tables.table(table.id)
    assert states(lapsed) == {BOB: ACCEPTED, CAROL: LAPSED, DAVE: LAPSED} and lapsed.invites_lapse is None
    assert await world.store.invitations.next_lapse() is None
    with pytest.raises(UserError) as refused:
        await world.lobby.join(table.id, (CAROL, "carol"))
    assert refused.value.key == "error.invite_lapsed"
    assert [s.user_id for s in (await world.tables.table(table.id)).seats] == [HOST, BOB]


async def test_an_open_lobby_has_no_invitations_and_a_lobby_cannot_invite_more_than_its_seats(world):
    open_lobby = await world.lobby.open(
        "donguri", guild_id=9, channel_id=10, host=(HOST, "alice"), size=3, options={"length": "short"},
        language="en", invites_lapse=100.0,
    )
    assert open_lobby.guests == [] and open_lobby.invites_lapse is None
    assert [s.user_id for s in (await world.lobby.join(open_lobby.id, (DAVE, "dave"))).seats] == [HOST, DAVE]
    with pytest.raises(UserError) as refused:
        await world.lobby.open(
            "donguri", guild_id=9, channel_id=10, host=(HOST, "alice"), size=3, options={"length": "short"},
            language="en", guests=[Guest(u, "m") for u in (BOB, CAROL, DAVE)],
        )
    assert refused.value.key == "error.invite_too_many" and refused.value.params == {"count": 2}


async def test_a_member_refuses_challenges(world):
    assert await world.store.invitations.refusing([BOB, CAROL]) == set()
    await world.store.invitations.set_challenges(BOB, accept=False)
    await world.store.invitations.set_challenges(CAROL, accept=True)
    assert await world.store.invitations.refusing([BOB, CAROL]) == {BOB}
    await world.store.invitations.set_challenges(BOB, accept=True)
    assert await world.store.invitations.refusing([BOB]) == set()


def test_a_lobby_closes_a_day_after_its_last_join_and_waits_for_its_invitations():
    day = 86400.0
    assert closing_time(1000.0, None) == 1000.0 + day, "no invitations: a day"
    assert closing_time(1000.0, 1000.0 + 3600) == 1000.0 + day, "invitations of an hour: still a day"
    assert closing_time(1000.0, 1000.0 + 3 * day) == 1000.0 + 3 * day, "three days of invitations: it waits"
    assert closing_time(1000.0, 1000.0 + day - 0.5) == 1000.0 + day - 0.5, "the same moment: at their lapse"
    assert closing_time(1000.0, 1000.0 + 3600, joined=True) == 1000.0 + 3600 + day, "joined: a day past the lapse"


async def test_a_channel_is_called_at_most_once_per_gap_whoever_asks(world):
    lobbies = world.store.lobbies
    assert await lobbies.last_call(10) is None
    assert await lobbies.claim_call(10, 9, now=1000.0, gap=900.0)
    assert not await lobbies.claim_call(10, 9, now=1500.0, gap=900.0), "within the gap: another process called"
    assert await lobbies.claim_call(11, 9, now=1500.0, gap=900.0), "another channel"
    assert await lobbies.claim_call(10, 9, now=1900.0, gap=900.0) and await lobbies.last_call(10) == 1900.0
    table = await world.lobby.open(
        "donguri", guild_id=9, channel_id=10, host=(HOST, "alice"), size=4, options={"length": "short"}, language="en",
    )
    assert table.lfg_at is not None and await lobbies.next_call() == table.lfg_at
    assert await lobbies.calling(table.lfg_at) == [table.id]
    await lobbies.set_call([table.id], None)
    assert await lobbies.next_call() is None
    assert (await invite_only(world)).lfg_at is None, "an invite-only lobby calls nobody"
