"""Final Quest rules engine (RULINGS §4, seeds/final_quest.ja.txt). Pure: no discord, no clock.

Four seats, teams 0+2 against 1+3 (partners sit opposite). Thirteen cards ``D1``..``D13``; three
each, one face down in the centre. A random seat starts; turns go to the next seat.

Action grammar (``t`` = another seat 0..3, ``n`` = card number 1..13):

Turn player, phase ``turn`` (exactly one main action per turn, ``show`` and ``end`` around it):
    ask:<t>                      free-text YES/NO question to seat t (its text stays in Discord)
    askq:<t>:has:<n>             "Do you hold n?"                     answered by the engine
    askq:<t>:sum_even            "Is the sum of your cards even?"
    askq:<t>:atleast:<k>:<n>     "Do you hold at least k cards of n or higher?"  (k 1..3, n 2..13)
    askq:<t>:sum_atleast:<s>     "Is the sum of your cards s or more?"          (s 7..36)
    askq:<t>:evens:<k>           "Do you hold at least k even cards?"           (k 1..3)
    fq:<t>:<a>.<b>.<c>           Final Quest, a < b < c distinct (any cards, even the asker's own)
    swap:<n>                     exchange own card n with the centre card
    show:<n>                     show own card n to everyone (not while the table knows it is there)
    end                          end the turn (only after the main action)
Asked seat, phase ``answer``: ``answer:yes`` / ``answer:no`` (nobody else may act), or ``decline``
    when the question cannot be answered YES or NO, or the seat cannot read it (a computer plays
    it, or the clock ran out): the question lapses and the asker takes another main action.
    Nobody answers a question it cannot read at random.
Final Quest target, phase ``rebuttal``: ``rebut:<n>`` (a held card that was not named) / ``reveal``.
"""

from __future__ import annotations

import random
from typing import Any

from bot.core.engine import Engine, Event, IllegalAction
from bot.core.options import Option

from . import search, views
from .rules_core import (
    ANSWER_NO,
    ANSWER_YES,
    HAND_SIZE,
    NUM_SEATS,
    NUMBERS,
    PHASE_ANSWER,
    PHASE_OVER,
    PHASE_REBUTTAL,
    PHASE_TURN,
    QUESTIONS,
    TEAM_SEATS,
    TEAMS,
    card,
    main_actions,
    question_answer,
)
from .rules_core import askq_action as askq_action  # re-exported: the cog and the AI build actions
from .rules_core import fq_action as fq_action

# ---- options ------------------------------------------------------------------------------
OPT_REBUTTAL = "rebuttal"
REBUTTAL_PUBLIC = "public"  # the seed's rule: the rebuttal card is shown to everyone
REBUTTAL_ASKER = "asker"  # table option: only the asker (and the target) see the rebuttal card
REBUTTAL_CHOICES = (REBUTTAL_PUBLIC, REBUTTAL_ASKER)
OPT_ROUND_CAP = "round_cap"  # None = no cap; a positive int = draw after that many rounds
ROUND_CAP_SUGGESTIONS = (5, 10, 15, 20)  # offered first; any number of rounds from 1 to 99 is accepted


def _int(text: str) -> int | None:
    """A plain decimal number as written by the cog (no sign, no leading zero), else None."""
    if not text or not text.isascii() or not text.isdigit() or str(int(text)) != text:
        return None
    return int(text)


_MAIN_ACTIONS = [main_actions(s) for s in range(NUM_SEATS)]
_SHOW = {n: f"show:{n}" for n in NUMBERS}
_SWAP = {n: f"swap:{n}" for n in NUMBERS}


class FinalQuestEngine(Engine):
    game_id = "final_quest"
    min_players = 4
    max_players = 4
    declared_options = (
        Option(OPT_REBUTTAL, str, REBUTTAL_PUBLIC, "final_quest.cmd.new.rebuttal", choices=REBUTTAL_CHOICES),
        Option(
            OPT_ROUND_CAP,
            int,
            None,
            "final_quest.cmd.new.round_cap",
            low=1,
            high=99,
            suggestions=ROUND_CAP_SUGGESTIONS,
        ),
    )

    @classmethod
    def teams(cls, num_players: int) -> list[list[int]] | None:
        return [list(t) for t in TEAM_SEATS]

    # ---- what the seats see (views.py) and the search hooks (search.py) ----------------------
    def public_view(self) -> dict[str, Any]:
        return views.public_view(self)

    def observation(self, seat: int) -> dict[str, Any]:
        return views.observation(self, seat)

    def hidden_from(self, seat: int | None) -> set[str]:
        return views.hidden_from(self, seat)

    def results(self) -> dict[str, Any]:
        return views.results(self)

    def public_facts(self) -> list[dict[str, Any]]:
        return views.public_facts(self)

    def private_facts(self, seat: int) -> list[dict[str, Any]]:
        return views.private_facts(self, seat)

    def clone(self) -> FinalQuestEngine:
        return search.clone(self)

    def determinize(self, seat: int, rng: random.Random) -> FinalQuestEngine:
        return search.determinize(self, seat, rng)

    def seen_history(self, seat: int) -> list[tuple[int, str]]:
        return search.seen_history(self, seat)

    def apply_fast(self, seat: int, action: str) -> None:
        """Final Quests (most of a random game's moves) without building events."""
        if action[1] == "q":  # fq:<target>:<a>.<b>.<c>
            self._name_hand(seat, int(action[3]), [int(x) for x in action[5:].split(".")])
        else:
            self._apply(seat, action)
        self.history.append((seat, action))

    # ---- setup -------------------------------------------------------------------------------
    def setup(self) -> None:
        self.rebuttal_mode: str = self.options[OPT_REBUTTAL]
        self.round_cap: int | None = self.options[OPT_ROUND_CAP]

        deck = list(NUMBERS)
        self.rng.shuffle(deck)
        self.hands: list[list[int]] = [sorted(deck[i * 3 : i * 3 + 3]) for i in range(NUM_SEATS)]
        self.centre: int = deck[12]
        self.first_player: int = self.rng.randrange(NUM_SEATS)
        self.current: int = self.first_player
        self.turns_taken = 0  # completed turns
        self.phase = PHASE_TURN
        self.main_action: dict[str, Any] | None = None  # public description of this turn's action
        self.pending: dict[str, Any] | None = None  # awaited answer / rebuttal
        self.public_cards: list[set[int]] = [set() for _ in range(NUM_SEATS)]  # known to the table
        self.public_seen: set[int] = set()  # every number ever shown to everyone
        self.seen: list[set[int]] = [set(h) for h in self.hands]  # every number each seat has seen
        self.centre_placer: int | None = None  # the seat that put the current centre card there
        self.swaps = [0] * NUM_SEATS
        self.facts: list[dict[str, Any]] = []  # public record of answers, rebuttals, shows, swaps
        self.private: list[list[dict[str, Any]]] = [[] for _ in range(NUM_SEATS)]
        # asker-only rebuttals a seat received: number -> the seat that showed it (latest)
        self.rebuttals_seen: list[dict[int, int]] = [{} for _ in range(NUM_SEATS)]
        self.outcome: str | None = None  # "win" / "draw"
        self.winner_team: int | None = None
        self.final_quest_hit: dict[str, Any] | None = None

    @classmethod
    def sample_configs(cls) -> list[tuple[int, dict[str, Any]]]:
        return [
            (4, {}),
            (4, {OPT_REBUTTAL: REBUTTAL_ASKER}),
            (4, {OPT_ROUND_CAP: 3}),
            (4, {OPT_REBUTTAL: REBUTTAL_ASKER, OPT_ROUND_CAP: 1}),
        ]

    @property
    def deal_number(self) -> int:
        return 1  # one deal per game; a swap changes a hand without a new deal

    # ---- flow --------------------------------------------------------------------------------
    @property
    def round(self) -> int:
        return self.turns_taken // NUM_SEATS + 1

    def is_terminal(self) -> bool:
        return self.phase == PHASE_OVER

    def to_act(self) -> list[int]:
        if self.phase == PHASE_OVER:
            return []
        if self.phase in (PHASE_ANSWER, PHASE_REBUTTAL):
            assert self.pending is not None
            return [self.pending["seat"]]
        return [self.current]

    def legal_actions(self, seat: int) -> list[str]:
        if seat not in self.to_act():
            return []
        if self.phase == PHASE_ANSWER:
            return [f"answer:{ANSWER_YES}", f"answer:{ANSWER_NO}", "decline"]
        if self.phase == PHASE_REBUTTAL:
            assert self.pending is not None
            return [f"rebut:{n}" for n in self.rebuttal_numbers()] + ["reveal"]
        hand = self.hands[seat]
        known = self.public_cards[seat]
        shows = [_SHOW[n] for n in hand if n not in known]
        if self.main_action is not None:
            return shows + ["end"]
        return _MAIN_ACTIONS[seat] + [_SWAP[n] for n in hand] + shows

    def rebuttal_numbers(self) -> list[int]:
        """The cards the Final Quest target may show: held and not named."""
        if self.phase != PHASE_REBUTTAL or self.pending is None:
            return []
        named = set(self.pending["named"])
        return [n for n in self.hands[self.pending["seat"]] if n not in named]

    def _apply(self, seat: int, action: str) -> list[Event]:
        head, _, rest = action.partition(":")
        if head == "answer":
            return self._answer(rest)
        if head == "decline":
            return self._decline()
        if head in ("rebut", "reveal"):
            return self._rebut(int(rest) if head == "rebut" else None)
        if head == "show":
            return self._show(seat, int(rest))
        if head == "end":
            return self._end_turn(seat)
        if head == "swap":
            return self._swap(seat, int(rest))
        target_text, _, detail = rest.partition(":")
        target = int(target_text)
        if head == "ask":
            # ``at``: the move's number, under which the platform keeps the question's words
            at = len(self.history)
            self.main_action = {"kind": "ask", "target": target, "at": at}
            self.pending = {"kind": "answer", "seat": target, "asker": seat, "question": "free", "at": at}
            self.phase = PHASE_ANSWER
            return [Event("asked", {"seat": seat, "target": target})]
        if head == "askq":
            return self._structured(seat, target, detail)
        if head == "fq":
            return self._final_quest(seat, target, [int(x) for x in detail.split(".")])
        raise AssertionError(action)

    def _fact(self, kind: str, **data: Any) -> dict[str, Any]:
        fact = {"kind": kind, "turn": self.turns_taken + 1, **data}
        self.facts.append(fact)
        return fact

    def _answer(self, answer: str) -> list[Event]:
        assert self.pending is not None
        asker, target = self.pending["asker"], self.pending["seat"]
        self._fact("question", seat=asker, target=target, question="free", answer=answer, at=self.pending.get("at"))
        self.main_action = {**(self.main_action or {}), "answer": answer}
        self.pending = None
        self.phase = PHASE_TURN
        return [Event("answered", {"seat": asker, "target": target, "answer": answer})]

    def _decline(self) -> list[Event]:
        assert self.pending is not None
        asker, target = self.pending["asker"], self.pending["seat"]
        self.main_action = None  # the asker acts again
        self.pending = None
        self.phase = PHASE_TURN
        return [Event("declined", {"seat": asker, "target": target})]

    def _structured(self, seat: int, target: int, detail: str) -> list[Event]:
        question, *raw = detail.split(":")
        params = {name: int(v) for (name, _values), v in zip(QUESTIONS[question], raw, strict=True)}
        answer = ANSWER_YES if question_answer(self.hands[target], question, params) else ANSWER_NO
        self._fact("question", seat=seat, target=target, question=question, answer=answer, **params)
        self.main_action = {"kind": "question", "target": target, "question": question, **params}
        self.main_action["answer"] = answer
        data = {"seat": seat, "target": target, "question": question, **params, "answer": answer}
        return [Event(f"q_{question}", data)]

    def _final_quest(self, seat: int, target: int, named: list[int]) -> list[Event]:
        a, b, c = named
        data = {"seat": seat, "target": target, "named": list(named), "a": a, "b": b, "c": c}
        events = [Event("final_quest", data)]
        if self._name_hand(seat, target, named):
            assert self.winner_team is not None
            winners = list(TEAM_SEATS[self.winner_team])
            data = {"seat": seat, "target": target, "team": self.winner_team, "winners": winners}
            events.append(Event("final_quest_correct", data))
        else:
            events.append(Event("final_quest_wrong", {"seat": seat, "target": target}))
        return events

    def _name_hand(self, seat: int, target: int, named: list[int]) -> bool:
        """The Final Quest itself: True when it wins, else the target must refute it."""
        self.main_action = {"kind": "final_quest", "target": target, "named": named}
        if sorted(self.hands[target]) == named:
            self._fact("final_quest", seat=seat, target=target, named=named, response="correct")
            self.main_action["response"] = "correct"
            self.public_seen.update(named)
            self.public_cards[target] = set(named)
            self.phase = PHASE_OVER
            self.outcome = "win"
            self.winner_team = TEAMS[seat]
            self.final_quest_hit = {"seat": seat, "target": target, "named": named}
            return True
        self.pending = {"kind": "rebuttal", "seat": target, "asker": seat, "named": named}
        self.phase = PHASE_REBUTTAL
        return False

    def _rebut(self, n: int | None) -> list[Event]:
        assert self.pending is not None and self.main_action is not None
        asker, target, named = self.pending["asker"], self.pending["seat"], self.pending["named"]
        self.pending = None
        self.phase = PHASE_TURN
        if n is None:
            hand = sorted(self.hands[target])
            self.public_seen.update(hand)
            self.public_cards[target] = set(hand)
            cards = [card(x) for x in hand]
            self._fact("final_quest", seat=asker, target=target, named=named, response="reveal", cards=cards)
            self.main_action["response"] = "reveal"
            return [Event("hand_revealed", {"seat": asker, "target": target, "cards": cards})]
        if self.rebuttal_mode == REBUTTAL_PUBLIC:
            self.public_seen.add(n)
            self.public_cards[target].add(n)
            self._fact(
                "final_quest", seat=asker, target=target, named=named, response="rebuttal", card=card(n)
            )
            self.main_action["response"] = "rebuttal"
            return [Event("rebuttal", {"seat": asker, "target": target, "card": card(n)})]
        # asker-only: the card goes to the asker's (and the target's) private record only
        self.seen[asker].add(n)
        self.rebuttals_seen[asker][n] = target
        private = {"kind": "rebuttal", "turn": self.turns_taken + 1, "seat": asker, "target": target}
        private["card"] = card(n)
        self.private[asker].append(private)
        self.private[target].append(dict(private))
        self._fact("final_quest", seat=asker, target=target, named=named, response="rebuttal", card=None)
        self.main_action["response"] = "rebuttal"
        return [Event("rebuttal_private", {"seat": asker, "target": target})]

    def _show(self, seat: int, n: int) -> list[Event]:
        self.public_seen.add(n)
        self.public_cards[seat].add(n)
        self._fact("show", seat=seat, card=card(n))
        return [Event("card_shown", {"seat": seat, "card": card(n)})]

    def _swap(self, seat: int, n: int) -> list[Event]:
        hand = self.hands[seat]
        taken = self.centre
        hand.remove(n)
        hand.append(taken)
        hand.sort()
        self.centre = n
        self.centre_placer = seat
        self.seen[seat].add(taken)
        self.public_cards[seat] = set()  # the table no longer knows which cards stayed
        self.swaps[seat] += 1
        self.main_action = {"kind": "swap"}
        self._fact("swap", seat=seat)
        self.private[seat].append(
            {"kind": "swap", "turn": self.turns_taken + 1, "gave": card(n), "took": card(taken)}
        )
        return [Event("swapped", {"seat": seat, "count": self.swaps[seat]})]

    def _end_turn(self, seat: int) -> list[Event]:
        self.turns_taken += 1
        self.main_action = None
        if self.round_cap is not None and self.turns_taken >= self.round_cap * NUM_SEATS:
            self.phase = PHASE_OVER
            self.outcome = "draw"
            return [Event("round_cap_draw", {"rounds": self.round_cap})]
        self.current = (seat + 1) % NUM_SEATS
        return [
            Event("turn_started", {"seat": self.current, "turn": self.turns_taken + 1, "round": self.round})
        ]

    # ---- refusals ----------------------------------------------------------------------------
    def explain_illegal(self, seat: int, action: str) -> IllegalAction:
        head, _, rest = action.partition(":")
        if self.phase == PHASE_ANSWER:
            return IllegalAction("must_answer", answers=[ANSWER_YES, ANSWER_NO])
        if self.phase == PHASE_REBUTTAL:
            if head == "rebut":
                n = _int(rest)
                if n is None or n not in NUMBERS:
                    return IllegalAction("bad_card", value=rest)
                if n not in self.hands[seat]:
                    return IllegalAction("not_in_hand", n=n)
                return IllegalAction("not_a_rebuttal", n=n, options=self.rebuttal_numbers())
            return IllegalAction("must_rebut", options=self.rebuttal_numbers())
        # the turn player's own turn
        if head in ("ask", "askq", "fq", "swap") and self.main_action is not None:
            return IllegalAction("already_acted")
        if head in ("swap", "show"):
            n = _int(rest)
            if n is None or n not in NUMBERS:
                return IllegalAction("bad_card", value=rest)
            if n not in self.hands[seat]:
                return IllegalAction("not_in_hand", n=n)
            return IllegalAction("already_shown", n=n)
        if head == "end":
            return IllegalAction("act_first")
        if head in ("ask", "askq", "fq"):
            target_text, _, detail = rest.partition(":")
            target = _int(target_text)
            if target is None or target >= NUM_SEATS:
                return IllegalAction("bad_target", value=target_text)
            if target == seat:
                return IllegalAction("target_self")
            if head == "askq":
                return IllegalAction("bad_question", value=detail)
            if head == "fq":
                parts = detail.split(".")
                nums = [_int(p) for p in parts]
                if len(parts) != HAND_SIZE:
                    return IllegalAction("name_three")
                for p, n in zip(parts, nums, strict=True):
                    if n is None or n not in NUMBERS:
                        return IllegalAction("bad_card", value=p)
                if len(set(nums)) != HAND_SIZE:
                    return IllegalAction("cards_not_distinct")
                return IllegalAction("cards_not_sorted")
        if head in ("answer", "decline"):
            return IllegalAction("not_asked")
        if head in ("rebut", "reveal"):
            return IllegalAction("no_final_quest")
        return IllegalAction("unknown_action", action=action)
