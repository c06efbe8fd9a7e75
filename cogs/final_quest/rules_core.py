"""Pure Final Quest helpers: the table's numbers and seats, the phases, the card codes, the action
strings and the structured questions' true answers. Both the engine and its views need them, so they
live apart from both; engine.py re-exports them for the cog, the renderer, the AI and the deduction."""

from __future__ import annotations

from itertools import combinations

from bot.core.cards import code, rank_of

SUIT = "D"
NUMBERS = tuple(range(1, 14))
HAND_SIZE = 3
NUM_SEATS = 4
TEAMS = (0, 1, 0, 1)
TEAM_SEATS = ((0, 2), (1, 3))

# ---- phases -------------------------------------------------------------------------------
PHASE_TURN = "turn"
PHASE_ANSWER = "answer"
PHASE_REBUTTAL = "rebuttal"
PHASE_OVER = "over"

# ---- structured questions: name -> ((param, legal values), ...) ---------------------------
QUESTIONS: dict[str, tuple[tuple[str, range], ...]] = {
    "has": (("n", range(1, 14)),),
    "sum_even": (),
    "atleast": (("k", range(1, 4)), ("n", range(2, 14))),
    "sum_atleast": (("n", range(7, 37)),),
    "evens": (("k", range(1, 4)),),
}
ANSWER_YES = "yes"
ANSWER_NO = "no"


def card(n: int) -> str:
    """Card code of number ``n``: ``D7``."""
    return code(SUIT, n)


def number(card_code: str) -> int:
    return rank_of(card_code)


def fq_action(target: int, numbers: list[int] | tuple[int, ...]) -> str:
    """The canonical Final Quest action string (named numbers sorted): ``fq:1:2.7.13``."""
    return f"fq:{target}:" + ".".join(str(n) for n in sorted(numbers))


def askq_action(target: int, question: str, *params: int) -> str:
    """A structured question action string: ``askq:1:atleast:2:10``."""
    return ":".join(["askq", str(target), question, *(str(p) for p in params)])


def main_actions(seat: int) -> list[str]:
    """Every main action of ``seat``'s turn, questions and Final Quests to each other seat (swaps
    depend on the hand and are not among them)."""
    actions: list[str] = []
    for t in range(NUM_SEATS):
        if t == seat:
            continue
        actions.append(f"ask:{t}")
        for q, spec in QUESTIONS.items():
            combos: list[tuple[int, ...]] = [()]
            for _name, values in spec:
                combos = [c + (v,) for c in combos for v in values]
            actions.extend(askq_action(t, q, *c) for c in combos)
        actions.extend(fq_action(t, trio) for trio in combinations(NUMBERS, 3))
    return actions


def question_answer(hand: list[int], question: str, params: dict[str, int]) -> bool:
    """The true answer of a structured question about ``hand`` (numbers)."""
    if question == "has":
        return params["n"] in hand
    if question == "sum_even":
        return sum(hand) % 2 == 0
    if question == "atleast":
        return sum(1 for c in hand if c >= params["n"]) >= params["k"]
    if question == "sum_atleast":
        return sum(hand) >= params["n"]
    if question == "evens":
        return sum(1 for c in hand if c % 2 == 0) >= params["k"]
    raise ValueError(question)
