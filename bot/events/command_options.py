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
from bot.core.translator import choice, choices
from bot.events.fairness import FILLS
from bot.events.service import FORMATS, TEAM_MODES
from bot.events.swiss_search import PAIRING_MODES
from bot.tables.member_locale import member_lang
from bot.tables.opening import checked_options
from bot.tables.terms import CLOCKS, LEVELS, TIMEOUT_POLICIES

FORMAT_CHOICES = choices("cmd.tournament.format", FORMATS)
POLICY_CHOICES = choices("cmd.tournament.policy", TIMEOUT_POLICIES)
TEAM_CHOICES = choices("cmd.tournament.teams", TEAM_MODES)
CLOCK_CHOICES = [choice(f"cmd.clock.c{seconds}", seconds) for seconds in CLOCKS]
PAIRING_CHOICES = choices("cmd.tournament.pairing", PAIRING_MODES)
FILL_CHOICES = choices("cmd.tournament.fill", FILLS)
LEVEL_CHOICES = choices("cmd.tournament.level", LEVELS)
EXPORT_CHOICES = choices("cmd.tournament.kind", ("csv", "json", "challonge"))


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
