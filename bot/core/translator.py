"""Slash-command names, descriptions, options and choices from the message catalogs.

Cog code writes ``locale_str("<English default>", key="cmd.<path>")`` (games use
``<game>.cmd.<path>``). The English default is what Discord shows to every client whose language
has no catalog; for a Japanese client Discord shows the ``ja`` catalog text. A translation that
Discord would refuse (a name with capitals or spaces, a text too long) is logged and left out, so
one bad catalog entry cannot make the whole command sync fail.
"""

from __future__ import annotations

import inspect
import logging
import unicodedata
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where
from discord.app_commands import locale_str

from bot.core.engine import Engine
from bot.core.i18n import FALLBACK, catalog, language_of
from bot.core.options import Option

if TYPE_CHECKING:
    from discord.app_commands.commands import Binding, CommandCallback

log = logging.getLogger(__name__)

GroupT = TypeVar("GroupT", bound="Binding")
P = ParamSpec("P")
T = TypeVar("T")
#: A slash command's callback, before discord.py makes a command of it.
Callback = TypeVar("Callback", bound=Callable[..., Coroutine[Any, Any, Any]])

NAME_LOCATIONS = (Where.command_name, Where.group_name, Where.parameter_name)
MAX_NAME = 32
MAX_TEXT = 100


def valid_name(name: str) -> bool:
    """Discord's rule for chat-input names: ``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, lowercase."""
    if not 1 <= len(name) <= MAX_NAME or name != name.lower():
        return False
    for char in name:
        if char in "-_" or unicodedata.category(char)[0] in "LN":
            continue
        if unicodedata.name(char, "").startswith(("DEVANAGARI", "THAI")):
            continue
        return False
    return True


def valid_text(text: str) -> bool:
    return 1 <= len(text) <= MAX_TEXT


class CatalogTranslator(app_commands.Translator):
    """Looks ``locale_str(..., key=...)`` up in the catalog of the client's language."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        return translate_key(string.extras.get("key"), locale, context.location)


def translate_key(key: str | None, locale: discord.Locale | str, location: Where) -> str | None:
    """The catalog text of ``key`` for ``locale``; None keeps the English default."""
    language = language_of(locale)
    if not key or language == FALLBACK:
        return None
    text = catalog(language).get(key)
    if not isinstance(text, str):
        return None
    ok = valid_name(text) if location in NAME_LOCATIONS else valid_text(text)
    if not ok:
        log.warning("translation of %s for %s is not valid for Discord: %r", key, language, text)
        return None
    return text


def command(
    key: str, description: str, *, options_key: str | None = None, **options: str | tuple[str, str]
) -> Callable[[CommandCallback[GroupT, P, T]], app_commands.Command[GroupT, P, T]]:
    """A slash command whose texts all come from the catalogs, declared in one place.

    The command's name and description are under ``key`` (its English name is the key's last
    part). Each option's English name is its parameter name; its texts are under
    ``<options_key or key>.<parameter>``, or under the key prefix given as ``(description, prefix)``
    for an option shared by several commands (like every game's ``rated``).
    """
    base = options_key or key

    def prefix(param: str) -> str:
        value = options[param]
        return value[1] if isinstance(value, tuple) else f"{base}.{param}"

    def text(param: str) -> str:
        value = options[param]
        return value[0] if isinstance(value, tuple) else value

    def decorate(func: CommandCallback[GroupT, P, T]) -> app_commands.Command[GroupT, P, T]:
        if options:
            func = app_commands.describe(
                **{p: locale_str(text(p), key=f"{prefix(p)}.description") for p in options}
            )(func)
            func = app_commands.rename(**{p: locale_str(p, key=f"{prefix(p)}.name") for p in options})(func)
        name = locale_str(key.rsplit(".", 1)[-1], key=f"{key}.name")
        return app_commands.command(name=name, description=locale_str(description, key=f"{key}.description"))(
            func
        )

    return decorate


def choice(key: str, value: Any) -> app_commands.Choice[Any]:
    """A choice whose texts are the catalog's under ``key`` (the English one its default)."""
    return app_commands.Choice(name=locale_str(catalog(FALLBACK)[key], key=key), value=value)


#: The catalog key of the ``rated`` parameter every ``/<game> new`` shares.
RATED = "cmd.new.rated"


def game_options(engine: type[Engine]) -> Callable[[Callback], Callback]:
    """A ``/<game> new`` parameter for each option the engine declares, for a callback that takes
    them as ``**options``: type, range, choices and texts all come from the declaration and its
    catalog entries. They go before the shared ``rated`` parameter, whose texts come from here too."""
    declared = engine.declared_options

    def text(key: str) -> locale_str:
        return locale_str(catalog(FALLBACK)[key], key=key)

    def decorate(func: Callback) -> Callback:
        params = [p for p in inspect.signature(func).parameters.values() if p.kind is not p.VAR_KEYWORD]
        at = next((i for i, p in enumerate(params) if p.name == "rated"), len(params))
        added = [
            inspect.Parameter(
                o.name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=o.default, annotation=_type(o)
            )
            for o in declared
        ]
        target: Any = func  # a function object takes the attribute inspect.signature reads
        target.__signature__ = inspect.Signature([*params[:at], *added, *params[at:]])
        keys = {o.name: o.key for o in declared} | ({"rated": RATED} if at < len(params) else {})
        func = app_commands.describe(**{name: text(f"{key}.description") for name, key in keys.items()})(func)
        func = app_commands.rename(
            **{name: locale_str(name, key=f"{key}.name") for name, key in keys.items()}
        )(func)
        choices = {
            o.name: [app_commands.Choice(name=text(f"{o.key}.{o.token(v)}"), value=v) for v in o.choices]
            for o in declared
            if o.choices
        }
        return app_commands.choices(**choices)(func) if choices else func

    return decorate


def _type(option: Option) -> Any:
    """The parameter annotation discord.py reads: the kind, a range for bounded numbers."""
    kind: Any = option.kind
    if kind is int and not option.choices and (option.low is not None or option.high is not None):
        kind = app_commands.Range[int, option.low, option.high]
    return kind | None if option.default is None else kind
