"""An event's computer level: set with /tournament create (default hard), shown on the event,
stored with every seat of its tables, and used when a dropped player's seat goes to a computer."""

from __future__ import annotations

import pytest

from bot.core.i18n import Lang
from bot.tables.render import seat_names
from tests.events.test_tournament_cog import button_id, create_swiss, event_world, sign_up_all
from tests.support.table import embed_text

# On a busy machine running two test workers, one step can take more than a minute of real time.
pytestmark = pytest.mark.simcord(settle_timeout=40)  # a settle waits in real time for every timer due within it: none is due between 15 s and 60 s


async def seats_of_round(bot, tournament_id: int):
    rows = await bot.tournaments.service.store.round_tables(tournament_id)
    return [seat for row in rows if row.table_id for seat in (await bot.service.table(row.table_id)).seats]


async def test_events_default_to_hard_computers(simcord_env, simcord_bot):
    _guild, channel, organizer, members = event_world(simcord_env, players=3)
    signup = await create_swiss(organizer, channel)
    assert "Computer players play at the hard level" in embed_text(signup)
    tournament_id = int(button_id(signup, "drop").split(":")[-1])
    assert (await simcord_bot.tournaments.service.get(tournament_id)).computer_level == "hard"


async def test_an_event_plays_its_computers_at_the_chosen_level(simcord_env, simcord_bot):
    _guild, channel, organizer, members = event_world(simcord_env, players=4)
    signup = await create_swiss(organizer, channel, rounds=1, computer_level="normal", fill="computers")
    assert "Computer players play at the normal level" in embed_text(signup)
    tournament_id = int(button_id(signup, "drop").split(":")[-1])
    assert (await simcord_bot.tournaments.service.get(tournament_id)).computer_level == "normal"
    await sign_up_all(signup, members)
    await organizer.click(signup, custom_id=button_id(signup, "start"))

    seats = await seats_of_round(simcord_bot, tournament_id)
    assert len(seats) == 6 and any(s.user_id is None for s in seats), "4 players and 2 computer fill-ins"
    for row in await simcord_bot.tournaments.service.store.round_tables(tournament_id):
        table = await simcord_bot.service.table(row.table_id)
        computers = [s.name for s in table.seats if s.user_id is None]
        assert computers == [f"computer:{n}" for n in range(1, len(computers) + 1)], "numbered at each table"
        shown = [n for n in seat_names(table, Lang("en")) if n.startswith("🤖")]
        assert shown == [f"🤖 Computer {n}" for n in range(1, len(computers) + 1)]
    tables = [embed_text(m) for m in channel.history() if m.author.bot and "table #" in embed_text(m)]
    assert any("🤖 Computer 1" in text for text in tables), "the table messages name the fill-ins"
    assert not any("None" in text for text in tables), "no fill-in is named None"
    assert {s.level for s in seats} == {"normal"}, "fill-ins, and any computer playing for a member"

    leaver = members[0]
    answer = await leaver.click(signup, custom_id=button_id(signup, "drop"))
    assert "left the tournament" in answer.response.content
    (seat,) = [s for s in await seats_of_round(simcord_bot, tournament_id) if s.user_id == leaver.id]
    assert seat.away and seat.level == "normal"

