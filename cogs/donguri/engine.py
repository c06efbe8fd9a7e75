"""Donguri to Yamaneko rules (RULINGS §2).

Actions: ``play:<card>`` by the seat to act. Options: ``length`` = ``standard`` | ``short``.
"""

from __future__ import annotations

import random
from typing import Any

from bot.ai.deal import deal
from bot.core.cards import SUITS, rank_of, standard_deck, suit_of
from bot.core.engine import Engine, Event, IllegalAction, copy_rng
from bot.core.options import Option

LENGTHS = ("standard", "short")
DEALS = {3: {"standard": 9, "short": 6}, 4: {"standard": 8, "short": 4}, 5: {"standard": 5, "short": 5}}
HAND_SIZE = {3: 12, 4: 12, 5: 16}
POINTS = {
    3: {6: 3, 11: 3, 5: 2, 12: 2},
    4: {5: 2, 6: 2, 11: 2, 12: 2},
    5: {4: 2, 5: 2, 12: 2, 13: 2},
}


_ACTIONS = {f"{s}{r}": f"play:{s}{r}" for s in SUITS + "X" for r in range(1, 17)}
_SUIT_ORDER = {s: i for i, s in enumerate(SUITS + "X")}
_STRENGTHS: dict[int, dict[str, int]] = {}


def _strengths(players: int) -> dict[str, int]:
    """Every card's rank strength for a player count, built once (the hot path of search)."""
    table = _STRENGTHS.get(players)
    if table is None:
        table = _STRENGTHS[players] = {
            f"{s}{r}": 14 if players < 5 and r == 1 else r for s in SUITS + "X" for r in range(1, 17)
        }
    return table


def strength(card: str, players: int) -> int:
    """Rank strength: A is high (14) with the standard deck; the 5-player deck runs 1..16."""
    return _strengths(players)[card]


def is_acorn(card: str, players: int) -> bool:
    return strength(card, players) <= 8


_POINTS: dict[int, dict[str, int]] = {}


def _points(players: int) -> dict[str, int]:
    table = _POINTS.get(players)
    if table is None:
        table = _POINTS[players] = {c: POINTS[players].get(v, 1) for c, v in _strengths(players).items()}
    return table


def card_points(card: str, players: int) -> int:
    return _points(players)[card]


def trick_winner(plays: list[tuple[int, str]], players: int) -> tuple[int, str, list[int]]:
    """(winning seat, majority "acorn"/"wildcat", positions counted for the majority)."""
    table = _strengths(players)
    counted = [i for i in range(len(plays)) if not (players == 4 and i == 1)]
    acorns = sum(table[plays[i][1]] <= 8 for i in counted)
    majority = "acorn" if acorns * 2 > len(counted) else "wildcat"
    sign = -1 if majority == "acorn" else 1
    # min() keeps the earliest of equal keys, so the earlier-played card wins a tie of ranks.
    best = min(range(len(plays)), key=lambda i: sign * table[plays[i][1]])
    return plays[best][0], majority, counted


class DonguriEngine(Engine):
    game_id = "donguri"
    min_players = 3
    max_players = 5
    declared_options = (Option("length", str, "standard", "donguri.cmd.new.length", choices=LENGTHS),)

    @classmethod
    def sample_configs(cls) -> list[tuple[int, dict[str, Any]]]:
        return [(n, {"length": length}) for n in (3, 4, 5) for length in LENGTHS]

    def setup(self) -> None:
        n = self.num_players
        length = self.options["length"]
        if n == 3:
            self.removed_suit: str | None = self.rng.choice(SUITS)
            suits = [s for s in SUITS if s != self.removed_suit]
            self.deck = [c for c in standard_deck("".join(suits)) if rank_of(c) != 2]
        elif n == 4:
            self.removed_suit = None
            self.deck = [c for c in standard_deck() if rank_of(c) != 2]
        else:
            self.removed_suit = None
            self.deck = standard_deck(SUITS + "X", range(1, 17))
        self._order = {c: i for i, c in enumerate(sorted(_strengths(n), key=self._sort_key))}
        self.deals_total = DEALS[n][length]
        self.dealer = self.rng.randrange(n)
        self.deal_no = 0
        self.penalties = [0] * n
        self.deal_log: list[dict[str, Any]] = []
        self.finished = False
        self._deal()

    def _deal(self) -> None:
        n = self.num_players
        self.deal_no += 1
        cards = list(self.deck)
        self.rng.shuffle(cards)
        size = HAND_SIZE[n]
        self.hands = [self._sorted(cards[i * size : (i + 1) * size]) for i in range(n)]
        self.taken: list[list[str]] = [[] for _ in range(n)]
        self.tricks = [0] * n
        self.trick: list[tuple[int, str]] = []
        self._last: tuple[list[tuple[int, str]], int, str, list[int]] | None = None  # see last_trick
        self.voids = [""] * n  # suits a seat failed to follow this deal: public knowledge
        self.leader = (self.dealer + 1) % n
        self.turn = self.leader

    def _sort_key(self, card: str) -> tuple[int, int]:
        return _SUIT_ORDER[card[0]], _strengths(self.num_players)[card]

    def _sorted(self, cards: list[str]) -> list[str]:
        order = self._order
        return sorted(cards, key=order.__getitem__)

    @property
    def deal_number(self) -> int:
        return self.deal_no

    # ---- search (computer players) ------------------------------------------------------------
    def clone(self) -> DonguriEngine:
        other = self._copy()
        other.rng = copy_rng(self.rng)
        return other

    def _copy(self) -> DonguriEngine:
        """Every mutable field copied except ``rng`` (shared: the caller replaces or copies it)."""
        other = self.copy_state()
        other.penalties = list(self.penalties)
        other.deal_log = list(self.deal_log)
        other.hands = [list(h) for h in self.hands]
        other.taken = [list(t) for t in self.taken]
        other.tricks = list(self.tricks)
        other.trick = list(self.trick)
        other.voids = list(self.voids)
        return other

    def determinize(self, seat: int, rng: random.Random) -> DonguriEngine:
        """Other hands redealt from the cards ``seat`` has not seen (every card played this deal was
        seen), keeping their sizes and the suits they showed they lack; later deals come from a seed
        of the copy's own (every move is public, so the log stays whole)."""
        other = self.blind(self._copy(), seat, rng)
        seen = set(self.hands[seat]).union(*self.taken, (c for _, c in self.trick))
        unseen = [c for c in self.deck if c not in seen]
        others = [s for s in range(self.num_players) if s != seat]
        dealt = deal(unseen, [len(self.hands[s]) for s in others], [self.voids[s] for s in others], rng)
        for s, cards in zip(others, dealt, strict=True):
            other.hands[s] = self._sorted(cards)
        return other

    # ---- contract ---------------------------------------------------------------------------
    def to_act(self) -> list[int]:
        return [] if self.finished else [self.turn]

    def legal_actions(self, seat: int) -> list[str]:
        if self.finished or seat != self.turn:
            return []
        return [_ACTIONS[c] for c in self._playable(seat)]

    def _playable(self, seat: int) -> list[str]:
        hand = self.hands[seat]
        if self.trick:
            led = self.trick[0][1][0]
            follow = [c for c in hand if c[0] == led]
            if follow:
                return follow
        return list(hand)

    def explain_illegal(self, seat: int, action: str) -> IllegalAction:
        card = action.removeprefix("play:")
        if not action.startswith("play:") or card not in _ACTIONS:
            return IllegalAction("unknown_action")  # not a card of this game: nothing to name
        if card not in self.hands[seat]:
            return IllegalAction("not_in_hand", card=card)
        return IllegalAction("must_follow", suit=suit_of(self.trick[0][1]))

    def _apply(self, seat: int, action: str) -> list[Event]:
        return self._play(seat, action.removeprefix("play:"), [])

    def apply_fast(self, seat: int, action: str) -> None:
        self._play(seat, action[5:], None)
        self.history.append((seat, action))

    def _play(self, seat: int, card: str, events: list[Event] | None) -> list[Event]:
        """Play a legal card; ``events`` None (search) skips building the events."""
        n = self.num_players
        self.hands[seat].remove(card)
        if self.trick:
            led = self.trick[0][1][0]
            if card[0] != led and led not in self.voids[seat]:
                self.voids[seat] += led
        self.trick.append((seat, card))
        if len(self.trick) < n:
            self.turn = (seat + 1) % n
            return events or []
        winner, majority, counted = trick_winner(self.trick, n)
        cards = [c for _, c in self.trick]
        self.taken[winner].extend(cards)
        self.tricks[winner] += 1
        self._last = (self.trick, winner, majority, counted)
        self.trick = []
        self.leader = self.turn = winner
        if events is None:
            if not self.hands[winner]:
                self._score_deal()
            return []
        closed = self.last_trick
        assert closed is not None  # the trick just closed
        events.append(Event("trick_won", {**closed, "number": sum(self.tricks)}))
        if not self.hands[winner]:
            events.append(self._score_deal())
        return events

    @property
    def last_trick(self) -> dict[str, Any] | None:
        """The latest completed trick of this deal, as views and events show it."""
        if self._last is None:
            return None
        plays, winner, majority, counted = self._last
        return {
            "plays": [{"seat": s, "card": c} for s, c in plays],
            "winner": winner,
            "majority": majority,
            "excluded": [plays[i][0] for i in range(len(plays)) if i not in counted],
        }

    def _score_deal(self) -> Event:
        n = self.num_players
        value = _points(n).__getitem__
        points = [sum(map(value, taken)) for taken in self.taken]
        top = max(points)
        penalty = [top - p for p in points]
        self.penalties = [a + b for a, b in zip(self.penalties, penalty, strict=True)]
        record = {"deal": self.deal_no, "dealer": self.dealer, "points": points, "penalties": penalty}
        self.deal_log.append(record)
        event = Event("deal_scored", {**record, "totals": list(self.penalties), "tricks": list(self.tricks)})
        if self.deal_no >= self.deals_total:
            self.finished = True
        else:
            self.dealer = (self.dealer + 1) % n
            self._deal()
        return event

    def public_view(self) -> dict[str, Any]:
        return {
            "players": self.num_players,
            "deal": self.deal_no,
            "deals_total": self.deals_total,
            "dealer": self.dealer,
            "leader": self.leader,
            "turn": None if self.finished else self.turn,
            "removed_suit": self.removed_suit,
            "trick": [{"seat": s, "card": c} for s, c in self.trick],
            "last_trick": self.last_trick,
            "tricks": list(self.tricks),
            "hand_counts": [len(h) for h in self.hands],
            "penalties": list(self.penalties),
            "deal_log": list(self.deal_log),
            "finished": self.finished,
        }

    def observation(self, seat: int) -> dict[str, Any]:
        view = self.public_view()
        view["seat"] = seat
        view["hand"] = list(self.hands[seat])
        view["taken_points"] = sum(card_points(c, self.num_players) for c in self.taken[seat])
        return view

    def is_terminal(self) -> bool:
        return self.finished

    def results(self) -> dict[str, Any]:
        totals = self.penalties
        ranks = [1 + sum(other < mine for other in totals) for mine in totals]
        return {"ranks": ranks, "scores": list(totals), "deals": list(self.deal_log)}

    def hidden_from(self, seat: int | None) -> set[str]:
        return {c for s, hand in enumerate(self.hands) if s != seat for c in hand}
