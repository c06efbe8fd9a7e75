"""The rules texts say what the engines do: the rule the review of 2026-11-28 found stated wrongly
(#1, #8) and the ones it found missing (#2-#7), each checked in both languages beside a scenario
that shows the engine playing it."""

from __future__ import annotations

from bot.core.i18n import catalog
from tests.support.arsene_engine import at_shops, contest_game, event, finish_deal, line
from tests.support.final_quest_engine import table as final_quest_table
from tests.support.saizen_engine import act, playable
from tests.support.saizen_engine import table as saizen_table


def text(key: str, language: str) -> str:
    return catalog(language)[key]


def both(key: str) -> tuple[str, str]:
    return text(key, "ja"), text(key, "en")


# ---- Arsène --------------------------------------------------------------------------------------


def test_the_game_ends_when_someone_loses_chips_not_when_someone_is_caught():
    """#1, #8: an exempted player is caught by the police, and play goes on."""
    for key in ("arsene.rules.goal.text", "arsene.mark.police.long"):
        ja, en = both(key)
        assert "ポリスに捕まったら" not in ja and "caught by the police the game ends" not in en, key
    ja, en = both("arsene.rules.goal.text")
    assert "ポリスにチップを没収されたら、そのディールの後でゲーム終了" in ja
    assert "When someone loses their chips to the police, the game ends after that deal" in en
    ja, en = both("arsene.mark.police.long")
    assert "没収された人がいれば、そのディールの後でゲームが終わります" in ja
    assert "If anyone lost their chips, the game ends after that deal" in en
    e = at_shops([1], [4, 3, 2, 1], [2, 0, 0, 0], 6)
    events = finish_deal(e, [1, 10, 0, 0])
    assert line(events, 0)["police"] == "exempt" and e.holdings.chips[0] == 4
    assert not e.is_terminal(), "caught, exempted, and the game goes on"


def test_an_empty_shop_gives_no_clash_token_and_the_exemption_counts_the_tokens_held_before():
    """#2: two players holding one token each clash at an empty shop: no tokens, both lose chips."""
    ja, en = both("arsene.rules.scoring.text")
    assert "空の宝石店ではバッティングしても見のがしトークンはもらえず" in ja
    assert "このディールの前に持っていたトークンで決まります" in ja
    assert "At an empty shop a clash gives no token; the exemption counts the tokens you held before this deal" in en
    e = at_shops([1], [4, 3, 2, 1], [1, 1, 0, 0], 6)
    events = finish_deal(e, [1, 1, 9, 0])
    assert line(events, 0)["clash"] and [line(events, s)["police"] for s in (0, 1)] == ["caught", "caught"]
    assert e.holdings.tokens[:2] == [1, 1] and e.holdings.chips[:2] == [0, 0]


def test_in_contest_mode_the_police_act_before_the_exchange():
    """#3: at an empty shop the exempted player keeps 3 chips, the other loses 5, then they swap."""
    ja, en = both("arsene.rules.advanced.text")
    assert "空の宝石店では、先にポリスの判定をしてから交換します" in ja
    assert "At an empty shop the police act first, then the exchange" in en
    e = contest_game([5, 3, 0, 0], [0, 2, 0, 0])
    e.holdings.shops[1] = []
    events = finish_deal(e, [1, 1, 9, 0])
    assert [line(events, s)["police"] for s in (0, 1)] == ["caught", "exempt"]
    assert e.holdings.chips[:2] == [3, 0]


def test_one_exempted_player_keeps_the_deal_from_being_void():
    """#7: the void deal needs every player caught and none exempted."""
    ja, en = both("arsene.rules.end.text")
    assert "全員が同じディールでポリスに捕まり、誰も免除を受けなかった場合は" in ja
    assert "if every player was caught in the same deal and none was exempted, the deal is void" in en
    e = at_shops((1, 2, 3, 5), [3, 4, 0, 6], [2, 0, 1, 0])
    events = finish_deal(e, [1, 2, 3, 5])
    assert event(events, "deal_scored")["void"] is False and e.is_terminal()


# ---- Saizen, Final Quest, Othello ----------------------------------------------------------------


def test_must_win_binds_the_playoff_cards_too():
    """#4: in the playoff seat 1 must beat seat 0's 8 by number, whatever the suit."""
    ja, en = both("saizen.rules.playoff.text")
    assert "決勝戦で出すカードにも必勝が適用されます" in ja
    assert "必勝 applies to playoff cards too, by number, in the same order" in en
    e = saizen_table([["S5", "C8", "C1"], ["H5", "D9", "D3", "D8"], ["S1", "S2"]], layout="S:playoff")
    act(e, "S5", "H5", "S2", "C8")
    assert playable(e) == ["D9"]


def test_a_card_the_table_knows_cannot_be_shown_again():
    """#5: after showing 2, only 1 and 3 may still be shown."""
    ja, en = both("final_quest.rules.turn.text")
    assert "卓の全員がすでに知っているカードは、もう一度見せることはできません" in ja
    assert "a card the whole table already knows you hold cannot be shown again" in en
    e = final_quest_table(first=0)
    e.apply(0, "show:2")
    assert [a for a in e.legal_actions(0) if a.startswith("show:")] == ["show:1", "show:3"]


def test_the_asked_player_may_decline_and_computer_seats_take_no_free_question():
    """#5 (related): the Ruling of 2026-11-26, and the button that carries it out."""
    ja, en = both("final_quest.rules.here.text")
    decline_ja, decline_en = both("final_quest.action.decline")
    assert f"「{decline_ja}」で断れます" in ja and "CPU の席には自由な質問はできません" in ja
    assert f"declines one that YES or NO cannot answer with **{decline_en}**" in en
    assert "A computer seat cannot be asked free questions" in en
    e = final_quest_table(first=0)
    e.apply(0, "ask:1")
    e.apply(1, "decline")
    assert e.to_act() == [0] and e.main_action is None and not e.facts, "lapsed: nothing recorded"


def test_the_english_othello_text_says_what_the_far_end_is():
    """#6: the Japanese text said it; the English did not."""
    assert "挟む先とは、オセロと同じくその方向で最初に出会う自分の駒のことです" in text("othello_torite.rules.placing.text", "ja")
    assert "The far end is your first own disc along the line, as in Othello" in text("othello_torite.rules.placing.text", "en")
