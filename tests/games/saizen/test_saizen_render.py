"""Fast checks of the Saizen renderer: record lines across event batches, prompts that overflow the
buttons, joker leads, greyed-card reasons, and the rule-card picture."""

from __future__ import annotations

import io
import random

from PIL import Image

from bot.core.i18n import Lang
from bot.tables.choices import MAX_BUTTONS
from cogs.saizen.engine import SaizenEngine
from cogs.saizen.image import rule_cards_png
from cogs.saizen.render import SaizenUI
from tests.support.saizen_engine import table

UI = SaizenUI()
TR = Lang("en")
NAMES = ["ann", "ben", "cat"]


def batches(e, *cards):
    """Record lines, one refresh per move (the worst case: every seat a human)."""
    lines = []
    for card in cards:
        events = e.apply(e.to_act()[0], card if ":" in card else f"play:{card}")
        lines += UI.record(events, e.public_view(), NAMES, TR)
    return lines


def test_trick_line_names_every_play_and_the_playoff_even_across_batches():
    e = table([["S5", "C2", "H9"], ["H5", "D3", "H8"], ["S13", "D4", "C9"]], layout="*:playoff")
    lines = batches(e, "S5", "H5", "S13", "C2", "D3")
    (line,) = [x for x in lines if x.startswith("Trick 1")]
    assert line == (
        "Trick 1 · ♠︎ led: ♠︎5 ann · ~~♥5 ben~~ · ♠︎K cat ⚔ playoff on 5 (ann and ben): ♣︎2 ann · ♦3 ben → **ben**"
    )


def test_a_trick_line_is_the_same_whenever_it_is_drawn():
    """A trick's event carries the whole trick: drawn with the table as it stood after that trick or
    after the next one (a pass that read the log while more moves came), the line is the same."""
    e = table([["S5", "C2", "H9"], ["H5", "D3", "H8"], ["S13", "D4", "C9"]], layout="*:playoff")
    events = []
    for card in ("S5", "H5", "S13", "C2", "D3"):
        events += e.apply(e.to_act()[0], f"play:{card}")
    then = UI.record(events, e.public_view(), NAMES, TR)
    while (e.public_view()["last_trick"] or {}).get("number") == 1:  # the next trick ends too
        seat = e.to_act()[0]
        e.apply(seat, e.legal_actions(seat)[0])
    later = UI.record(events, e.public_view(), NAMES, TR)
    assert later == then
    assert then[-1].startswith("Trick 1 · ♠︎ led: ♠︎5 ann · ~~♥5 ben~~ · ♠︎K cat ⚔ playoff on 5")


def test_the_last_trick_of_a_round_and_the_hand_passing_are_recorded():
    e = table([["S5"], ["S8", "H2"], ["S9", "D4"]])
    lines = batches(e, "S5", "S8", "S9")
    assert lines[0] == "Trick 1 · ♠︎ led: ♠︎5 ann · ♠︎8 ben · ♠︎9 cat → **cat**"
    assert lines[1] == "**Round 1 over** · tricks: ann 0 · ben 0 · cat 1"
    assert lines[2] == (
        "Sets pass to the previous seat: ann → cat (1 card) · ben → ann (2 cards) · cat → ben (2 cards)"
    )
    assert lines[3] == "**Round 2** begins; cat leads."


def test_greyed_cards_explain_must_follow_and_must_win():
    e = table([["S5", "C2"], ["S3", "S9", "S13", "H4"], ["D1", "D2"]])
    e.apply(0, "play:S5")
    prompt = UI.prompt(e, 1, NAMES, TR)
    assert "Greyed — Must follow ♠︎ (MUST)." in prompt.text
    assert "Greyed — Must win (必勝): ♠︎9 ♠︎K would win now — play one of them." in prompt.text
    playable = [c.label for c in prompt.choices if c.action]
    assert playable == ["♠︎9", "♠︎K"]


def test_joker_lead_offers_each_suit_once_and_two_players_overflow_to_one_select():
    hand = [f"{s}{r}" for s in "SH" for r in range(1, 14)] + ["J0", "J1"]
    e = table([hand, ["D1"]], jokers=2)
    prompt = UI.prompt(e, 0, ["ann", "ben"], TR)
    actions = [c.action for c in prompt.choices] + [c.action for m in prompt.menus for c in m.choices]
    assert len(prompt.choices) == MAX_BUTTONS and len(prompt.menus) == 1
    assert len(actions) == len(set(actions)) == 26 + 4
    assert [a for a in actions if a.startswith("play:J")] == [f"play:J0:{s}" for s in "SHDC"]


def test_chip_prompt_is_pass_plus_a_select_while_all_twenty_chips_can_move():
    e = SaizenEngine(3, 1, {})
    seat = e.to_act()[0]
    prompt = UI.prompt(e, seat, NAMES, TR)
    assert [c.action for c in prompt.choices] == ["pass"]
    (menu,) = prompt.menus
    assert len(menu.choices) == 20 and menu.choices[0].label == "♠︎ 大 high → 小 low"
    e.apply(seat, "chip:S:strength")
    prompt = UI.prompt(e, e.to_act()[0], NAMES, TR)
    assert len(prompt.choices) == 20 and not prompt.menus
    assert "chip:S:strength" not in [c.action for c in prompt.choices]
    assert "♠︎ 小 low 🔒" in UI.table_view(e.public_view(), NAMES, TR).fields[0][1]


def test_options_and_refusal_params_are_readable():
    summary = UI.option_summary({"jokers": 1, "layout": "S:low+may,H:playoff"}, 3, TR)
    assert summary == "Jokers: 1\nStarting layout: ♠︎ 小 low, MAY follow · ♥ 決勝 playoff"
    assert UI.option_summary({"jokers": 0, "layout": ""}, 3, TR).endswith(
        "standard (every card: 大 high · 後 later · 無視 ignore · MUST follow · 必勝 must win)"
    )
    params = UI.format_params({"cards": ["S12", "J0"], "suit": "S"}, NAMES)
    assert TR("saizen.error.must_win", **params) == "Must win (必勝): ♠︎Q 🃏 would win now — play one of them."


def test_picture_shows_a_moved_chip():
    e = SaizenEngine(3, 2, {})
    before = rule_cards_png(e.public_view()["rule_cards"])
    e.apply(e.to_act()[0], "chip:H:tie")
    rule_cards = e.public_view()["rule_cards"]
    after = rule_cards_png(rule_cards, "H")
    image = Image.open(io.BytesIO(after))
    assert image.size[0] == 800 and after != before


def test_random_games_render_every_state():
    rng = random.Random(3)
    for game in range(6):
        n = 2 + game % 5
        names = [f"p{i}" for i in range(n)]
        e = SaizenEngine(n, game, {"jokers": game % 3, "layout": "*:playoff" if game % 2 else ""})
        while not e.is_terminal():
            seat = e.to_act()[0]
            prompt = UI.prompt(e, seat, names, TR)
            offered = {c.action for c in prompt.choices if c.action} | {
                c.action for m in prompt.menus for c in m.choices
            }
            legal = set(e.legal_actions(seat))
            jokers = {a for a in legal if a.startswith("play:J1:")} if "J0" in e.hands[seat] else set()
            assert offered == legal - jokers, "every legal move is offered once (one joker per lead)"
            assert len(prompt.choices) <= MAX_BUTTONS and all(len(m.choices) <= 25 for m in prompt.menus)
            events = e.apply(seat, rng.choice(sorted(offered)))
            assert all("saizen." not in line for line in UI.record(events, e.public_view(), names, TR))
        UI.table_view(e.public_view(), names, TR)


def test_the_joker_sentence_appears_only_to_a_leader_holding_a_joker():
    with_joker = table([["S5", "J0", "H9"], ["H5", "D3"], ["S13", "D4"]], jokers=1)
    lead = UI.prompt(with_joker, 0, NAMES, TR).text
    assert "you lead trick 1" in lead and "Leading a joker names the suit it leads." in lead
    without = table([["S5", "C2", "H9"], ["H5", "D3"], ["S13", "D4"]], jokers=1)
    for language, sentence in (("en", "Leading a joker"), ("ja", "ジョーカーでリード")):
        text = UI.prompt(without, 0, NAMES, Lang(language)).text
        assert sentence not in text, language
    assert "ジョーカーでリードするときは" in UI.prompt(with_joker, 0, NAMES, Lang("ja")).text


def test_the_prompt_shows_the_rule_cards_in_force_with_the_led_suit_marked():
    e = table([["S5", "C2"], ["H5", "S3"], ["S13", "D4"]], layout="S:low+may")
    e.apply(0, "play:S5")
    for seat in (1, 2):  # the seat to play, and one waiting
        text = UI.prompt(e, seat, NAMES, TR).text
        assert "**Rule cards now** (the suit led decides):" in text
        assert "**♠︎ 小 low · 後 later · 無視 ignore · MAY follow · 必勝 must win** ◀" in text
        assert "♥ 大 high · 後 later · 無視 ignore · MUST follow · 必勝 must win" in text
    ja = UI.prompt(e, 1, NAMES, Lang("ja")).text
    assert "**現在のルールカード**" in ja and "◀" in ja


def test_a_waiting_seat_has_no_greyed_reasons_and_the_seat_to_act_has_its_own():
    rng = random.Random(4)
    e = SaizenEngine(3, 4, {})
    while not any(a.startswith("play:") for s in e.to_act() for a in e.legal_actions(s)):
        seat = e.to_act()[0]
        e.apply(seat, rng.choice(e.legal_actions(seat)))  # past the chip step
    ui, tr = SaizenUI(), Lang("en")
    names = ["alice", "bob", "carol"]
    (acting,) = e.to_act()
    for seat in range(3):
        if seat != acting:
            assert ui.greyed(e, seat, names, tr) == [], "waiting is not a refusal of each card"
    for reason in ui.greyed(e, acting, names, tr):
        assert "play:" not in reason
