"""Random Saizen games: every event and refusal has a catalog entry, and legal moves match a reference."""

from __future__ import annotations

import random
import tomllib
from collections import Counter
from pathlib import Path

import pytest

from bot.core.engine import IllegalAction
from cogs.saizen.engine import SaizenEngine


def test_locale_has_every_code():
    catalog = tomllib.loads((Path(__file__).parents[3] / "cogs/saizen/locales/en.toml").read_text())["saizen"]
    seen_events, seen_errors = set(), set()
    rng = random.Random(5)
    for game in range(30):
        e = SaizenEngine(2 + game % 5, game, {"jokers": game % 3, "layout": LAYOUTS[game % len(LAYOUTS)]})
        while not e.is_terminal():
            seat = e.to_act()[0]
            legal = e.legal_actions(seat)
            obs = e.observation(seat)
            for card in obs.get("hand", []):
                if f"play:{card}" not in legal:
                    try:
                        e.apply(seat, f"play:{card}")
                    except IllegalAction as err:
                        seen_errors.add(err.code)
            seen_events |= {ev.code for ev in e.apply(seat, rng.choice(legal))}
    assert seen_events <= set(catalog["event"])
    assert seen_errors <= set(catalog["error"])
    assert {"must_win", "must_pair", "must_outpair", "must_join", "must_follow"} <= seen_errors


# ---- property test: legal moves respect the rule card in force --------------------------------

LAYOUTS = [
    "",
    "*:playoff",
    "*:may",
    "*:may+playoff",
    "*:low+playoff+earlier",
    "*:earlier",
    "*:free",
    "S:low+playoff H:may D:earlier+playoff C:free",
]


def reference_playable(obs):
    """Independent reading of the rules: the cards the seat to act must choose among.

    Returns (cards, branch) where branch names the rule that decided ("lead", "follow", "win",
    "pair", "outpair", "join", "free").
    """
    hand = obs["hand"]
    trick = obs["trick"]
    rules = trick["rules"]
    in_playoff = obs["phase"] == "playoff"
    if in_playoff:
        played = [p["card"] for p in trick["playoffs"][-1]["plays"]]
        led = None
    else:
        played = [p["card"] for p in trick["plays"]]
        led = trick["led_suit"]
    if not played:
        return set(hand), "lead"
    low = rules["strength"] == "low"

    def power(card):
        if card.startswith("J"):
            return 1000
        rank = int(card[1:])
        return 14 - rank if low else rank

    def num(card):
        return "joker" if card.startswith("J") else int(card[1:])

    def counts_as_following(card):
        return led is None or card.startswith("J") or card[0] == led

    if led is not None and rules["follow"] == "must" and any(counts_as_following(c) for c in hand):
        pool = {c for c in hand if counts_as_following(c)}
        branch = "follow"
    else:
        pool = set(hand)
        branch = "free"
    if rules["win"] == "free":
        return pool, branch

    if not in_playoff and rules["same"] == "ignore":

        def wins_now(card):
            seq = played + [card]
            contenders = [(power(x), i) for i, x in enumerate(seq) if counts_as_following(x)]
            top = max(p for p, _ in contenders)
            at_top = [i for p, i in contenders if p == top]
            chosen = at_top[-1] if rules["tie"] == "later" else at_top[0]
            return chosen == len(played)

        winners = {c for c in pool if wins_now(c)}
        return (winners, "win") if winners else (pool, branch)

    tally = Counter(num(c) for c in played)
    pair_numbers = [k for k, v in tally.items() if v > 1]

    def number_power(k):
        return 1000 if k == "joker" else (14 - k if low else k)

    if not pair_numbers:
        best = max((power(x) for x in played if counts_as_following(x)), default=-1)
        clean = {c for c in pool if counts_as_following(c) and num(c) not in tally and power(c) > best}
        if clean:
            return clean, "win"
        matches = {c for c in pool if num(c) in tally}
        return (matches, "pair") if matches else (pool, branch)
    pending = max(number_power(k) for k in pair_numbers)
    stronger = {c for c in pool if num(c) in tally and number_power(num(c)) > pending}
    if stronger:
        return stronger, "outpair"
    joins = {c for c in pool if tally[num(c)] > 1 and number_power(num(c)) == pending}
    return (joins, "join") if joins else (pool, branch)


BRANCH_CODES = {
    "win": "must_win",
    "pair": "must_pair",
    "outpair": "must_outpair",
    "join": "must_join",
}


@pytest.mark.parametrize("layout", LAYOUTS)
def test_property_legal_moves_respect_the_rule_card(layout):
    branches = Counter()
    for game in range(25):
        n = 2 + game % 5
        rng = random.Random(game)
        e = SaizenEngine(n, 100 + game, {"jokers": game % 3, "layout": layout})
        while not e.is_terminal():
            seat = e.to_act()[0]
            legal = e.legal_actions(seat)
            obs = e.observation(seat)
            if obs["phase"] in ("play", "playoff"):
                expected, branch = reference_playable(obs)
                branches[branch] += 1
                offered = {a.split(":")[1] for a in legal}
                assert offered == expected, (obs, legal)
                led = obs["trick"]["led_suit"]
                rules = obs["trick"]["rules"]
                # the property itself, stated directly
                if obs["phase"] == "play" and obs["trick"]["plays"] and rules["follow"] == "must":
                    if any(c[0] in (led, "J") for c in obs["hand"]):
                        assert all(c[0] in (led, "J") for c in offered)
                for card in set(obs["hand"]) - offered:
                    with pytest.raises(IllegalAction) as info:
                        e.apply(seat, f"play:{card}")
                    if branch in BRANCH_CODES:
                        assert info.value.code in (BRANCH_CODES[branch], "must_follow", "must_follow_joker")
                        if info.value.code == BRANCH_CODES[branch]:
                            assert set(info.value.params["cards"]) == expected
                    else:
                        assert info.value.code in ("must_follow", "must_follow_joker")
            e.apply(seat, rng.choice(legal))
    assert branches["lead"]
    if "may" not in layout:
        assert branches["follow"]
    if layout in ("", "*:may", "*:earlier"):
        assert branches["win"]
    if "playoff" in layout:
        assert branches["pair"] and branches["outpair"] + branches["join"]
