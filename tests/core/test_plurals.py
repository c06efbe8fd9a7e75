"""English counts read right for one and for many: "at least 1 card", "after 1 round", "Winners:"
(review 2026-11-26, #38–#40). Each text is drawn by the code that shows it, with 1 and with more."""

from __future__ import annotations

import re
import tomllib

import pytest

from bot.core.engine import IllegalAction
from bot.core.i18n import Lang, _flatten
from bot.events.render import event_message, live_message, settings_text
from bot.storage.events import Entrant, Tournament
from cogs.arsene.engine import ArseneEngine
from cogs.arsene.render import ArseneUI
from cogs.final_quest.engine import FinalQuestEngine
from cogs.final_quest.render import FinalQuestUI
from cogs.final_quest.texts import fact_line
from cogs.saizen.engine import SaizenEngine
from tests.support.catalogs import catalog_pairs

EN, JA = Lang("en"), Lang("ja")
NAMES = ["ann", "ben", "cat", "dan"]

#: A number placeholder, maybe one word, then a plural noun: "{k} even cards", "{round} rounds".
NUMBERS = "count|k|n|round|rounds|tables|done|value|hours|size|wins|games"
NOUNS = "cards|players|rounds|tables|tricks|chips|tokens|discs|points|places|minutes|hours|days|games|deals|jokers"
COUNTED = re.compile(rf"\{{({NUMBERS})\}}\s+(?:[a-z]+\s+)?(?:of \{{\w+\}}\s+)?({NOUNS})\b")


def english_texts() -> dict[str, object]:
    out: dict[str, object] = {}
    for _name, en, _ja in catalog_pairs():
        _flatten("", tomllib.loads(en.read_text(encoding="utf-8")), out)
    return out


def test_the_counted_noun_check_catches_what_it_should():
    assert COUNTED.search("Do you hold at least {k} even cards?")
    assert COUNTED.search("round {n}: {done} of {tables} tables done")
    assert COUNTED.search("The tournament is over after {round} rounds.")
    assert not COUNTED.search("Your tricks: {round} this round")
    assert not COUNTED.search("{player} deals.")


def test_every_counted_english_noun_has_a_form_for_one():
    """A plain "{k} cards" reads "1 cards" when k is 1: such a text needs one/other forms.
    ({min}, {max} and {places} are left out: player counts and places are 2 or more.)"""
    bad = {k: m.group(0) for k, v in english_texts().items() if isinstance(v, str) and (m := COUNTED.search(v))}
    assert not bad, f"give these keys one/other forms, and pass count= where they are drawn: {bad}"


# ---- Final Quest -------------------------------------------------------------------------------


def final_quest() -> FinalQuestEngine:
    engine = FinalQuestEngine(4, 1, {})
    engine.hands = [[1, 2, 3], [4, 5, 6], [7, 8, 13], [10, 11, 12]]
    engine.seen = [set(h) for h in engine.hands]
    engine.first_player = engine.current = 0
    return engine


@pytest.mark.parametrize(
    ("action", "question", "answer"),
    [
        ("askq:2:atleast:1:13", "Do you hold at least 1 card of 13 or higher?", "YES"),
        ("askq:2:atleast:2:12", "Do you hold at least 2 cards of 12 or higher?", "NO"),
        ("askq:2:evens:1", "Do you hold at least 1 even card?", "YES"),
        ("askq:2:evens:3", "Do you hold at least 3 even cards?", "NO"),
    ],
)
def test_a_final_quest_question_counts_its_cards(action, question, answer):
    engine = final_quest()
    events = engine.apply(0, action)
    public = engine.public_view()
    (fact,) = public["facts"]
    assert fact_line(fact, NAMES, EN).endswith(f"ann asked cat “{question}” → **{answer}**")
    line = FinalQuestUI.main_action_line(public["main_action"], NAMES, EN)
    assert line == f"This turn: asked **cat** “{question}” Answer: **{answer}**."
    assert FinalQuestUI().record(events, public, NAMES, EN) == [f"ann asks cat: “{question}” — {answer}."]


def test_the_answer_follows_the_question_without_a_space_after_the_japanese_full_stop():
    """Review #27: 「…と質問しました。 答え」 had a space after 「。」."""
    engine = final_quest()
    engine.apply(0, "askq:2:has:8")
    action = engine.public_view()["main_action"]
    assert FinalQuestUI.main_action_line(action, NAMES, JA).endswith("と質問しました。答え: **YES**。")


def test_a_round_limit_of_one_round():
    ui = FinalQuestUI()
    assert ui.option_summary({"round_cap": 1}, 4, EN).endswith("Round limit: draw after 1 round")
    assert ui.option_summary({"round_cap": 2}, 4, EN).endswith("Round limit: draw after 2 rounds")


# ---- Arsène: one winner or a shared win ----------------------------------------------------------


@pytest.mark.parametrize(("winners", "said"), [([1], "Winner: ben."), ([0, 2], "Winners: ann and cat.")])
def test_the_game_over_prompt_names_one_winner_or_several(winners, said):
    engine = ArseneEngine(4, 1, {})
    seen = engine.observation(0)
    engine.observation = lambda seat: {**seen, "result": {"winners": winners}}  # as the game ended
    assert f"**Game over.** {said}" in ArseneUI().prompt(engine, 0, NAMES, EN).text


# ---- tournaments ---------------------------------------------------------------------------------


def tournament(**fields) -> Tournament:
    base = dict(
        id=1, guild_id=1, channel_id=1, message_id=None, organizer_id=1, name="Cup", game="donguri",
        format="elimination", rounds=0, table_size=3, options={}, points=[3, 1, 0], clock=86400,
        on_timeout="computer_seat", signup_deadline=None, auto_next=True, advance=1, group_size=None,
        teams=None, language="en", seed=7, status="running", round=1, round_done=0,
        entrants=[Entrant(p, n, 0) for p, n in ((1, "ann"), (2, "ben"), (3, "cat"))],
    )
    return Tournament(**{**base, **fields})


def test_how_many_go_through_reads_right_for_one():
    assert "The top player of each table goes through" in settings_text(tournament(advance=1), EN)
    assert "The top 2 of each table go through" in settings_text(tournament(advance=2, table_size=4), EN)
    assert "各卓の1位が勝ち抜け" in settings_text(tournament(advance=1), JA)
    assert "各卓の上位2人が勝ち抜け" in settings_text(tournament(advance=2, table_size=4), JA)


@pytest.mark.parametrize(
    ("rounds", "winners", "said"),
    [
        (1, ["ann"], "The tournament is over after 1 round. 🏆 Winner: ann"),
        (3, ["ann", "ben"], "The tournament is over after 3 rounds. 🏆 Winners: ann and ben"),
    ],
)
async def test_a_finished_event_counts_its_rounds_and_its_winners(rounds, winners, said):
    t = tournament(format="swiss", rounds=rounds, round=rounds, status="finished")
    assert said in event_message(t, [], {}, set(), EN, False, winners).embed.description


@pytest.mark.parametrize(("tables", "said"), [(1, "round 1: 0 of 1 table done"), (2, "round 1: 0 of 2 tables done")])
def test_live_standings_count_the_tables_done(tables, said):
    assert live_message(tournament(format="swiss", rounds=3), [], [], EN, None, 0, tables).embed.title.endswith(said)


# ---- a table of one -------------------------------------------------------------------------------


def test_a_player_count_of_one_is_refused_in_the_singular():
    with pytest.raises(IllegalAction) as refused:
        SaizenEngine(1, 1, {})
    assert EN(f"error.{refused.value.code}", **refused.value.params) == "This game cannot be played with 1 player."
