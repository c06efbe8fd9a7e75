"""``/tournament create`` offers the chosen game's declared options as choices worded like the
lobby, in the member's language, and the event's tables play with the options picked."""

from __future__ import annotations

from tests.events.test_tournament_cog import button_id, event_world, first_event_message, tournament_tables
from tests.support.table import embed_text

CREATE = "tournament create"


def offered(choices: list[dict]) -> list[tuple[str, str]]:
    return [(c["name"], c["value"]) for c in choices]


async def test_the_option_fields_offer_the_chosen_games_options(simcord_env, simcord_bot):
    _guild, channel, organizer, _members = event_world(simcord_env, players=0)
    assert await organizer.autocomplete(channel, CREATE, "option1", "") == [], "no game chosen yet"
    assert await organizer.autocomplete(channel, CREATE, "option1", "", game="othello_torite") == []
    choices = await organizer.autocomplete(channel, CREATE, "option1", "", game="final_quest")
    assert offered(choices) == [
        ("Rebuttal card shown to: everyone (the original rule)", "rebuttal=public"),
        ("Rebuttal card shown to: the asker only, by DM", "rebuttal=asker"),
        ("Round limit: none", "round_cap=none"),
        ("Round limit: draw after 5 rounds", "round_cap=5"),
        ("Round limit: draw after 10 rounds", "round_cap=10"),
        ("Round limit: draw after 15 rounds", "round_cap=15"),
        ("Round limit: draw after 20 rounds", "round_cap=20"),
    ]
    # A number typed for a range is offered as typed; an option picked in another field is left out.
    typed = await organizer.autocomplete(
        channel, CREATE, "option2", "7", game="final_quest", option1="rebuttal=asker"
    )
    assert offered(typed) == [("Round limit: draw after 7 rounds", "round_cap=7")]
    assert await organizer.autocomplete(channel, CREATE, "option2", "100", game="final_quest") == [], (
        "out of range"
    )
    # Free text (Saizen's layout) is checked while typed and shown as the lobby shows it.
    layout = await organizer.autocomplete(channel, CREATE, "option1", "♠:小+MAY", game="saizen")
    assert offered(layout)[0] == ("Starting layout: ♠︎ 小 low, MAY follow", "layout=S:low+may")
    assert offered(await organizer.autocomplete(channel, CREATE, "option3", "adv", game="arsene")) == [
        ("Advanced rules: contest mode from the deal after the first shop empties", "advanced=true")
    ]


async def test_a_japanese_organizer_sees_the_choices_in_japanese(simcord_env, simcord_bot, client_locales):
    _guild, channel, organizer, _members = event_world(simcord_env, players=0)
    client_locales[organizer.id] = "ja"
    choices = await organizer.autocomplete(channel, CREATE, "option1", "短", game="donguri")
    assert offered(choices) == [("長さ: 短め(3人: 6ディール、4人: 4、5人: 5)", "length=short")]
    picked = await organizer.autocomplete(channel, CREATE, "option1", "length=short", game="donguri")
    assert offered(picked) == offered(choices), "a picked value still shows its words"


async def test_an_event_plays_every_table_with_the_options_picked(simcord_env, simcord_bot):
    _guild, channel, organizer, members = event_world(simcord_env, players=3)
    settings = dict(game="donguri", name="Short Cup", rounds=1, table_size=3, clock=60)
    created = await organizer.slash(channel, CREATE, option1="length=short", **settings)
    assert created.ephemeral
    signup = first_event_message(channel)
    assert "Length: short (3p: 6 deals, 4p: 4, 5p: 5)" in embed_text(signup)
    for member in members:
        await member.click(signup, custom_id=button_id(signup, "join"))
    await organizer.click(signup, custom_id=button_id(signup, "start"))
    tournament_id = int(button_id(signup, "drop").split(":")[-1])
    (row,) = await tournament_tables(simcord_bot, tournament_id)
    table = await simcord_bot.service.table(row.table_id)
    assert table.options == {"length": "short"}
    assert (await simcord_bot.service.engine(table)).deals_total == 6, "three players, short game: 6 deals"


async def test_bad_or_repeated_options_are_refused_and_nothing_is_created(simcord_env, simcord_bot):
    _guild, channel, organizer, _members = event_world(simcord_env, players=0)
    settings = dict(game="donguri", name="Cup", table_size=3)
    for picked, says in (
        ({"option1": "length=endless"}, "The option “length” cannot be “endless”."),
        ({"option1": "speed=fast"}, "I could not use the game option “speed=fast”"),
        ({"option1": "short"}, "I could not use the game option “short”"),
        ({"option1": "length=short", "option2": "length=standard"}, "“length” is picked twice"),
    ):
        refused = await organizer.slash(channel, CREATE, **picked, **settings)
        assert refused.ephemeral and says in refused.response.content
    layout = await organizer.slash(channel, CREATE, game="saizen", name="Cup", option1="layout=S:low H:huge")
    assert "not valid at “H:huge”" in layout.response.content, "the game's own words for a bad layout"
    assert not [m for m in channel.history() if m.author.bot], "no event was created"
