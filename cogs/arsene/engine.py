"""Arsène, new edition (RULINGS §1): 3–4 players; with 3 a dummy player joins.

Action grammar (every action is taken by the seat concerned, always a private choice except play):
- ``aside:<i>``    the dealer's left neighbour takes aside card i (0..2) blind.
- ``trump:<card>`` the same seat lays a non-face diamond face up: this deal has trumps (diamonds).
- ``show:<card>``  the same seat, holding no non-face diamond, shows any card and lays it face
                   down: no trumps.
- ``dummy:<card>`` three players only: every seat secretly gives one card to the dummy's first
                   trick (simultaneous: ``to_act`` lists every seat that has not chosen yet).
- ``play:<card>``  the seat to play plays a card.
- ``take``         the trick winner keeps the trick.
- ``push:<seat>``  the trick winner pushes it to that seat; ``push:dummy`` pushes it to the dummy.
  A winner with no allowed target takes the trick without being asked (ruling).

Options: ``advanced`` (bool, default False): contest mode from the deal after a shop first empties.
"""

from __future__ import annotations

import random
from typing import Any

from bot.core.cards import suit_of
from bot.core.engine import Engine, Event, IllegalAction
from bot.core.options import Option

from . import search, views
from .rules_core import (  # noqa: F401  (re-exported: the engine's names, as before)
    ADVANCED_VALUES,
    ALL_CARDS,
    ASIDE_SIZE,
    DECKS,
    DUMMY,
    HAND_SIZE,
    OPT_ADVANCED,
    PHASE_ACTIONS,
    PHASE_ASIDE,
    PHASE_DUMMY,
    PHASE_OVER,
    PHASE_PLAY,
    PHASE_PUSH,
    PHASE_TRUMP,
    PLAY_ACTIONS,
    SORT_KEYS,
    STRENGTH,
    deck_for,
    is_trump_marker,
    shuffle,
    sort_key,
    trick_winner,
)
from .rules_scoring import (
    Holdings,
    new_holdings,
    score_deal,
)

PLAY = len("play:")  # where the card starts in ``play:<card>``


class ArseneEngine(Engine):
    game_id = "arsene"
    card_order = SORT_KEYS  # hands are kept in this order
    min_players = 3
    max_players = 4
    declared_options = (Option(OPT_ADVANCED, bool, False, "arsene.cmd.new.advanced"),)
    secret_kinds = frozenset({"dummy"})  # the card a seat gives the dummy's first trick, face down

    @classmethod
    def sample_configs(cls) -> list[tuple[int, dict[str, Any]]]:
        return [(n, {OPT_ADVANCED: adv}) for n in (3, 4) for adv in ADVANCED_VALUES]

    # ---- what the seats see (views.py) and the search hooks (search.py) ----------------------
    def public_view(self) -> dict[str, Any]:
        return views.public_view(self)

    def observation(self, seat: int) -> dict[str, Any]:
        return views.observation(self, seat)

    def hidden_from(self, seat: int | None) -> set[str]:
        return views.hidden_from(self, seat)

    def clone(self) -> ArseneEngine:
        return search.clone(self)

    def determinize(self, seat: int, rng: random.Random) -> ArseneEngine:
        return search.determinize(self, seat, rng)

    def apply_fast(self, seat: int, action: str) -> None:
        """Plays, takes and pushes without building events; the rare rest goes the usual way."""
        if action[1] == "l":  # play:<card>
            won = self._lay(seat, action[PLAY:])
            if won is not None and self.phase != "push" and self._close_trick(won[0], won[0]):
                self._settle()
        elif action == "take" or action.startswith("push:"):
            winner = self.winner
            receiver = winner if action == "take" else self.push_target
            assert winner is not None and receiver is not None  # a trick on offer has both
            if self._close_trick(winner, receiver):
                self._settle()
        else:
            self._apply(seat, action)
        self.history.append((seat, action))

    # ---- setup and dealing ------------------------------------------------------------------
    def setup(self) -> None:
        self.advanced: bool = self.options[OPT_ADVANCED]
        self.has_dummy = self.num_players == 3
        self.holdings: Holdings = new_holdings(self.num_players)
        self.dealer = self.rng.randrange(self.num_players)
        self.deal_no = 0
        self.over = False
        self.end_reason: str | None = None
        self.last_summary: dict[str, Any] | None = None
        self.void_deals = 0
        self._deal()

    def _deal(self) -> None:
        n = self.num_players
        self.deal_no += 1
        deck = list(DECKS[n])
        shuffle(self.rng, deck)
        self.hands: list[list[str]] = [
            sorted(deck[i * HAND_SIZE : (i + 1) * HAND_SIZE], key=SORT_KEYS.__getitem__) for i in range(n)
        ]
        self.aside: list[str] = deck[n * HAND_SIZE :]
        assert len(self.aside) == ASIDE_SIZE
        self.picked_card: str | None = None
        self.trumps: bool | None = None
        self.trump_card: str | None = None
        self.shown_card: str | None = None
        self.dummy_cards: dict[int, str] = {}
        self.tricks = [0] * n
        self.voids = [""] * n  # suits each seat failed to follow this deal (public knowledge)
        self.dummy_tricks = 0
        self.contest = self.advanced and any(not groups for groups in self.holdings.shops.values())
        self.leader = (self.dealer + 1) % n
        self.trick: list[tuple[int, str]] = []
        self.last_trick: tuple[list[tuple[int, str]], int, int | str] | None = None
        self.winner: int | None = None
        self.push_target: int | str | None = None
        self.phase = PHASE_ASIDE

    @property
    def deal_number(self) -> int:
        return self.deal_no

    @property
    def trump_seat(self) -> int:
        return (self.dealer + 1) % self.num_players

    @property
    def tricks_per_deal(self) -> int:
        return HAND_SIZE - 1 if self.has_dummy else HAND_SIZE

    @property
    def tricks_played(self) -> int:
        return sum(self.tricks) + (self.dummy_tricks - 1 if self.dummy_tricks else 0)

    # ---- turn structure ---------------------------------------------------------------------
    def to_act(self) -> list[int]:
        if self.phase == PHASE_PLAY:
            return [(self.leader + len(self.trick)) % self.num_players]
        if self.over:
            return []
        if self.phase in (PHASE_ASIDE, PHASE_TRUMP):
            return [self.trump_seat]
        if self.phase == PHASE_DUMMY:
            return [s for s in range(self.num_players) if s not in self.dummy_cards]
        if self.phase == PHASE_PLAY:
            return [(self.leader + len(self.trick)) % self.num_players]
        if self.phase == PHASE_PUSH:
            assert self.winner is not None
            return [self.winner]
        return []

    def legal_actions(self, seat: int) -> list[str]:
        if self.phase == PHASE_PLAY:  # the common case first, for search
            if seat != (self.leader + len(self.trick)) % self.num_players:
                return []
            hand = self.hands[seat]
            if self.trick:
                led = self.trick[0][1][0]
                follow = [PLAY_ACTIONS[c] for c in hand if c[0] == led]
                if follow:
                    return follow
            return [PLAY_ACTIONS[c] for c in hand]
        if seat not in self.to_act():
            return []
        hand = self.hands[seat]
        if self.phase == PHASE_ASIDE:
            return [f"aside:{i}" for i in range(len(self.aside))]
        if self.phase == PHASE_TRUMP:
            markers = [c for c in hand if is_trump_marker(c)]
            if markers:
                return [f"trump:{c}" for c in markers]
            return [f"show:{c}" for c in hand]
        if self.phase == PHASE_DUMMY:
            return [f"dummy:{c}" for c in hand]
        if self.phase == PHASE_PUSH:
            return ["take", f"push:{self.push_target}"]
        return []

    def explain_illegal(self, seat: int, action: str) -> IllegalAction:
        kind, _, arg = action.partition(":")
        if kind not in PHASE_ACTIONS[self.phase]:
            return IllegalAction("wrong_phase", phase=self.phase, action=action)
        hand = self.hands[seat]
        if self.phase == PHASE_ASIDE:
            return IllegalAction("bad_aside", index=arg)
        if self.phase != PHASE_PUSH and arg not in ALL_CARDS:
            return IllegalAction("illegal_action", action=action)
        if self.phase == PHASE_TRUMP:
            markers = [c for c in hand if is_trump_marker(c)]
            if arg not in hand:
                return IllegalAction("not_in_hand", card=arg)
            if markers:
                return IllegalAction("must_lay_diamond", cards=markers)
            return IllegalAction("no_trump_marker", card=arg)
        if self.phase in (PHASE_DUMMY, PHASE_PLAY):
            if arg not in hand:
                return IllegalAction("not_in_hand", card=arg)
            if self.phase == PHASE_PLAY and self.trick:
                return IllegalAction("must_follow", suit=suit_of(self.trick[0][1]))
        if self.phase == PHASE_PUSH and kind == "push":
            if self.push_target == DUMMY:
                return IllegalAction("push_only_dummy")
            return IllegalAction("push_not_allowed", target=self.push_target)
        return IllegalAction("illegal_action", action=action)

    def push_target_for(self, winner: int) -> int | str | None:
        """The single seat (or the dummy) the winner may push to, judged before this trick counts."""
        count = self.tricks[winner]
        if count < 1:
            return None
        if self.has_dummy and self.dummy_tricks == count:
            return DUMMY
        for step in range(1, self.num_players):
            other = (winner + step) % self.num_players
            if self.tricks[other] == count:
                return other
        return None

    # ---- applying actions -------------------------------------------------------------------
    def _apply(self, seat: int, action: str) -> list[Event]:
        kind, _, arg = action.partition(":")
        if kind == "aside":
            card = self.aside.pop(int(arg))
            self.picked_card = card
            self.hands[seat].append(card)
            self.hands[seat].sort(key=SORT_KEYS.__getitem__)
            self.phase = PHASE_TRUMP
            return [Event("aside_taken", {"seat": seat, "index": int(arg)})]
        if kind in ("trump", "show"):
            self.hands[seat].remove(arg)
            if kind == "trump":
                self.trumps, self.trump_card = True, arg
                event = Event("trump_laid", {"seat": seat, "card": arg})
            else:
                self.trumps, self.shown_card = False, arg
                event = Event("card_shown", {"seat": seat, "card": arg})
            self.phase = PHASE_DUMMY if self.has_dummy else PHASE_PLAY
            return [event]
        if kind == "dummy":
            self.hands[seat].remove(arg)
            self.dummy_cards[seat] = arg
            events = [Event("dummy_card_chosen", {"seat": seat})]
            if len(self.dummy_cards) == self.num_players:
                self.dummy_tricks = 1
                self.phase = PHASE_PLAY
                events.append(Event("dummy_trick_formed", {"seat": self.dealer}))
            return events
        if kind == "play":
            return self._play(seat, arg)
        assert self.winner is not None
        if kind == "take":
            return self._finish_trick(self.winner, self.winner, auto=False)
        assert self.push_target is not None
        return self._finish_trick(self.winner, self.push_target, auto=False)

    def _play(self, seat: int, card: str) -> list[Event]:
        won = self._lay(seat, card)
        events = [Event("card_played", {"seat": seat, "card": card})]
        if won is None:
            return events
        winner, winning_card = won
        events.append(
            Event("trick_won", {"seat": winner, "card": winning_card, "trick": self.tricks_played + 1})
        )
        if self.phase == PHASE_PUSH:
            return events
        return events + self._finish_trick(winner, winner, auto=True)

    def _lay(self, seat: int, card: str) -> tuple[int, str] | None:
        """Play ``card``; when it completes the trick, judge it: (winner, winning card).

        The winner is then asked to take or push (phase ``push``), or takes it without being asked
        when no push is allowed (the caller then finishes the trick).
        """
        self.hands[seat].remove(card)
        trick = self.trick
        if trick:
            led = trick[0][1][0]
            if card[0] != led and led not in self.voids[seat]:
                self.voids[seat] += led
        trick.append((seat, card))
        if len(trick) < self.num_players:
            return None
        winner, winning_card = trick_winner(trick, bool(self.trumps))
        self.winner = winner
        target = self.push_target_for(winner)
        if target is not None:
            self.push_target = target
            self.phase = PHASE_PUSH
        return winner, winning_card

    def _finish_trick(self, winner: int, receiver: int | str, auto: bool) -> list[Event]:
        if receiver == DUMMY:
            event = Event("trick_pushed_dummy", {"seat": winner})
        elif receiver == winner:
            event = Event("trick_taken", {"seat": winner, "auto": auto})
        else:
            event = Event("trick_pushed", {"seat": winner, "target": receiver})
        events = [event]
        if self._close_trick(winner, receiver):
            events += self._score()
        return events

    def _close_trick(self, winner: int, receiver: int | str) -> bool:
        """Give the trick to ``receiver``; True when it was the deal's last trick (score it next)."""
        if receiver == DUMMY:
            self.dummy_tricks += 1
            self.leader = (winner + 1) % self.num_players
        else:
            assert isinstance(receiver, int)
            self.tricks[receiver] += 1
            self.leader = receiver
        self.last_trick = (self.trick, winner, receiver)  # a view is built only when asked
        self.trick = []
        self.winner = None
        self.push_target = None
        self.phase = PHASE_PLAY
        return not any(self.hands)

    # ---- scoring ----------------------------------------------------------------------------
    def _score(self) -> list[Event]:
        self._settle()
        summary = self.last_summary
        assert summary is not None
        events = [Event("deal_scored", summary)]
        if summary["void"]:
            events.append(Event("deal_void", {"deal": summary["deal"]}))
        if self.over:
            res = self.results()
            data = {"reason": self.end_reason, "winners": res["winners"], "scores": res["scores"]}
            events.append(Event("game_over", data))
        else:
            data = {"deal": self.deal_no, "seat": self.dealer, "contest": self.contest}
            events.append(Event("deal_started", data))
        return events

    def _settle(self) -> None:
        """Score the deal into the holdings, then end the game or deal the next hand."""
        n = self.num_players
        before = self.holdings.copy()
        lines, dummy_line, caught, emptied = score_deal(
            self.holdings, self.tricks, self.dummy_tricks if self.has_dummy else None, self.contest
        )
        void = len(caught) == n
        if void:
            self.holdings = before
            self.void_deals += 1
            for line in lines:
                line["chips_after"] = line["chips_before"]
                line["tokens_after"] = line["tokens_before"]
        shops_empty = all(not groups for groups in self.holdings.shops.values())
        if not void and caught:
            self.end_reason = "caught"
        elif not void and shops_empty:
            self.end_reason = "shops_empty"
        self.over = self.end_reason is not None
        self.last_summary = {
            "deal": self.deal_no,
            "dealer": self.dealer,
            "trumps": self.trumps,
            "contest": self.contest,
            "players": lines,
            "dummy": dummy_line,
            "caught": caught,
            "shops_emptied": [] if void else emptied,
            "void": void,
            "game_over": self.over,
        }
        if self.over:
            self.phase = PHASE_OVER
            self.trick = []
        else:
            self.dealer = (self.dealer + 1) % n
            self._deal()

    def is_terminal(self) -> bool:
        return self.over

    def results(self) -> dict[str, Any]:
        chips = list(self.holdings.chips)
        ranks = [1 + sum(other > mine for other in chips) for mine in chips]
        best = max(chips)
        return {
            "ranks": ranks,
            "scores": chips,
            "winners": [s for s, c in enumerate(chips) if c == best],
            "tokens": list(self.holdings.tokens),
            "exempt_used": list(self.holdings.exempt_used),
            "end_reason": self.end_reason,
            "deals": self.deal_no,
            "void_deals": self.void_deals,
        }
