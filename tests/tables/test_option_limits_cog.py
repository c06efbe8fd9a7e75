"""Options forged past their declarations are refused by the bot itself, before any command runs,
with an ephemeral answer in the member's language that names the option (bot/core/option_limits.py).

Discord's client keeps a member within each option's range, length and choices (so does SimCord's
``slash``); a modified client does not (``forge_slash``). Before, a tournament named with 2,000
characters was created, and ``rounds=0`` or ``table_size=0`` were read as "default".
"""

from __future__ import annotations

import pytest
from discord import AppCommandOptionType as Kind
from discord import app_commands

from bot.core.option_limits import OptionRefused, check
from tests.events.test_tournament_cog import event_world
from tests.support.forged import answer_text, forge_slash
from tests.support.locales import japanese
from tests.support.table import make_world

CREATE = "tournament create"
GOOD = dict(game="donguri", name="Autumn Cup", format="swiss", rounds=3, table_size=3, clock=60)


@pytest.mark.parametrize(
    ("forged", "answer"),
    [
        ({"name": "x" * 2000}, "The option “name” takes 1 to 80 characters."),
        ({"name": ""}, "The option “name” takes 1 to 80 characters."),
        ({"rounds": 0}, "The option “rounds” takes a number from 1 to 20."),
        ({"table_size": 0}, "The option “table_size” takes a number from 2 to 6."),
        ({"rounds": 21}, "The option “rounds” takes a number from 1 to 20."),
        ({"format": "knockout"}, "The option “format” takes one of the choices Discord offers for it."),
        ({"clock": 7}, "The option “clock” takes one of the choices Discord offers for it."),
        ({"rounds": "three"}, "The option “rounds” did not come as the kind of value it takes."),
        ({"auto_next": 1}, "The option “auto_next” did not come as the kind of value it takes."),
        ({"name": None}, "The option “name” is required."),
    ],
    ids=["name-2000", "name-empty", "rounds-0", "table_size-0", "rounds-21", "format", "clock", "rounds-text",
         "bool-as-int", "name-missing"],
)
async def test_a_forged_tournament_option_is_refused_and_nothing_is_created(simcord_env, simcord_bot, caplog, forged, answer):
    _guild, channel, organizer, _members = event_world(simcord_env, players=3)
    options = {**GOOD, **forged}
    result = await forge_slash(organizer, channel, CREATE, **{k: v for k, v in options.items() if v is not None})
    assert result.ephemeral and answer_text(result).startswith(answer), answer_text(result)
    assert await simcord_bot.store.db.fetchval("SELECT count(*) FROM tournaments") == 0
    assert [r for r in caplog.records if r.levelname == "ERROR"] == []
    await organizer.slash(channel, CREATE, **GOOD)  # within the limits: created, as before
    assert await simcord_bot.store.db.fetchval("SELECT count(*) FROM tournaments") == 1


async def test_a_japanese_member_is_told_in_japanese_with_the_option_as_their_client_names_it(
    simcord_env, simcord_bot, client_locales
):
    _guild, channel, organizer, _members = event_world(simcord_env, players=3)
    client_locales[organizer.id] = "ja"
    result = await forge_slash(organizer, channel, CREATE, **{**GOOD, "name": "長" * 81})
    text = answer_text(result)
    assert result.ephemeral and japanese(text) and "「名前」" in text and "1〜80文字" in text, text


async def test_a_game_s_new_command_refuses_a_forged_player_count(simcord_env, simcord_bot):
    world = make_world(simcord_env)
    host = world.members[0]
    for players in (0, 6, 99):
        result = await forge_slash(host, world.channel, "donguri new", players=players)
        assert answer_text(result) == "The option “players” takes a number from 3 to 5.", answer_text(result)
    assert await simcord_bot.service.store.tables_with_status("lobby") == []


def just_outside(param: app_commands.Parameter) -> list[object]:
    """Values one step past what ``param`` declares."""
    if param.choices:
        return ["not a choice" if param.type is Kind.string else 10**9]
    if param.type is Kind.string:  # discord.py keeps a text's length limits as its min and max value
        return [v for v in ("x" * (param.max_value + 1) if param.max_value else None,
                            "x" * (param.min_value - 1) if param.min_value else None) if v is not None]
    if param.type in (Kind.integer, Kind.number):
        return [v for v in (param.max_value + 1 if param.max_value is not None else None,
                            param.min_value - 1 if param.min_value is not None else None) if v is not None]
    return []


def within(param: app_commands.Parameter) -> object:
    if param.choices:
        return param.choices[-1].value
    if param.type is Kind.string:
        return "x" * (param.max_value or 3)
    if param.type in (Kind.integer, Kind.number):
        return param.max_value if param.max_value is not None else param.min_value if param.min_value is not None else 1
    if param.type is Kind.boolean:
        return True
    return object()  # a member, a channel: as discord.py resolved it


async def test_every_declared_limit_of_every_command_is_checked_by_the_bot(simcord_env, simcord_bot):
    """All the commands the bot registers, present and future: each option at its limit passes,
    one step past it is refused, naming that option."""
    commands = [c for c in simcord_bot.tree.walk_commands() if isinstance(c, app_commands.Command)]
    checked = 0
    for command in commands:
        base = {p.display_name: within(p) for p in command.parameters if p.required}
        check(command, base)  # type: ignore[arg-type]  # a mapping stands in for discord.py's namespace
        for param in command.parameters:
            check(command, {**base, param.display_name: within(param)})  # type: ignore[arg-type]
            for value in just_outside(param):
                with pytest.raises(OptionRefused) as refused:
                    check(command, {**base, param.display_name: value})  # type: ignore[arg-type]
                option = refused.value.params["option"]
                assert getattr(option, "key", option) in (param.display_name, param.locale_name.extras.get("key"))
                checked += 1
    assert len(commands) > 30 and checked > 40, (len(commands), checked)
