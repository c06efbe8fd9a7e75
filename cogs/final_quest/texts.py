"""How Final Quest's facts read: questions and answers, Final Quests and rebuttals, shows, swaps and
the result. The table, the private prompt and the record all word them the same way."""

from __future__ import annotations

from typing import Any

from bot.core.cards import is_code, rank_of
from bot.core.i18n import Lang
from cogs.final_quest.engine import QUESTIONS, TEAM_SEATS

G = "final_quest"
TEAM_MARK = ("🔵", "🟠")  # the picture uses the same two colours
TEAM_KEYS = ("team_a", "team_b")


def num(card: str) -> str:
    """Cards are one suit, so a card is shown as its number: ``D12`` → ``12`` (``?`` for no card)."""
    return str(rank_of(card)) if is_code(card) else "?"


def nums(cards: list[str] | list[int], tr: Lang) -> str:
    """Cards as numbers in a list, as the language writes one: "1, 5, 9" / 「1、5、9」."""
    return tr.join((str(c) if isinstance(c, int) else num(c) for c in cards), conjunction=False)


def answer_word(answer: str, tr: Lang) -> str:
    return tr(f"{G}.answer.{answer}")


QUOTE_MAX = 60  # characters of a player's own question quoted in a fact line


def question_text(data: dict[str, Any], tr: Lang) -> str:
    """The words of a checked question (a fact or a main action)."""
    question = data["question"]
    params = {name: data.get(name) for name, _values in QUESTIONS.get(question, ())}
    return tr(f"{G}.question.{question}", **params, count=params.get("k"))


def own_words(data: dict[str, Any], said: dict[int, str]) -> str | None:
    """A player's own question (a fact or a main action), as said at the table, shortened to fit a
    line: None when its words are not known (asked before they were kept)."""
    text = said.get(data["at"]) if data.get("at") is not None else None
    if text is None:
        return None
    if len(text) <= QUOTE_MAX:
        return text
    cut = text[: QUOTE_MAX - 1]
    if " " in cut[QUOTE_MAX // 2 :]:  # end on a whole word where the words have spaces
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,;:") + "…"


def team_of_seats(seats: list[int] | tuple[int, ...], names: list[str], tr: Lang) -> str:
    return tr(f"{G}.view.pair", a=names[seats[0]], b=names[seats[1]])


def result_line(public: dict[str, Any], names: list[str], tr: Lang) -> str:
    if public["outcome"] == "win":
        team = public["winner_team"]
        return tr(
            f"{G}.view.won",
            mark=TEAM_MARK[team],
            team=tr(f"{G}.team.{TEAM_KEYS[team]}"),
            players=team_of_seats(TEAM_SEATS[team], names, tr),
        )
    return tr(f"{G}.result.draw")


def fact_line(fact: dict[str, Any], names: list[str], tr: Lang, said: dict[int, str] | None = None) -> str:
    """One public fact (a question and its answer, a Final Quest and its rebuttal, a show, a swap).
    A player's own question is quoted from ``said`` (what was said at the table, by move)."""
    kind = fact["kind"]
    player, target = names[fact["seat"]], names[fact.get("target", fact["seat"])]
    if kind == "question":
        answer = answer_word(fact["answer"], tr)
        if fact["question"] != "free":
            question = question_text(fact, tr)
        elif (words := own_words(fact, said or {})) is not None:
            question = words
        else:
            return tr(f"{G}.fact.question_free", turn=fact["turn"], player=player, target=target, answer=answer)
        return tr(
            f"{G}.fact.question", turn=fact["turn"], player=player, target=target, question=question, answer=answer
        )
    if kind == "final_quest":
        head = tr(
            f"{G}.fact.final_quest",
            turn=fact["turn"],
            player=player,
            target=target,
            cards=nums(fact["named"], tr),
        )
        response = fact["response"]
        if response == "correct":
            tail = tr(f"{G}.fact.correct", target=target)
        elif response == "reveal":
            tail = tr(f"{G}.fact.reveal", target=target, cards=nums(fact["cards"], tr))
        elif fact.get("card"):
            tail = tr(f"{G}.fact.rebuttal", target=target, card=num(fact["card"]))
        else:
            tail = tr(f"{G}.fact.rebuttal_hidden", target=target, player=player)
        return f"{head} → {tail}"
    if kind == "show":
        return tr(f"{G}.fact.show", turn=fact["turn"], player=player, card=num(fact["card"]))
    return tr(f"{G}.fact.swap", turn=fact["turn"], player=player)


def private_line(item: dict[str, Any], seat: int, names: list[str], tr: Lang) -> str:
    """One thing only this seat knows: its own swap, or a rebuttal card shown in secret."""
    if item["kind"] == "swap":
        return tr(f"{G}.fact.private_swap", turn=item["turn"], gave=num(item["gave"]), took=num(item["took"]))
    if item["seat"] == seat:  # this seat asked and received the card
        return tr(
            f"{G}.fact.private_rebuttal_got",
            turn=item["turn"],
            target=names[item["target"]],
            card=num(item["card"]),
        )
    return tr(
        f"{G}.fact.private_rebuttal_gave",
        turn=item["turn"],
        player=names[item["seat"]],
        card=num(item["card"]),
    )
