"""Any text sent as a move, in any game and position, is refused by the game's rules with a reason
that can be put in words (issue 33): the engine changes nothing, and drawing the refusal never
fails nor leaves a placeholder unfilled, in either language."""

from __future__ import annotations

import json
import logging

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core import cards
from bot.core.engine import IllegalAction
from bot.core.games import REGISTRY, register
from bot.core.i18n import Lang
from bot.tables import render
from cogs.arsene.render import ArseneUI
from cogs.donguri.render import DonguriUI
from cogs.final_quest.render import FinalQuestUI
from cogs.othello_torite.render import OthelloToriteUI
from cogs.saizen.render import SaizenUI
from tests.support.engines import engine_classes, random_positions

for _ui in (ArseneUI(), DonguriUI(), FinalQuestUI(), OthelloToriteUI(), SaizenUI()):
    if _ui.game_id not in REGISTRY:
        register(_ui)

GAMES = {cls.game_id: cls for cls in engine_classes()}
POSITIONS = {
    game: [p for n, options in cls.sample_configs()[:2] for p in random_positions(cls, n, options, 8, seed=33)]
    for game, cls in GAMES.items()
}
#: Moves of every game: sent to another game, or cut and changed, they make likely near-misses.
KNOWN = sorted({a for positions in POSITIONS.values() for p in positions for s in p.to_act() for a in p.legal_actions(s)})
NAMES = ["alice", "bob", "carol", "dave", "erin", "frank"]


@st.composite
def near_misses(draw) -> str:
    action = draw(st.sampled_from(KNOWN))
    cut = draw(st.integers(0, len(action)))
    extra = draw(st.text(alphabet="abcdefghijklmnopqrstuvwxyzSHDCXJ0123456789:._-", max_size=6))
    return action[:cut] + extra + action[cut + draw(st.integers(0, 2)) :]


SENT = st.one_of(near_misses(), st.text(max_size=80), st.sampled_from(["x", "play:x", "play:", ":", "play:Z1"]))


def state(engine) -> str:
    return json.dumps([engine.history, engine.public_view()] + [engine.observation(s) for s in range(engine.num_players)], sort_keys=True, default=str)


def refusal_texts(engine, seat: int, action: str) -> list[str]:
    before = state(engine)
    with pytest.raises(IllegalAction) as refused:
        engine.apply(seat, action)
    assert state(engine) == before, "a refused move changes nothing"
    names = NAMES[: engine.num_players]
    return [render.refusal(engine.game_id, refused.value, names, Lang(language)) for language in ("en", "ja")]


@pytest.mark.parametrize("game", sorted(GAMES))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_text_sent_as_a_move_is_refused_with_words(game, data, caplog):
    caplog.set_level(logging.WARNING, logger="bot.core.i18n")
    caplog.clear()
    engine = data.draw(st.sampled_from(POSITIONS[game]))
    seat = data.draw(st.sampled_from(engine.to_act()))
    action = data.draw(SENT)
    if action in engine.legal_actions(seat):
        return
    for text in refusal_texts(engine, seat, action):
        assert text and "{" not in text.replace(action, ""), text
    assert caplog.records == [], "every refusal has its message, with every placeholder filled"


def test_the_reported_donguri_case_names_no_card():
    (engine,) = [p for p in POSITIONS["donguri"][:1]]
    seat = engine.to_act()[0]
    assert refusal_texts(engine, seat, "x") == ["That is not a move of this game.", "それはこのゲームの手ではありません。"]
    held = next(a for a in KNOWN if a.startswith("play:") and a[5:] not in engine.hands[seat] and len(a) <= 8)
    assert "not in your hand" in refusal_texts(engine, seat, held)[0]


@given(st.text(max_size=8))
def test_a_card_label_never_fails(text):
    label = cards.label(text)
    assert label == "?" or cards.is_code(text)


def test_card_labels_of_real_cards():
    assert [cards.label(c) for c in ("S1", "H10", "X16", "J0", "D13")] == ["♠\ufe0eA", "♥10", "★16", "🃏", "♦K"]
    assert [cards.label(c) for c in ("", "S", "Z1", "S1x", "S١", "play:S1", "S-1")] == ["?"] * 7
