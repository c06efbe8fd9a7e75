"""The choices, parsing and autocomplete behind /tournament's options, kept apart from the
commands that use them."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from discord import app_commands
from discord.app_commands import Choice, locale_str

from bot.core.errors import UserError
from bot.core.games import REGISTRY
from bot.core.interaction import Interaction
from bot.core.options import find, shown_name
from bot.tables.member_locale import member_lang
from bot.tables.opening import checked_options

FORMAT_CHOICES = [
    Choice(name=locale_str("Swiss", key="cmd.tournament.format.swiss"), value="swiss"),
    Choice(name=locale_str("Round robin", key="cmd.tournament.format.round_robin"), value="round_robin"),
    Choice(name=locale_str("Elimination", key="cmd.tournament.format.elimination"), value="elimination"),
]
POLICY_CHOICES = [
    Choice(
        name=locale_str("A computer plays that move", key="cmd.tournament.policy.computer_turn"),
        value="computer_turn",
    ),
    Choice(
        name=locale_str("A computer takes the seat after 3", key="cmd.tournament.policy.computer_seat"),
        value="computer_seat",
    ),
    Choice(
        name=locale_str("The table ends; the absent player ranks last", key="cmd.tournament.policy.end"),
        value="end",
    ),
]
TEAM_CHOICES = [
    Choice(name=locale_str("Fixed pairs", key="cmd.tournament.teams.fixed"), value="fixed"),
    Choice(name=locale_str("New partners each round", key="cmd.tournament.teams.redraw"), value="redraw"),
]
CLOCK_CHOICES = [
    Choice(name=locale_str("1 minute", key="cmd.clock.c60"), value=60),
    Choice(name=locale_str("5 minutes", key="cmd.clock.c300"), value=300),
    Choice(name=locale_str("15 minutes", key="cmd.clock.c900"), value=900),
    Choice(name=locale_str("1 hour", key="cmd.clock.c3600"), value=3600),
    Choice(name=locale_str("4 hours", key="cmd.clock.c14400"), value=14400),
    Choice(name=locale_str("12 hours", key="cmd.clock.c43200"), value=43200),
    Choice(name=locale_str("1 day", key="cmd.clock.c86400"), value=86400),
    Choice(name=locale_str("3 days", key="cmd.clock.c259200"), value=259200),
    Choice(name=locale_str("7 days", key="cmd.clock.c604800"), value=604800),
]
PAIRING_CHOICES = [
    Choice(name=locale_str("Group by standings", key="cmd.tournament.pairing.standings"), value="standings"),
    Choice(
        name=locale_str("Avoid repeat tablemates first", key="cmd.tournament.pairing.repeats"),
        value="repeats",
    ),
]
FILL_CHOICES = [
    Choice(name=locale_str("Byes", key="cmd.tournament.fill.byes"), value="byes"),
    Choice(name=locale_str("Computer players", key="cmd.tournament.fill.computers"), value="computers"),
]
LEVEL_CHOICES = [
    Choice(name=locale_str("Easy (random moves)", key="cmd.tournament.level.easy"), value="easy"),
    Choice(name=locale_str("Normal", key="cmd.tournament.level.normal"), value="normal"),
    Choice(name=locale_str("Hard", key="cmd.tournament.level.hard"), value="hard"),
]
EXPORT_CHOICES = [
    Choice(name=locale_str("CSV (spreadsheet)", key="cmd.tournament.kind.csv"), value="csv"),
    Choice(name=locale_str("JSON (everything)", key="cmd.tournament.kind.json"), value="json"),
    Choice(
        name=locale_str(
            "Challonge participants and matches (2 players)", key="cmd.tournament.kind.challonge"
        ),
        value="challonge",
    ),
]


def parse_points(text: str | None) -> list[float] | None:
    if not text:
        return None
    try:
        return [float(part) for part in text.replace(";", ",").replace(" ", ",").split(",") if part]
    except ValueError:
        raise UserError("tournament.error.bad_points_text", value=text[:50]) from None


#: The ``/tournament create`` fields for game options, each offering the chosen game's options.
OPTION_SLOTS = ("option1", "option2", "option3")
MAX_CHOICE = 100


async def autocomplete_option(
    interaction: Interaction, current: str
) -> list[Choice[str]]:
    """The chosen game's options not picked in another field, each value worded as the lobby shows
    it ("Length: short (…)"); the choice's value is ``name=value``."""
    ui = REGISTRY.get(str(getattr(interaction.namespace, "game", None) or ""))
    if ui is None:
        return []
    others = [str(getattr(interaction.namespace, slot, None) or "") for slot in OPTION_SLOTS]
    taken = {text.partition("=")[0] for text in others if text and text != current}
    pairs = ui.option_choices(current, taken, member_lang(interaction))
    # A value longer than a choice may carry cannot be offered.
    return [Choice(name=words[:MAX_CHOICE], value=v) for words, v in pairs if len(v) <= MAX_CHOICE][:25]


def chosen_options(game: str, picked: list[str | None]) -> dict[str, Any]:
    """The options picked in the option fields (``name=value``, as the suggestions send them),
    checked against the game's declaration."""
    declared = REGISTRY[game].engine.declared_options
    options: dict[str, Any] = {}
    for text in filter(None, picked):
        name, sep, token = text.partition("=")
        option = find(declared, name.strip())
        if option is None:
            raise UserError("tournament.error.bad_options", option=text[:40])
        if option.name in options:
            raise UserError("tournament.error.repeated_option", option=shown_name(declared, option.name))
        if not sep:
            raise UserError("tournament.error.bad_options", option=shown_name(declared, option.name))
        options[option.name] = option.read(token)
    return checked_options(game, options)


#: A cog method suggesting events: (cog, interaction, what was typed) -> choices of event ids.
EventChoices = Callable[[Any, Interaction, str], Coroutine[Any, Any, list[Choice[int]]]]
T = TypeVar("T")


def names_an_event(choices: EventChoices) -> Callable[[T], T]:
    """The optional ``tournament`` parameter every organizer and standings command shares, with
    ``choices`` (a method of the cog) suggesting this server's events."""
    return lambda func: _names_an_event(func, choices)


def _names_an_event(func: T, choices: EventChoices) -> T:
    func = app_commands.autocomplete(tournament=choices)(func)
    description = locale_str(
        "Which tournament (default: the newest here)", key="cmd.tournament.opt.tournament.description"
    )
    func = app_commands.describe(tournament=description)(func)
    return app_commands.rename(tournament=locale_str("tournament", key="cmd.tournament.opt.tournament.name"))(
        func
    )
