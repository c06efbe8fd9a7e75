"""Computer players of Arsène and Final Quest: what their searches may assume, and how they play.

The hooks every engine shares (a determinization looks the same to its seat, reads nothing hidden,
clones are independent, ``apply_fast`` equals ``apply``, same seed same move) are checked for these
two games with every other in ``test_ai_conformance``; here are the rules each game adds.
"""

from __future__ import annotations

import itertools
import random

import bot.ai as ai
from cogs.arsene import ai as arsene_ai
from cogs.arsene.engine import PHASE_PUSH, ArseneEngine
from cogs.arsene.rules_scoring import new_holdings, score_deal
from cogs.final_quest import ai as fq_ai
from cogs.final_quest import deduction
from cogs.final_quest.engine import FinalQuestEngine
from cogs.final_quest.search import bit
from tests.games.final_quest.test_final_quest_engine import table

# ---- Arsène ------------------------------------------------------------------------------------


def random_arsene(n: int, seed: int, steps: int) -> ArseneEngine:
    engine, rng = ArseneEngine(n, seed, {}), random.Random(seed)
    for _ in range(steps):
        if engine.is_terminal():
            break
        seat = rng.choice(engine.to_act())
        engine.apply(seat, rng.choice(engine.legal_actions(seat)))
    return engine


def test_arsene_determinizations_respect_voids_and_a_shown_card():
    """A seat that failed to follow a suit gets none of it; a trump seat that showed a card (no
    diamond 2–10 after its pick) gets none in hand, nor gave one to the dummy."""
    checked = set()
    for game in range(60):
        engine = random_arsene(3 + game % 2, game, 10 + game * 7 % 40)
        if engine.is_terminal():
            continue
        for draw in range(4):
            seat = draw % engine.num_players
            other = engine.determinize(seat, random.Random(draw))
            for s in range(engine.num_players):
                for suit in engine.voids[s]:
                    assert not [c for c in other.hands[s] if c[0] == suit]
                    checked.add("void")
            if engine.trumps is False and engine.trump_seat != seat:
                bare = engine.trump_seat
                low = [c for c in other.hands[bare] if c[0] == "D" and int(c[1:]) <= 10]
                gift = other.dummy_cards.get(bare, "S2")
                assert not low and not (gift[0] == "D" and int(gift[1:]) <= 10)
                checked.add("shown")
            assert other.hands[seat] == engine.hands[seat]
            assert other.dummy_cards.get(seat) == engine.dummy_cards.get(seat)
    assert checked == {"void", "shown"}


def test_arsene_evaluation_scores_deals_exactly_as_the_rules():
    """The evaluation's compact scorer gives what ``rules_scoring.score_deal`` gives (void deals
    undone), over random holdings, trick counts, dummies and contest mode."""
    rng = random.Random(7)
    for _ in range(3000):
        n = rng.choice((3, 4))
        h = new_holdings(n)
        for shop in h.shops:
            h.shops[shop] = h.shops[shop][rng.randrange(4) :]
        h.exempt_used = [rng.random() < 0.2 for _ in range(n)]
        h.tokens = [0 if used else rng.randrange(3) for used in h.exempt_used]
        h.chips = [rng.randrange(12) for _ in range(n)]
        h.pool = 8 - sum(h.tokens) - rng.randrange(2)
        tricks = [rng.randrange(8) for _ in range(n)]
        dummy = rng.randrange(1, 7) if n == 3 else None
        contest = rng.random() < 0.3
        taken = [3 - len(h.shops[s]) for s in range(1, 6)]
        chips, tokens, exempt = list(h.chips), list(h.tokens), list(h.exempt_used)
        pool, caught = arsene_ai.settle(
            taken, chips, tokens, exempt, h.pool, arsene_ai.grouped(tricks), dummy, contest
        )
        before = h.copy()
        _lines, _dummy, really_caught, _emptied = score_deal(h, tricks, dummy, contest)
        if len(really_caught) == n:  # a void deal is undone
            h, really_caught = before, []
        assert (chips, tokens, exempt, pool) == (h.chips, h.tokens, h.exempt_used, h.pool)
        assert taken == [3 - len(h.shops[s]) for s in range(1, 6)]
        assert caught == bool(really_caught)


def last_trick_push(tokens: int) -> ArseneEngine:
    """Four players, last trick won by seat 0 (2 tricks, 10 chips) who may push it to seat 1
    (2 tricks, no chips); shop 3 is empty; seats 2 and 3 will have 4 and 1 tricks."""
    e = ArseneEngine(4, 3, {})
    e.holdings.shops[3] = []
    e.holdings.chips = [10, 0, 2, 2]
    e.holdings.tokens = [tokens, 0, 0, 0]
    e.holdings.pool -= tokens
    e.hands = [[], [], [], []]
    e.aside, e.trumps, e.phase = [], True, PHASE_PUSH
    e.tricks = [2, 2, 4, 1]
    e.trick = [(0, "SA"), (1, "S2"), (2, "S3"), (3, "S4")]
    e.winner, e.push_target = 0, 1
    return e


def test_arsene_player_pushes_a_trick_that_would_take_it_to_the_police():
    """Taking the 3rd trick sends seat 0 to the empty shop 3 with its 10 chips and no tokens: it
    pushes it to seat 1, who is caught instead, and the game ends with seat 0 ahead."""
    engine = last_trick_push(tokens=0)
    assert engine.legal_actions(0) == ["take", "push:1"]
    assert ai.choose_action(engine, 0, "normal", seed=1) == "push:1"


def test_arsene_evaluation_values_the_whole_position():
    """Chips count, and so do tokens: two tokens buy one escape from the police later."""
    rich, poor = random_arsene(4, 5, 0), random_arsene(4, 5, 0)
    rich.holdings.chips = [6, 2, 2, 2]
    poor.holdings.chips = [2, 6, 2, 2]
    assert arsene_ai.evaluate(rich, 0) > 0.5 > arsene_ai.evaluate(poor, 0)
    guarded, bare = random_arsene(4, 5, 0), random_arsene(4, 5, 0)
    for e in (guarded, bare):
        e.holdings.chips = [5, 5, 5, 5]
        e.holdings.shops = {1: [], 2: [], 3: [5], 4: [], 5: [1]}
    guarded.holdings.tokens = [2, 0, 0, 0]
    guarded.holdings.pool -= 2
    assert arsene_ai.evaluate(guarded, 0) > arsene_ai.evaluate(bare, 0)


def test_arsene_work_is_the_same_whatever_the_valuation_cache_holds():
    """A position first valued in a decision is charged in full even when the process cache already
    holds it (a worker's cache depends on its past), so a cold and a warm process make the same
    move with the same work; and the charged work stays within the budget's share but one round."""
    engine = random_arsene(4, 11, 0)  # the start of a deal: the costliest playouts
    seat = engine.to_act()[0]
    runs = []
    for cold in (True, False):
        if cold:
            arsene_ai.future_values.cache_clear()
        clock = arsene_ai.Clock(100 * 1000 * ai.TARGET_SHARE)
        move = arsene_ai.choose(engine, seat, "normal", 100, random.Random(3), clock)
        runs.append((move, clock.rounds, clock.moves, len(clock.seen), clock.spent()))
    assert runs[0] == runs[1]
    _move, rounds, moves, valued, spent = runs[0]
    assert valued > 0 and moves > 40 * rounds  # whole deals were played out
    per_round = spent / rounds
    assert 50_000 <= spent < 50_000 + per_round


# ---- Final Quest --------------------------------------------------------------------------------


def random_final_quest(seed: int, turns: int) -> FinalQuestEngine:
    """Random structured questions, Final Quests, swaps and shows (never a free question)."""
    mode = "asker" if seed % 2 else "public"
    engine, rng = FinalQuestEngine(4, seed, {"rebuttal": mode}), random.Random(seed)
    for _ in range(turns):
        seat = engine.to_act()[0]
        kinds = ("askq", "fq", "swap", "show") if rng.random() < 0.5 else ("askq", "swap")
        engine.apply(seat, rng.choice([a for a in engine.legal_actions(seat) if a.startswith(kinds)]))
        if engine.is_terminal():
            break
        while engine.to_act() != [seat]:
            target = engine.to_act()[0]
            engine.apply(target, rng.choice([a for a in engine.legal_actions(target) if a != "reveal"]))
        if engine.main_action is not None:
            engine.apply(seat, "end")
    return engine


def world_of(engine: FinalQuestEngine) -> tuple[int, ...]:
    return (*(deduction.mask_of(h) for h in engine.hands), bit(engine.centre))


def test_final_quest_deduction_never_loses_the_true_deal():
    """Every seat's worlds contain the real one, whatever was asked, refuted, swapped or shown;
    a determinization is itself a game every seat could be in (its past redrawn consistently)."""
    for game in range(24):
        engine = random_final_quest(game, 3 + game % 10)
        if engine.is_terminal():
            continue
        for seat in range(4):
            assert world_of(engine) in deduction.worlds_for(engine, seat)
        other = engine.determinize(game % 4, random.Random(game))
        for seat in range(4):
            assert world_of(other) in deduction.worlds_for(other, seat), (game, seat)


def test_final_quest_probes_weigh_the_likeliest_hands_first():
    """At the start every hand of 3 from the 10 unseen cards is as likely (120 of them): only
    ``PROBES`` Final Quests are weighed; once the odds favour a hand, it is among them."""
    unseen = [n for n in range(1, 14) if n not in (1, 2, 3)]
    hands = [deduction.mask_of(c) for c in itertools.combinations(unseen, 3)]
    even = {h: 1 / len(hands) for h in hands}
    assert len(fq_ai.probes(even)) == fq_ai.PROBES
    likely = hands[-1]
    skewed = {h: (0.5 if h == likely else 0.5 / (len(hands) - 1)) for h in hands}
    named = [p[0] for p in fq_ai.probes(skewed)]
    assert len(named) == fq_ai.PROBES and named[0] == likely
    few = {h: 1 / 4 for h in hands[:4]}  # few hands left: every Final Quest within their cards
    possible = 0
    for h in few:
        possible |= h
    within = [h for h in deduction.HANDS if h & possible == h]
    assert len(within) <= fq_ai.PROBES and {p[0] for p in fq_ai.probes(few)} == set(within)


def test_final_quest_player_declines_a_free_question_it_cannot_read():
    e = table(first=3)
    e.apply(3, "ask:1")
    for level in ai.LEVELS:
        assert ai.choose_action(e, 1, level, seed=4) == "decline"
    e.apply(1, "decline")
    assert e.to_act() == [3] and e.public_view()["main_action"] is None
    assert "askq:1:sum_even" in e.legal_actions(3), "the asker takes another action"
    assert not e.public_facts(), "nothing was learnt"


def test_final_quest_player_calls_the_final_quest_once_the_deduction_is_certain():
    """Seats 2 and 3 reveal their hands; seat 1 answers NO to "Do you hold 12?": of the four cards
    left, 12 is the centre card, so seat 0 names seat 1's hand at once, at every level."""
    e = table(hands=[[1, 2, 3], [10, 11, 13], [4, 5, 6], [7, 8, 9]], centre=12, first=1)
    for asker, target in ((1, 2), (2, 3)):
        e.apply(asker, f"fq:{target}:1.2.3")
        e.apply(target, "reveal")
        e.apply(asker, "end")
    e.apply(3, "askq:1:has:12")
    e.apply(3, "end")
    for level in ai.LEVELS:
        assert ai.choose_action(e, 0, level, seed=2) == "fq:1:10.11.13"
    e.apply(0, "fq:1:10.11.13")
    assert e.results()["winner_team"] == 0


def test_final_quest_player_refutes_with_a_card_the_table_already_knows():
    e = table(hands=[[1, 2, 3], [5, 9, 10], [4, 6, 7], [8, 11, 12]], centre=13, first=1)
    e.apply(1, "show:5")
    e.apply(1, "askq:2:sum_even")
    e.apply(1, "end")
    e.apply(2, "fq:1:4.6.9")  # 5 or 10 refutes it
    assert fq_ai.choose(e, 1, "normal", 100, random.Random(0)) == "rebut:5"


def test_final_quest_player_asks_only_structured_questions_and_never_shows():
    for game in range(12):
        engine = random_final_quest(100 + game, 2 + game % 9)
        if engine.is_terminal():
            continue
        seat = engine.to_act()[0]
        for level in ai.LEVELS:
            action = ai.choose_action(engine, seat, level, seed=game)
            assert action in engine.legal_actions(seat)
            assert action.startswith(("askq:", "fq:", "swap:", "end")), action

