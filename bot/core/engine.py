"""The contract every game engine follows, shaped like OpenSpiel's.

Engines are pure: no discord, no database, no clock, no global random. A game is fully
described by (num_players, options, seed, action log), so the platform stores only that and
rebuilds an engine by replaying the log. Actions are short strings (they travel inside button
custom ids, at most 60 characters); engines return codes and data, never prose.

A determinization (what a computer player is handed) is a game state but not a replayable game: its
seed is a fresh one and its log is the past as its seat saw it, so neither leads back to the real
deal or to the deals still to come.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Self, TypeVar

if TYPE_CHECKING:
    from bot.core.options import Option


Copy = TypeVar("Copy", bound="Engine")


def copy_rng(rng: random.Random) -> random.Random:
    """An independent generator in the same state (made without seeding it first: searches copy
    thousands)."""
    other = random.Random.__new__(random.Random)
    other.setstate(rng.getstate())
    return other


class IllegalAction(Exception):
    """An action the rules forbid; ``code`` is a translation key suffix, ``params`` its data."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


@dataclass
class Event:
    """Something that happened, for the public record (``trick_won``, ``deal_scored`` ...)."""

    code: str
    data: dict[str, Any] = field(default_factory=dict)


class Engine:
    """Base class. Subclasses implement the abstract hooks below.

    Required: ``setup``, ``to_act``, ``legal_actions``, ``_apply``, ``observation``,
    ``public_view``, ``is_terminal``, ``results``, ``hidden_from``.
    Optional: ``explain_illegal`` for a precise reason why an action is refused.
    """

    game_id: ClassVar[str] = ""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    #: The table options (``bot.core.options.Option``): checked here before ``setup``, and the
    #: source of the ``/new`` parameters, the lobby summary and the tournament choices.
    declared_options: ClassVar[tuple[Option, ...]] = ()
    #: Action kinds (the text before the first ``:``) that only the acting seat sees, such as a card
    #: given face down: in ``seen_history`` another seat sees the kind alone (``dummy:?``).
    secret_kinds: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, num_players: int, seed: int, options: dict[str, Any] | None = None) -> None:
        if not self.min_players <= num_players <= self.max_players:
            raise IllegalAction("bad_player_count", n=num_players, count=num_players)
        self.num_players = num_players
        self.seed = seed
        self.options: dict[str, Any] = self.check_options(options or {})
        self.rng = random.Random(seed)
        self.history: list[tuple[int, str]] = []
        self.setup()

    # ---- hooks for subclasses -------------------------------------------------------------
    def setup(self) -> None:
        raise NotImplementedError

    def to_act(self) -> list[int]:
        """Seats that must act now: one seat, several for simultaneous secret choices, [] at the end."""
        raise NotImplementedError

    def legal_actions(self, seat: int) -> list[str]:
        """Every action ``seat`` may take now ([] when it is not to act)."""
        raise NotImplementedError

    def _apply(self, seat: int, action: str) -> list[Event]:
        """Apply an action already known to be legal."""
        raise NotImplementedError

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may know: public view plus its own private information. JSON-able."""
        raise NotImplementedError

    def public_view(self) -> dict[str, Any]:
        """What a spectator may know. JSON-able."""
        raise NotImplementedError

    def is_terminal(self) -> bool:
        raise NotImplementedError

    def results(self) -> dict[str, Any]:
        """At the end: ``{"ranks": [rank per seat, 1 = best, ties share], "scores": [...]}``."""
        raise NotImplementedError

    def hidden_from(self, seat: int | None) -> set[str]:
        """Item codes (cards ...) that ``seat`` must not be able to see; ``None`` = a spectator.

        The conformance test checks no such code appears in that seat's observation.
        """
        raise NotImplementedError

    def explain_illegal(self, seat: int, action: str) -> IllegalAction:
        """Why ``action`` is not legal for ``seat`` now. Override for game-specific reasons."""
        return IllegalAction("illegal_action", action=action)

    # ---- optional information for the platform --------------------------------------------
    @classmethod
    def check_options(cls, options: Mapping[str, Any]) -> dict[str, Any]:
        """Every declared option with its legal value, defaults filled; ``bad_option`` otherwise."""
        known = {option.name for option in cls.declared_options}
        for name, value in options.items():
            if name not in known:
                raise IllegalAction("bad_option", option=name, value=value)
        return {o.name: o.check(options.get(o.name, o.default)) for o in cls.declared_options}

    @classmethod
    def teams(cls, num_players: int) -> list[list[int]] | None:
        """Seats that play as one side (partners share a result); None when everyone plays alone."""
        return None

    @classmethod
    def sample_configs(cls) -> list[tuple[int, dict[str, Any]]]:
        """(num_players, options) pairs the conformance test plays through: cover every variant."""
        return [(n, {}) for n in range(cls.min_players, cls.max_players + 1)]

    @property
    def deal_number(self) -> int:
        """Changes when a new hand is dealt; the platform sends a new DM per deal."""
        return 0

    # ---- provided ---------------------------------------------------------------------------
    def apply(self, seat: int, action: str) -> list[Event]:
        """Apply ``action`` for ``seat``; an illegal one raises ``IllegalAction`` and changes nothing."""
        if self.is_terminal():
            raise IllegalAction("game_over")
        if seat not in self.to_act():
            raise IllegalAction("not_your_turn")
        if action not in self.legal_actions(seat):
            raise self.explain_illegal(seat, action)
        events = self._apply(seat, action)
        self.history.append((seat, action))
        return events

    # ---- search (computer players) -----------------------------------------------------------
    def clone(self) -> Engine:
        """An independent copy for search. Engines override this with a cheaper copy when it pays."""
        return copy.deepcopy(self)

    def copy_state(self) -> Self:
        """A copy that shares with this game no list or dict of the base class (options, log) but
        the generator: ``clone`` copies that too, ``determinize`` replaces it (``blind``). An engine
        copies the containers of its own state on top."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.options = dict(self.options)
        other.history = list(self.history)
        return other

    def determinize(self, seat: int, rng: random.Random) -> Engine:
        """A full state consistent with everything ``seat`` has seen, like OpenSpiel's
        ``resample_from_infostate``: unseen cards are dealt at random (respecting pile sizes and known
        voids), and the future (later deals, ``self.rng``) is resampled so it stays unknown. It must
        read nothing hidden from ``seat``: two states that ``seat`` cannot tell apart give the same
        result for the same ``rng``. Perfect-information games return a clone. Every implementation
        ends with ``blind`` (its seed, generator and log), so that replaying the copy's seed and log
        cannot rebuild the real game."""
        raise NotImplementedError

    def seen_history(self, seat: int) -> list[tuple[int, str]]:
        """The action log as ``seat`` saw it: another seat's action of a ``secret_kinds`` kind keeps
        only its kind (``dummy:?``). Engines whose secrecy depends on more than the kind override it."""
        secret = self.secret_kinds
        if not secret:
            return list(self.history)
        # A search determinizes the same position thousands of times: the redacted log is kept.
        cached = self.__dict__.get("_seen_cache")
        if cached is None or cached[0] != seat or cached[1] != len(self.history):
            seen = []
            for s, action in self.history:
                kind = action.partition(":")[0]
                seen.append((s, kind + ":?") if s != seat and kind in secret else (s, action))
            cached = self._seen_cache = (seat, len(self.history), seen)
        return list(cached[2])

    def blind(self, other: Copy, seat: int, rng: random.Random) -> Copy:
        """Make ``other``, a determinization for ``seat``, forget what ``seat`` does not know: a seed
        and generator of its own drawn from ``rng`` (later deals come from them), and the log as
        ``seat`` saw it (``seen_history``). Returns ``other``."""
        other.seed = rng.getrandbits(64)
        other.rng = random.Random(other.seed)
        other.__dict__.pop("_seen_cache", None)  # copied from this game: redacted for another seat, maybe
        other.history = self.seen_history(seat)
        return other

    def apply_fast(self, seat: int, action: str) -> None:
        """Apply a move known to be legal, skipping validation: the search path."""
        self._apply(seat, action)
        self.history.append((seat, action))

    @classmethod
    def replay(
        cls, num_players: int, seed: int, options: dict[str, Any] | None, log: Iterable[tuple[int, str]]
    ) -> Engine:
        engine = cls(num_players, seed, options)
        for seat, action in log:
            engine.apply(seat, action)
        return engine
