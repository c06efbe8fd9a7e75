"""What a game plugs into the platform: its engine and how to draw it.

A game package registers one ``GameUI`` when its cog loads. The platform turns ``Prompt`` choices
into buttons or a select menu and ``TableView`` into an embed (plus an optional PNG), so games
never build lobby, hand-delivery or persistence code of their own.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, ClassVar

from bot.core import cards, results
from bot.core.engine import Engine, Event
from bot.core.i18n import Lang
from bot.core.options import Option


@dataclass
class Choice:
    """One button in a prompt. ``action`` None means shown but not playable now."""

    action: str | None
    label: str
    style: str = "primary"
    emoji: str | None = None


@dataclass
class Menu:
    """A select menu of choices (up to 25), for moves too many for buttons."""

    placeholder: str
    choices: list[Choice] = field(default_factory=list)


@dataclass
class Prompt:
    """Buttons for ``choices`` (up to 20; more become one select) and one select per ``menus`` entry;
    ``image`` a picture shown under the text (a board with the seat's own moves marked)."""

    text: str
    choices: list[Choice] = field(default_factory=list)
    menus: list[Menu] = field(default_factory=list)
    image: bytes | None = None


@dataclass
class TableView:
    """The public table. ``legend`` holds the catalog key of every mark the view drew (each once):
    the platform puts their short texts in one line under it, and the table's **?** button explains
    them at length (``<key>.short`` and ``<key>.long``). The line is the embed's footer, where
    Discord shows no markdown: a short text says "struck-through" in words."""

    title: str
    description: str = ""
    fields: list[tuple[str, str]] = field(default_factory=list)
    footer: str | None = None
    image: bytes | None = None
    colour: int = 0x2F7D4F
    legend: list[str] = field(default_factory=list)

    def mark(self, key: str) -> None:
        """Note that the view uses the mark ``key``, so the legend explains it (once)."""
        if key not in self.legend:
            self.legend.append(key)


class Names(list[str]):
    """The seats' names as a game draws them: every line names a seat by its short name (the items,
    "alice", "🤖 Computer 1"). The seat list, once per table, names it by its ``labels`` entry, which
    also says what is said only once (a computer's level, who took over whose seat)."""

    def __init__(self, names: Iterable[str], labels: Iterable[str] | None = None) -> None:
        super().__init__(names)
        self.labels = list(self) if labels is None else list(labels)


def seat_label(names: Sequence[str], seat: int) -> str:
    """A seat as the table's seat list names it (its plain name where no label was given)."""
    return names.labels[seat] if isinstance(names, Names) else names[seat]


class GameUI:
    game_id: ClassVar[str]
    engine: ClassVar[type[Engine]]
    #: "thread": the table runs in a thread under its lobby message; "channel": in a text channel of
    #: its own (needed when who may speak is restricted, as thread permissions are not per member).
    channel_mode: ClassVar[str] = "thread"

    def option_summary(self, options: dict[str, Any], size: int, tr: Lang) -> str:
        """The lobby's and the sign-up's lines for the table options, one per declared option."""
        declared = self.engine.declared_options
        return "\n".join(self.option_line(o, options.get(o.name, o.default), tr) for o in declared)

    def option_choices(self, typed: str, taken: Collection[str], tr: Lang) -> list[tuple[str, str]]:
        """(words, ``name=value``) for every option value worth offering while a member types
        ``typed``, leaving out the options ``taken`` elsewhere. Text already holding a picked
        ``name=value`` offers that option's values again."""
        name, sep, rest = typed.partition("=")
        found = []
        for option in self.engine.declared_options:
            if option.name in taken or (sep and name.strip() != option.name):
                continue
            line = partial(self.option_line, option, tr=tr)
            for value in option.offers(rest if sep else typed, line):
                found.append((line(value), f"{option.name}={option.token(value)}"))
        return found

    def option_line(self, option: Option, value: Any, tr: Lang) -> str:
        """One option and its value in words, like "Length: short (…)" (its catalog ``summary``)."""
        return tr(f"{option.key}.summary", value=self.option_label(option, value, tr), raw=value)

    def option_label(self, option: Option, value: Any, tr: Lang) -> str:
        """A value in words: its own catalog entry, else the option's ``value`` pattern, else as is.
        A game overrides this for a value that needs drawing (Saizen's starting layout)."""
        own = f"{option.key}.{option.token(value)}"
        if tr.has(own):
            return tr(own)
        if tr.has(f"{option.key}.value"):
            return tr(f"{option.key}.value", value=value, count=value)
        return option.token(value)

    def table_view(self, public: dict[str, Any], names: list[str], tr: Lang) -> TableView:
        """Draw the public table from ``engine.public_view()`` only, so nothing hidden can leak."""
        raise NotImplementedError

    def prompt(self, engine: Engine, seat: int, names: list[str], tr: Lang) -> Prompt:
        """The private prompt of one seat: its hand and choices (shown by DM or ephemerally)."""
        raise NotImplementedError

    def onlooker(self, engine: Engine, seat: int, names: list[str], tr: Lang) -> Prompt:
        """One seat's hand as someone looking on sees it in a finished game's replay: in the third
        person, naming the seat (its DM speaks to its player: "Your hand"), its cards or choices,
        the ones it could play marked, nothing to press. It shows what the seat holds: never for a
        game in play. A game says it in its own words; by default, the seat's choices."""
        prompt = self.prompt(engine, seat, names, tr)
        return Prompt(tr("onlooker.choices", player=names[seat]), prompt.choices, prompt.menus)

    @staticmethod
    def held(engine: Engine, seat: int, cards: list[str], labels: list[str], names: list[str], tr: Lang) -> Prompt:
        """``onlooker`` for a hand of ``cards`` (``labels`` as the game writes them): how many the
        seat holds, then each, marked where ``play:<card>`` is a move it may make now."""
        legal = set(engine.legal_actions(seat))
        choices = [Choice(f"play:{c}" if f"play:{c}" in legal else None, text) for c, text in zip(cards, labels, strict=True)]
        key = "onlooker.hand" if cards else "onlooker.empty"
        return Prompt(tr(key, player=names[seat], count=len(cards)), choices)

    def greyed(self, engine: Engine, seat: int, names: list[str], tr: Lang) -> list[str]:
        """Why the seat's greyed choices cannot be played now, each reason once ([] when nothing
        is greyed): the table's **?** tells the member who asks, privately."""
        return []

    def record(self, events: list[Event], public: dict[str, Any], names: list[str], tr: Lang) -> list[str]:
        """Lines for the public record (one per completed trick, deal ...)."""
        return []

    def record_open(self, events: list[Event]) -> int:
        """How many of the last ``events`` wait for later events to make their lines (an Arsène
        trick won waits for who takes it), else 0. The platform draws them once those come, so a
        line reads the same whether the moves reach the record one by one or together. In return
        ``record(a + b, ...)`` is ``record(a, ...) + record(b, ...)`` whenever ``a`` leaves nothing
        open, and lines never depend on ``public`` while the game goes on."""
        return 0

    def begins_deal(self, event: Event) -> bool:
        """Whether ``event`` opens the next deal (Arsène's "Deal 2: bob deals"), though the move that
        made it ended the last one: its line and those after it belong to the new deal's record
        message, not to the end of the old one's."""
        return False

    def score_text(self, score: int, tr: Lang) -> str:
        """A final score in words ("13 chips", "penalty 51"), for the result of a finished table."""
        return tr("result.points", count=score)

    def result_rows(self, result: dict[str, Any], names: list[str], tr: Lang) -> list[results.Row]:
        """The lines of the final result, best first (one per seat; teams may share a line)."""
        return results.seat_results(self, result, names, tr)

    def end_lines(self, result: dict[str, Any], seat: int, names: list[str], tr: Lang) -> list[str]:
        """A player's own result in their DM once the game is over: place, score, who won (a game
        of teams names the winning team)."""
        return results.end_lines(self, result, seat, names, tr)

    def speakers(self, public: dict[str, Any]) -> set[int] | None:
        """Seats allowed to write in a "channel" table now; None means everyone seated."""
        return None

    def timeout_action(self, engine: Engine, seat: int) -> str | None:
        """The move made for a player whose clock ran out; None: a random legal one."""
        return None

    def public_choices(self, public: dict[str, Any], names: list[str], tr: Lang) -> list[Choice]:
        """Buttons on the public table message (e.g. YES / NO for the asked player only)."""
        return []

    def rules(self, tr: Lang) -> list[tuple[str, str]]:
        """The rules in our own words, as (heading, text) sections."""
        prefix = f"{self.game_id}.rules"
        return [(tr(f"{prefix}.{k}.title"), tr(f"{prefix}.{k}.text")) for k in self.rules_sections]

    rules_sections: ClassVar[tuple[str, ...]] = ()

    def format_params(self, params: dict[str, Any], names: list[str]) -> dict[str, Any]:
        """Make engine data readable in messages: cards as labels, seats as names. Never fails,
        whatever a refusal carries (it may echo what a client sent)."""
        out = dict(params)
        for key, value in params.items():
            if key in ("card",) and isinstance(value, str):
                out[key] = cards.label(value)
            elif key in ("cards",) and isinstance(value, list):
                out[key] = " ".join(cards.label(c) if isinstance(c, str) else "?" for c in value)
            elif key == "suit" and isinstance(value, str):
                out[key] = cards.SUIT_SYMBOLS.get(value, value)
            elif key in ("seat", "target", "winner", "player") and isinstance(value, int):
                out[key] = names[value] if 0 <= value < len(names) else str(value)
        return out

    def refusal(self, engine: Engine, seat: int, action: str, names: list[str], tr: Lang) -> str:
        """Why the engine refuses ``action`` for ``seat``, in words (``<game>.error.<code>``)."""
        why = engine.explain_illegal(seat, action)
        return tr(f"{self.game_id}.error.{why.code}", **self.format_params(why.params, names))

    def refusals(
        self, engine: Engine, seat: int, actions: Iterable[str], names: list[str], tr: Lang
    ) -> list[str]:
        """The ``refusal`` of each action, each reason once: why the greyed cards are greyed."""
        return list(dict.fromkeys(self.refusal(engine, seat, action, names, tr) for action in actions))


def stopped(public: dict[str, Any]) -> bool:
    """True when a clock ended the table before the game did: nobody is to play any more, so a game
    draws its table as over (the platform adds ``stopped`` to the public view it hands over)."""
    return bool(public.get("stopped"))


REGISTRY: dict[str, GameUI] = {}


def register(ui: GameUI) -> None:
    REGISTRY[ui.game_id] = ui
