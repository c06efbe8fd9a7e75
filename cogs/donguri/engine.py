"""Donguri to Yamaneko rules (RULINGS §2).

Actions: ``play:<card>`` by the seat to act. Options: ``length`` = ``standard`` | ``short``.
"""

from __future__ import annotations

from typing import Any

from bot.core.cards import SUITS, rank_of, standard_deck, suit_of
from bot.core.engine import Engine, Event, IllegalAction
from bot.core.options import Option

LENGTHS = ("standard", "short")
DEALS = {3: {"standard": 9, "short": 6}, 4: {"standard": 8, "short": 4}, 5: {"standard": 5, "short": 5}}
HAND_SIZE = {3: 12, 4: 12, 5: 16}
POINTS = {
    3: {6: 3, 11: 3, 5: 2, 12: 2},
    4: {5: 2, 6: 2, 11: 2, 12: 2},
    5: {4: 2, 5: 2, 12: 2, 13: 2},
}


def strength(card: str, players: int) -> int:
    """Rank strength: A is high (14) with the standard deck; the 5-player deck runs 1..16."""
    rank = rank_of(card)
    return 14 if players < 5 and rank == 1 else rank


def is_acorn(card: str, players: int) -> bool:
    return strength(card, players) <= 8


def card_points(card: str, players: int) -> int:
    return POINTS[players].get(strength(card, players), 1)


def trick_winner(plays: list[tuple[int, str]], players: int) -> tuple[int, str, list[int]]:
    """(winning seat, majority "acorn"/"wildcat", positions counted for the majority)."""
    counted = [i for i in range(len(plays)) if not (players == 4 and i == 1)]
    acorns = sum(is_acorn(plays[i][1], players) for i in counted)
    majority = "acorn" if acorns * 2 > len(counted) else "wildcat"
    sign = -1 if majority == "acorn" else 1
    # min() keeps the earliest of equal keys, so the earlier-played card wins a tie of ranks.
    best = min(range(len(plays)), key=lambda i: sign * strength(plays[i][1], players))
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
            self.removed_suit = self.rng.choice(SUITS)
            suits = [s for s in SUITS if s != self.removed_suit]
            self.deck = [c for c in standard_deck("".join(suits)) if rank_of(c) != 2]
        elif n == 4:
            self.removed_suit = None
            self.deck = [c for c in standard_deck() if rank_of(c) != 2]
        else:
            self.removed_suit = None
            self.deck = standard_deck(SUITS + "X", range(1, 17))
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
        self.hands = [sorted(cards[i * size : (i + 1) * size], key=self._sort_key) for i in range(n)]
        self.taken: list[list[str]] = [[] for _ in range(n)]
        self.tricks = [0] * n
        self.trick: list[tuple[int, str]] = []
        self.last_trick: dict[str, Any] | None = None
        self.leader = (self.dealer + 1) % n
        self.turn = self.leader

    def _sort_key(self, card: str) -> tuple[int, int]:
        order = SUITS + "X"
        return order.index(suit_of(card)), strength(card, self.num_players)

    @property
    def deal_number(self) -> int:
        return self.deal_no

    # ---- contract ---------------------------------------------------------------------------
    def to_act(self) -> list[int]:
        return [] if self.finished else [self.turn]

    def legal_actions(self, seat: int) -> list[str]:
        if self.finished or seat != self.turn:
            return []
        return [f"play:{c}" for c in self._playable(seat)]

    def _playable(self, seat: int) -> list[str]:
        hand = self.hands[seat]
        if self.trick:
            led = suit_of(self.trick[0][1])
            follow = [c for c in hand if suit_of(c) == led]
            if follow:
                return follow
        return list(hand)

    def explain_illegal(self, seat: int, action: str) -> IllegalAction:
        card = action.removeprefix("play:")
        if not action.startswith("play:") or card not in self.hands[seat]:
            return IllegalAction("not_in_hand", card=card)
        return IllegalAction("must_follow", suit=suit_of(self.trick[0][1]))

    def _apply(self, seat: int, action: str) -> list[Event]:
        n = self.num_players
        card = action.removeprefix("play:")
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        if len(self.trick) < n:
            self.turn = (seat + 1) % n
            return []
        winner, majority, counted = trick_winner(self.trick, n)
        cards = [c for _, c in self.trick]
        self.taken[winner].extend(cards)
        self.tricks[winner] += 1
        self.last_trick = {
            "plays": [{"seat": s, "card": c} for s, c in self.trick],
            "winner": winner,
            "majority": majority,
            "excluded": [self.trick[i][0] for i in range(n) if i not in counted],
        }
        events = [Event("trick_won", {**self.last_trick, "number": sum(self.tricks)})]
        self.trick = []
        self.leader = self.turn = winner
        if not self.hands[winner]:
            events.append(self._score_deal())
        return events

    def _score_deal(self) -> Event:
        n = self.num_players
        points = [sum(card_points(c, n) for c in taken) for taken in self.taken]
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
