"""Saizen ("Best") by deztec: a must-win trick-taking game for 2–6 players.

Rules: RULINGS.md §3 and seeds/saizen.ja.txt. Four rule cards (one per suit) carry five switches
each; the rule card of the led suit judges the trick. Three rounds; a round ends once any hand is
empty after a trick, then every player's whole set passes to the previous seat. 1 point per trick.

Action grammar (see ``legal_actions``):
- chip step, the seat in ``chip_turn``: ``chip:<suit>:<switch>`` (e.g. ``chip:S:strength``) moves
  that switch's chip, flipping the side in force; ``pass`` moves nothing.
- play, the seat to act: ``play:<card>`` (e.g. ``play:S12``, ``play:J0``); a leader playing a joker
  names the led suit: ``play:J0:S``. Playoff cards use ``play:<card>`` too.
"""

from __future__ import annotations

import random
from typing import Any

from bot.core.cards import SUITS, standard_deck
from bot.core.engine import Engine, Event, IllegalAction, copy_rng
from bot.core.options import Option
from cogs.saizen import tricks, views
from cogs.saizen.knowledge import redeal
from cogs.saizen.rules_core import (
    JOKER_CODES,
    PHASE_CHIPS,
    PHASE_OVER,
    PHASE_PLAY,
    PHASE_PLAYOFF,
    SIDES,
    SWITCHES,
    TrickRules,
    follow_options,
    follows,
    format_layout,
    is_joker,
    must_win_filter,
    parse_layout,
    sort_cards,
)
from cogs.saizen.rules_core import ROUNDS as ROUNDS  # re-exported: the AI reads it from here

OPTION_JOKERS = "jokers"
JOKER_CHOICES = (0, 1, 2)
DEFAULT_JOKERS = 0
OPTION_LAYOUT = "layout"
DEFAULT_LAYOUT = ""  # every first side (大 後 無視 MUST 必勝) in force, the ruling's layout
LAYOUT_EXAMPLES = ("", "*:playoff", "*:may+free", "S:low H:earlier+playoff D:may C:free")
ALL_CARDS = frozenset(standard_deck() + list(JOKER_CODES))


class SaizenEngine(Engine):
    game_id = "saizen"
    min_players = 2
    max_players = 6
    declared_options = (
        Option(OPTION_JOKERS, int, DEFAULT_JOKERS, "saizen.cmd.new.jokers", choices=JOKER_CHOICES),
        Option(
            OPTION_LAYOUT,
            str,
            DEFAULT_LAYOUT,
            "saizen.cmd.new.layout",
            suggestions=LAYOUT_EXAMPLES[1:],
            normalize=lambda text: format_layout(parse_layout(text)),
        ),
    )

    # ---- setup ----------------------------------------------------------------------------
    def setup(self) -> None:
        self.jokers: int = self.options[OPTION_JOKERS]
        second = parse_layout(self.options[OPTION_LAYOUT])
        self.layout = format_layout(second)
        # rule_cards[suit][switch] = index of the side in force (0 first-named, 1 second)
        self.sides: dict[str, dict[str, int]] = {
            s: {sw: int((s, sw) in second) for sw in SWITCHES} for s in SUITS
        }
        self.moved: dict[str, dict[str, bool]] = {s: {sw: False for sw in SWITCHES} for s in SUITS}
        self._rule_cache: dict[str, TrickRules] = {}
        n = self.num_players
        deck = standard_deck() + list(JOKER_CODES[: self.jokers])
        self.rng.shuffle(deck)
        self.deck = sort_cards(deck)
        self.start_player = self.rng.randrange(n)
        self.hands: list[list[str]] = [[] for _ in range(n)]
        for i, card in enumerate(deck):  # one at a time, from the start player
            self.hands[(self.start_player + i) % n].append(card)
        self.played: list[list[str]] = [[] for _ in range(n)]  # this round's played cards per seat
        self.face_up: list[list[str]] = [[] for _ in range(n)]  # cards played in tricks won (this round)
        self.face_down = [0] * n  # how many cards each seat played in tricks it did not win (this round)
        self.scores = [0] * n
        self.round_tricks: list[list[int]] = [[0] * n]
        self.round_no = 1
        self.leader = self.start_player
        self.phase = PHASE_CHIPS
        self.chip_queue: list[int] = []
        self.trick: dict[str, Any] | None = None
        self.closed_trick: tuple[dict[str, Any], int | None, int] | None = None  # see last_trick
        self.trick_no = 0  # tricks completed this round
        # Whole sets pass intact, so the deck stays split into n blocks all game (block b is seat b's
        # first hand; in round r seat s holds block s + r - 1). Public knowledge per block: the cards
        # seen played from it, and the suits it showed it lacks (failing to follow under MUST).
        self.block_seen: list[list[str]] = [[] for _ in range(n)]
        self.block_lacks = [""] * n
        self.start_round([])

    # ---- helpers --------------------------------------------------------------------------
    def rules_for(self, suit: str) -> TrickRules:
        rules = self._rule_cache.get(suit)
        if rules is None:  # the cache is replaced, never cleared, when a chip moves: clones share it
            rules = self._rule_cache[suit] = TrickRules({sw: SIDES[sw][self.sides[suit][sw]] for sw in SWITCHES})
        return rules

    def movable(self) -> list[tuple[str, str]]:
        return [(s, sw) for s in SUITS for sw in SWITCHES if not self.moved[s][sw]]

    def start_round(self, events: list[Event]) -> None:
        events.append(Event("round_started", {"round": self.round_no, "seat": self.leader}))
        n = self.num_players
        self.chip_queue = [(self.leader + k) % n for k in range(n)]
        self.phase = PHASE_CHIPS
        self._skip_chips_if_none_left(events)

    def _skip_chips_if_none_left(self, events: list[Event]) -> None:
        if self.phase == PHASE_CHIPS and (not self.chip_queue or not self.movable()):
            if self.chip_queue:
                events.append(Event("chips_exhausted", {"round": self.round_no}))
            self.chip_queue = []
            self.new_trick()

    def new_trick(self) -> None:
        self.phase = PHASE_PLAY
        self.trick = {"leader": self.leader, "led": None, "named": False, "plays": [], "playoffs": []}

    def playoff(self) -> dict[str, Any] | None:
        if self.trick and self.phase == PHASE_PLAYOFF:
            return self.trick["playoffs"][-1]
        return None

    def _current_seat(self) -> int | None:
        if self.phase == PHASE_CHIPS:
            return self.chip_queue[0]
        if self.phase == PHASE_PLAY:
            assert self.trick is not None
            return (self.trick["leader"] + len(self.trick["plays"])) % self.num_players
        playoff = self.playoff()
        if playoff is not None:
            return playoff["seats"][len(playoff["plays"])]
        return None

    def _playable(self, seat: int) -> tuple[list[str], str | None, list[str]]:
        """(follow options, must-win reason, playable cards) for the seat to play now."""
        hand = self.hands[seat]
        assert self.trick is not None
        playoff = self.playoff()
        if self.trick["led"] is None:  # leading: anything
            return list(hand), None, list(hand)
        rules = self.rules_for(self.trick["led"])
        if playoff is None:
            options = follow_options(hand, self.trick["led"], rules)
            played = [c for _, c in self.trick["plays"]]
            reason, cards = must_win_filter(options, played, self.trick["led"], rules)
        else:
            options = list(hand)
            played = [c for _, c in playoff["plays"]]
            reason, cards = must_win_filter(options, played, None, rules)
        return options, reason, cards

    # ---- what the seats see (views.py) ---------------------------------------------------------
    @property
    def last_trick(self) -> dict[str, Any] | None:
        """The latest finished trick of this round, as views and the record show it."""
        return views.last_trick(self)

    def public_view(self) -> dict[str, Any]:
        return views.public_view(self)

    def observation(self, seat: int) -> dict[str, Any]:
        return views.observation(self, seat)

    def hidden_from(self, seat: int | None) -> set[str]:
        return {c for s, hand in enumerate(self.hands) if s != seat for c in hand}

    # ---- contract -------------------------------------------------------------------------
    def to_act(self) -> list[int]:
        seat = self._current_seat()
        return [] if seat is None else [seat]

    def legal_actions(self, seat: int) -> list[str]:
        if seat not in self.to_act():
            return []
        if self.phase == PHASE_CHIPS:
            return ["pass"] + [f"chip:{s}:{sw}" for s, sw in self.movable()]
        _options, _reason, cards = self._playable(seat)
        leading = self.phase == PHASE_PLAY and self.trick is not None and not self.trick["plays"]
        actions: list[str] = []
        for card in sort_cards(cards):
            if leading and is_joker(card):
                actions.extend(f"play:{card}:{s}" for s in SUITS)
            else:
                actions.append(f"play:{card}")
        return actions

    def explain_illegal(self, seat: int, action: str) -> IllegalAction:
        parts = action.split(":")
        if self.phase == PHASE_CHIPS:
            if parts[0] == "play":
                return IllegalAction("wrong_phase", phase=self.phase)
            if len(parts) == 3 and parts[0] == "chip" and parts[1] in SUITS and parts[2] in SWITCHES:
                return IllegalAction("chip_already_moved", suit=parts[1], switch=parts[2])
            return IllegalAction("bad_action", action=action)
        if parts[0] in ("chip", "pass"):
            return IllegalAction("wrong_phase", phase=self.phase)
        if parts[0] != "play" or len(parts) not in (2, 3):
            return IllegalAction("bad_action", action=action)
        card = parts[1]
        if card not in ALL_CARDS:
            return IllegalAction("bad_action", action=action)
        if card not in self.hands[seat]:
            return IllegalAction("not_in_hand", card=card)
        assert self.trick is not None
        leading = self.phase == PHASE_PLAY and not self.trick["plays"]
        if len(parts) == 3:
            if not (leading and is_joker(card)) or parts[2] not in SUITS:
                return IllegalAction("bad_action", action=action)
        elif leading and is_joker(card):
            return IllegalAction("joker_names_suit", card=card)
        options, reason, cards = self._playable(seat)
        if card not in options:
            led = self.trick["led"]
            jokers = [c for c in options if is_joker(c)]
            if jokers and not any(c[0] == led for c in options):
                return IllegalAction("must_follow_joker", suit=led, card=jokers[0])
            return IllegalAction("must_follow", suit=led)
        if reason is not None and card not in cards:
            cards = sort_cards(cards)
            return IllegalAction(reason, cards=cards, card=cards[0])
        return IllegalAction("illegal_action", action=action)

    def _apply(self, seat: int, action: str) -> list[Event]:
        events = self._act(seat, action, report=True)
        # A trick's event carries the whole trick, so the record draws it the same whenever it
        # reads the log (a round's last trick is cleared from the table once the round ends).
        ended = next((e.data["last_trick"] for e in events if e.code == "round_ended"), None)
        for event in events:
            if event.code in ("trick_won", "trick_no_winner"):
                event.data["record"] = ended or self.last_trick
        return events

    def apply_fast(self, seat: int, action: str) -> None:
        self._act(seat, action, report=False)
        self.history.append((seat, action))

    def _act(self, seat: int, action: str, report: bool) -> list[Event]:
        """``report`` False (search) skips the per-card events; the state is the same."""
        events: list[Event] = []
        if self.phase == PHASE_CHIPS:
            self.chip_queue.pop(0)
            if action == "pass":
                events.append(Event("chip_passed", {"seat": seat}))
            else:
                _, suit, switch = action.split(":")
                self.moved[suit][switch] = True
                self.sides[suit][switch] = 1 - self.sides[suit][switch]
                self._rule_cache = {}
                side = SIDES[switch][self.sides[suit][switch]]
                events.append(
                    Event("chip_moved", {"seat": seat, "suit": suit, "switch": switch, "side": side})
                )
            if not self.chip_queue:
                self.new_trick()
            else:
                self._skip_chips_if_none_left(events)
            return events
        parts = action.split(":")
        card = parts[1]
        assert self.trick is not None
        self.hands[seat].remove(card)
        self.played[seat].append(card)
        block = (seat + self.round_no - 1) % self.num_players
        self.block_seen[block].append(card)
        playoff = self.playoff()
        if playoff is None:
            led = self.trick["led"]
            if led is not None and not follows(card, led) and led not in self.block_lacks[block]:
                if self.rules_for(led).must_follow:
                    self.block_lacks[block] += led + "J"
            if not self.trick["plays"]:
                self.trick["led"] = parts[2] if len(parts) == 3 else card[0]
                self.trick["named"] = len(parts) == 3
            self.trick["plays"].append((seat, card))
            if report:
                data: dict[str, Any] = {"seat": seat, "card": card, "playoff": 0}
                if len(parts) == 3:
                    data["suit"] = parts[2]
                events.append(Event("card_played", data))
            if len(self.trick["plays"]) == self.num_players:
                tricks.resolve_main(self, events)
        else:
            playoff["plays"].append((seat, card))
            if report:
                level = len(self.trick["playoffs"])
                events.append(Event("card_played", {"seat": seat, "card": card, "playoff": level}))
            if len(playoff["plays"]) == len(playoff["seats"]):
                tricks.resolve_playoff_round(self, events)
        return events

    # ---- search (computer players) ------------------------------------------------------------
    def clone(self) -> SaizenEngine:
        other = self._copy()
        other.rng = copy_rng(self.rng)
        return other

    def _copy(self) -> SaizenEngine:
        """Every mutable field copied except ``rng`` (the caller copies or replaces it)."""
        other = self.copy_state()
        other.sides = {s: dict(d) for s, d in self.sides.items()}
        other.moved = {s: dict(d) for s, d in self.moved.items()}
        other.hands = [list(h) for h in self.hands]
        other.played = [list(p) for p in self.played]
        other.face_up = [list(f) for f in self.face_up]
        other.face_down = list(self.face_down)
        other.scores = list(self.scores)
        other.round_tricks = [list(r) for r in self.round_tricks]
        other.chip_queue = list(self.chip_queue)
        other.block_seen = [list(b) for b in self.block_seen]
        other.block_lacks = list(self.block_lacks)
        trick = self.trick
        if trick is not None:
            other.trick = {
                **trick,
                "plays": list(trick["plays"]),
                "playoffs": [{**po, "plays": list(po["plays"])} for po in trick["playoffs"]],
            }
        return other

    def determinize(self, seat: int, rng: random.Random) -> SaizenEngine:
        """Hands ``seat`` has not held are redealt from the cards it has not seen, keeping their
        sizes, the cards seen played from them and the suits they showed they lack. Nothing random
        happens after the deal; the copy still gets a seed of its own (every move is public, so the
        log stays whole)."""
        other = self.blind(self._copy(), seat, rng)
        for holder, hand in redeal(self, seat, rng).items():
            other.hands[holder] = sort_cards(hand)
        return other

    def is_terminal(self) -> bool:
        return self.phase == PHASE_OVER

    def results(self) -> dict[str, Any]:
        return {
            "ranks": tricks.ranks(self),
            "scores": list(self.scores),
            "round_tricks": [list(r) for r in self.round_tricks],
        }

    @property
    def deal_number(self) -> int:
        return self.round_no

    @classmethod
    def sample_configs(cls) -> list[tuple[int, dict[str, Any]]]:
        configs: list[tuple[int, dict[str, Any]]] = [
            (n, {OPTION_JOKERS: j})
            for n in range(cls.min_players, cls.max_players + 1)
            for j in JOKER_CHOICES
        ]
        for n, layout in zip((2, 5, 3), LAYOUT_EXAMPLES[1:], strict=True):
            configs.append((n, {OPTION_JOKERS: 2, OPTION_LAYOUT: layout}))
        return configs
