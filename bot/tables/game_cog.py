"""What every game's slash-command group has: ``/<game> new`` opens a table, ``/<game> rules``
shows how to play.

A game still declares its group and both commands in its own class (``new = new_command(...)``), so
discord.py finds and syncs them under the game's group with the game's catalog keys and texts;
only their callbacks are written once, here.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.core.engine import Engine
from bot.core.interaction import Interaction
from bot.core.translator import command, game_options

if TYPE_CHECKING:
    from bot.tables.desk import Desk
    from bot.tables.opening import Opening

#: A game whose host chooses the table size offers four seats unless told otherwise.
DEFAULT_SIZE = 4
#: ``/<game> new``'s members to invite (``invite:``), as many as the game has seats besides the host's.
INVITES = ("invite", "invite2", "invite3")
#: Their texts, shared by every game (``cmd.new.<option>``).
INVITE_TEXTS = {
    "invite": ("Invite a member: only those invited (and you) may join", "cmd.new.invite"),
    "invite2": ("Invite another member", "cmd.new.invite2"),
    "invite3": ("Invite a third member", "cmd.new.invite3"),
}

GameCommand = app_commands.Command["GameCog", ..., None]


class GameCog(commands.GroupCog):
    """A game's slash-command group; the platform's desk and table opening do what it asks."""

    def __init__(self, desk: Desk, opening: Opening) -> None:
        self.desk = desk
        self.opening = opening


def game_group(game: str, name: str, description: str) -> dict[str, locale_str]:
    """The group's class arguments: its English name and description, translated under
    ``<game>.cmd.name`` and ``<game>.cmd.description``."""
    return {
        "group_name": locale_str(name, key=f"{game}.cmd.name"),
        "group_description": locale_str(description, key=f"{game}.cmd.description"),
    }


def method(callback: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., Coroutine[Any, Any, None]]:
    """discord.py passes the cog first only to a callback it takes for a method, which it tells by
    the qualified name (``discord.utils.is_inside_class``); these are written outside the class."""
    callback.__qualname__ = f"{GameCog.__name__}.{callback.__name__}"
    return callback


def new_command(
    game: str, engine: type[Engine], description: str, *, players: int | tuple[int, int, str]
) -> GameCommand:
    """``/<game> new``: the engine's declared options and ``rated``; and ``players``, given as
    ``(fewest, most, its description)`` where the host chooses the table size, else the fixed size;
    then up to three members to invite (an invite-only table), no more than the game's other seats.
    A member option gives a ``discord.User`` for someone outside the server: the opening refuses
    them by name rather than discord.py failing the command."""
    fixed = players if isinstance(players, int) else DEFAULT_SIZE
    invites = INVITES[: max(engine.max_players - 1, 0)]

    @method
    async def new(
        self: GameCog,
        interaction: Interaction,
        players: int = fixed,
        rated: bool = False,
        invite: discord.User | None = None,
        invite2: discord.User | None = None,
        invite3: discord.User | None = None,
        **options: Any,
    ) -> None:
        invited = [m for m in (invite, invite2, invite3) if m is not None]
        await self.opening.open_table(interaction, game, players, options, rated=rated, invited=invited)

    signature = inspect.signature(new)
    params = [p for p in signature.parameters.values() if p.name not in INVITES or p.name in invites]
    texts: dict[str, Any] = {name: INVITE_TEXTS[name] for name in invites}
    if isinstance(players, int):
        params = [p for p in params if p.name != "players"]
    else:
        low, high, texts["players"] = players
        params = [p.replace(annotation=app_commands.Range[int, low, high]) if p.name == "players" else p for p in params]
    target: Any = new  # a function object takes the attribute inspect.signature reads
    target.__signature__ = signature.replace(parameters=params)
    return command(f"{game}.cmd.new", description, **texts)(game_options(engine)(new))


def rules_command(game: str, description: str) -> GameCommand:
    """``/<game> rules``: the game's rules, privately, in the member's language."""

    @method
    async def rules(self: GameCog, interaction: Interaction) -> None:
        await self.desk.send_rules(interaction, game)

    return command(f"{game}.cmd.rules", description)(rules)
