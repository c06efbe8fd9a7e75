"""Every slash command's options checked by the bot against their own declarations, before the
command runs: the range of a number, the length of a text, the choices, the presence of what is
required and the kind of value.

Discord's client keeps a member within those limits, but a modified client, a bot replaying
requests or a future Discord bug can send anything: a tournament name of 4,000 characters, rounds
at 0 (which the event read as "default"). discord.py checks none of this itself, so
``CheckedTree`` does, for every command the tree will ever hold, reading only what each option
declares (``Range[...]``, ``@choices``, the annotation); no command repeats a check of its own. A
refused option is answered with ``error.option.*`` in the member's language, naming the option as
their client shows it, and the command never runs.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import AppCommandOptionType as Kind
from discord import app_commands

from bot.core.errors import UserError
from bot.core.i18n import Term

#: The Python types of each kind of option's value, as discord.py reads them from the payload.
VALUES: dict[Kind, tuple[type, ...]] = {
    Kind.string: (str,),
    Kind.integer: (int,),
    Kind.number: (int, float),
    Kind.boolean: (bool,),
}


class OptionRefused(UserError, app_commands.AppCommandError):
    """An option outside its declaration: a ``UserError`` (the member is told, nothing changes)
    that discord.py's tree carries to the bot's error handler."""


def option_name(param: app_commands.Parameter) -> Term | str:
    """The option as the member's client names it (its catalog name, else its declared one)."""
    key = param.locale_name.extras.get("key") if param.locale_name is not None else None
    return Term(key) if key else param.display_name


def refusal(param: app_commands.Parameter, value: Any) -> OptionRefused | None:
    """Why ``value`` breaks what ``param`` declares; None when it keeps to it."""
    name = option_name(param)
    kinds = VALUES.get(param.type)
    if kinds is not None and (not isinstance(value, kinds) or (param.type is not Kind.boolean and isinstance(value, bool))):
        return OptionRefused("error.option.kind", option=name)
    if param.choices and not any(type(value) is type(c.value) and value == c.value for c in param.choices):
        return OptionRefused("error.option.choice", option=name)
    # discord.py keeps a text's length limits where a number's range goes (``min_value``).
    low, high = param.min_value, param.max_value
    if param.type is Kind.string:
        key, size = "error.option.length", len(value)
    elif param.type in (Kind.integer, Kind.number):
        key, size = "error.option.range", value
    else:
        return None
    if (low is not None and size < low) or (high is not None and size > high):
        bounds = "between" if low is not None and high is not None else "at_least" if low is not None else "at_most"
        return OptionRefused(f"{key}.{bounds}", option=name, min=low, max=high)
    return None


def check(command: app_commands.Command[Any, ..., Any], namespace: app_commands.Namespace) -> None:
    """Raise ``OptionRefused`` for the first option of the interaction that breaks its declaration."""
    for param in command.parameters:
        if param.display_name not in namespace:
            if param.required:
                raise OptionRefused("error.option.missing", option=option_name(param))
            continue
        refused = refusal(param, namespace[param.display_name])
        if refused is not None:
            raise refused


class CheckedTree(app_commands.CommandTree):
    """discord.py's command tree, checking each command's options before it runs (not while a
    member types: an autocomplete sees half a value, and only offers)."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        command = interaction.command
        if interaction.type is discord.InteractionType.application_command and isinstance(command, app_commands.Command):
            check(command, interaction.namespace)
        return True
