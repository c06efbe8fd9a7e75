"""Table sizes (issue 49): "tables of 4" seats as many tables of 4 as it can (30 players: six of 4
and two of 3, not ten of 3; a Donguri table of 3 plays another game), and the organizer sees the
sizes in the round's preview."""

from __future__ import annotations

from collections import Counter

import discord
import pytest

from tests.events.test_tournament_cog import NAMES, button_id, create_swiss, first_event_message, sign_up_all
from tests.events.test_tournament_organizer_cog import answer
from tests.events.test_tournaments import create
from tests.support.table import embed_text

pytestmark = pytest.mark.simcord(settle_timeout=40)

#: Players → the tables of 4 and of 3 a round seats them at.
EXPECTED = {15: (3, 1), 18: (3, 2), 21: (3, 3), 27: (6, 1), 30: (6, 2)}


async def test_donguri_tables_of_four_seat_as_many_fours_as_the_players_allow(world):
    for players, (fours, threes) in EXPECTED.items():
        tournament = await create(world, players=players, rounds=3, table_size=4, confirm_pairings=True)
        tournament = await world.events.start(tournament.id)
        rows = [r for r in await world.events.store.round_tables(tournament.id, 1) if r.number]
        assert Counter(len(r.players) for r in rows) == Counter({4: fours, 3: threes}), players
        assert sum(len(r.players) for r in rows) == players, "nobody sits out"


def world_of(env, players: int):
    guild = env.create_guild()
    channel = guild.create_text_channel("events")
    staff = guild.create_role("staff", permissions=discord.Permissions(manage_guild=True))
    organizer = guild.add_member(env.create_user(NAMES[0]), roles=[staff])
    members = [guild.add_member(env.create_user(f"p{i:02d}")) for i in range(players)]
    return channel, organizer, members


@pytest.mark.parametrize(
    ("language", "shown"),
    [("en", "🪑 This round: 6 tables of 4 and 2 tables of 3."), ("ja", "🪑 この回戦の卓: 4人卓 6卓、3人卓 2卓。")],
)
async def test_the_preview_shows_the_organizer_the_table_sizes(simcord_env, simcord_bot, client_locales, language, shown):
    channel, organizer, members = world_of(simcord_env, 30)
    client_locales[organizer.id] = language
    signup = await create_swiss(organizer, channel, rounds=2, table_size=4, confirm_pairings=True)
    await sign_up_all(signup, members)
    started = await organizer.click(signup, custom_id=button_id(signup, "start"))
    look = answer(started)
    assert look.ephemeral and shown in embed_text(look)
    tournament_id = int(button_id(first_event_message(channel), "drop").split(":")[-1])
    rows = await simcord_bot.tournaments.service.store.round_tables(tournament_id, 1)
    assert sorted((len(r.players) for r in rows if r.number), reverse=True) == [4] * 6 + [3, 3]
