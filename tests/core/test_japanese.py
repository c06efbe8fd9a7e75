"""Japanese that reads as Japanese: no English colons between sentences, one さん per name in a
turn ping, lists joined with 「、」, and the rules and terms of the native review (issue 18)."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from bot.core.errors import UserError
from bot.core.games import REGISTRY
from bot.core.i18n import Lang, catalog
from bot.core.results import seat_results
from bot.events.render import podium_message
from bot.events.standings import Standing
from bot.storage.events import Entrant
from bot.tables.notices import ping_text
from bot.tables.opening import checked_options
from cogs.arsene.render import ArseneUI
from cogs.arsene.rules_core import trick_winner
from cogs.arsene.rules_scoring import new_holdings, score_deal
from cogs.donguri.render import DonguriUI
from cogs.final_quest.render import FinalQuestUI
from cogs.final_quest.texts import fact_line
from cogs.saizen.engine import SaizenEngine
from cogs.saizen.render import SaizenUI
from tests.support.othello_torite_engine import WHITE, position

# ---- no sentence joined to another with ": " --------------------------------------------------

#: A colon (possibly closing a bold span) followed by a space.
COLON = re.compile(r":(\*\*)? ")
#: Where a Japanese sentence ends: the predicate forms our catalogs use (です/ます and their past
#: and negative forms, ください, and plain-form verb and adjective endings).
PREDICATE = re.compile(
    r"(です|ます|ました|ません|でした|ください|ない|かった|った|した|いた|れた|きた|ある|いる|する|できる|だ)$"
)
CLAUSE_BREAK = re.compile(r"[。！？!?\n]")


def sentence_colons(text: str) -> list[str]:
    """The clauses of ``text`` that are complete sentences yet end in ": " instead of 「。」.

    Precisely: for each colon followed by a space, take the text before it back to the previous
    sentence break (。！？ or a new line), drop ** and one trailing parenthesis; if that clause
    ends in a predicate, the colon joins a sentence to what follows. A label such as
    「手番: {players}」 or 「必勝: …」 ends in a noun and is allowed: Japanese interfaces write
    labels with a colon too, and the review accepts them.
    """
    found = []
    for match in COLON.finditer(text):
        clause = CLAUSE_BREAK.split(text[: match.start()])[-1].replace("**", "").strip()
        clause = re.sub(r"\([^()]*\)$", "", clause)
        if PREDICATE.search(clause):
            found.append(clause)
    return found


def japanese_texts() -> list[tuple[str, str]]:
    out = []
    for key, value in catalog("ja").items():
        for text in value.values() if isinstance(value, dict) else [value]:
            out.append((key, text))
    return out


def test_the_colon_check_tells_sentences_from_labels():
    assert sentence_colons("{player} がパスしました: {other} はどちらでも置けます。")
    assert sentence_colons("あなたは質問されています: YES か NO で答えてください。")
    assert sentence_colons("**あなたのリードです**(トリック{number}): 赤と青のどちらでも。")
    assert sentence_colons("卓を開きました: {url}")
    assert not sentence_colons("手番: {players}")
    assert not sentence_colons("必勝: {cards} を出せば勝てるので、そのいずれかを出してください。")
    assert not sentence_colons("順位の決め方: {order}。抽選は変わりません。")
    assert not sentence_colons("{player} が質問:「{n} を持っていますか？」")


def test_no_japanese_entry_joins_two_sentences_with_a_colon():
    bad = [f"{key}: …{clause[-20:]}: …" for key, text in japanese_texts() for clause in sentence_colons(text)]
    assert not bad, "end the sentence with 「。」 (or rephrase) instead of ': ':\n" + "\n".join(bad)


def test_japanese_punctuation_is_consistent():
    bad = [key for key, text in japanese_texts() if "（" in text or "）" in text]
    assert not bad, f"use ( ) as the other entries do: {bad}"
    bad = [key for key, text in japanese_texts() if re.search(r"[\u3040-\u30ff\u4e00-\u9fff]\?", text)]
    assert not bad, f"a question in Japanese ends with ？: {bad}"


# ---- names in sentences, and the turn ping -----------------------------------------------------


def test_names_are_listed_as_each_language_writes_them():
    en, ja = Lang("en"), Lang("ja")
    assert [en.join(["A"] * n) for n in (0, 1)] == ["", "A"]
    assert en.join(["A", "B"]) == "A and B"
    assert en.join(["A", "B", "C"]) == "A, B and C"
    assert ja.join(["A", "B"]) == "A、B"
    assert ja.join(iter(["A", "B", "C"])) == "A、B、C"


async def ping(language: str, players: int, key: str) -> str:
    """The text posted at the table (turn ping or reminder) for this many players."""
    seats = [SimpleNamespace(user_id=n) for n in range(1, players + 1)]
    return ping_text(seats, key, Lang(language), "<t:1800000000:R>")


WHEN = "<t:1800000000:R>"


TURN, DUE, FREE = "clock.turn_ping", "clock.reminder", "notice.turn_ping"  # FREE: no clock


@pytest.mark.parametrize(
    ("key", "language", "players", "expected"),
    [
        (TURN, "ja", 1, f"<@1> さんの手番です。⏰ 期限は {WHEN} です。"),
        (TURN, "ja", 2, f"<@1> さん、<@2> さんの手番です。⏰ 期限は {WHEN} です。"),
        (TURN, "ja", 3, f"<@1> さん、<@2> さん、<@3> さんの手番です。⏰ 期限は {WHEN} です。"),
        (TURN, "en", 1, f"<@1>, it is your turn. ⏰ Move due {WHEN}."),
        (TURN, "en", 2, f"<@1> and <@2>, it is your turn. ⏰ Moves due {WHEN}."),
        (TURN, "en", 3, f"<@1>, <@2> and <@3>, it is your turn. ⏰ Moves due {WHEN}."),
        (DUE, "ja", 1, f"⏳ <@1> さん、手番の期限が近づいています({WHEN})。"),
        (DUE, "ja", 2, f"⏳ <@1> さん、<@2> さん、手番の期限が近づいています({WHEN})。"),
        (DUE, "ja", 3, f"⏳ <@1> さん、<@2> さん、<@3> さん、手番の期限が近づいています({WHEN})。"),
        (DUE, "en", 1, f"⏳ <@1>, your move is due {WHEN}."),
        (DUE, "en", 2, f"⏳ <@1> and <@2>, your moves are due {WHEN}."),
        (DUE, "en", 3, f"⏳ <@1>, <@2> and <@3>, your moves are due {WHEN}."),
        (FREE, "ja", 1, "<@1> さんの手番です。"),
        (FREE, "ja", 2, "<@1> さん、<@2> さんの手番です。"),
        (FREE, "en", 1, "<@1>, it is your turn."),
        (FREE, "en", 2, "<@1> and <@2>, it is your turn."),
    ],
)
async def test_a_ping_reads_right_for_one_two_and_three_players(key, language, players, expected):
    """One さん per name and no singular あなた in Japanese; "and" and plural moves in English."""
    assert await ping(language, players, key) == expected


# ---- rules and terms from the seeds -----------------------------------------------------------


def test_final_quest_answers_must_be_true_though_talk_may_lie():
    ja, en = catalog("ja")["final_quest.rules.speaking.text"], catalog("en")["final_quest.rules.speaking.text"]
    assert "嘘" in ja and "正直でなければなりません" in ja
    assert "lies" in en and "that answer must be true" in en


def test_a_void_arsene_deal_moves_on_to_the_next_deal():
    for key in ("arsene.rules.end.text", "arsene.event.deal_void", "arsene.summary.void"):
        ja, en = catalog("ja")[key], catalog("en")[key]
        assert "次のディール" in ja and "やり直" not in ja, key
        assert "next deal" in en and "replay" not in en, key


def test_the_three_player_arsene_text_has_both_seed_points():
    ja, en = catalog("ja")["arsene.rules.three.text"], catalog("en")["arsene.rules.three.text"]
    assert "争奪モードではトークンもなし" in ja and "no token in contest mode" in en
    assert "ダミープレイヤーだけがチップのない宝石店に入ってもゲームは終わりません" in ja
    assert "The dummy alone at an empty shop does not end the game" in en


def test_designer_terms():
    ja = catalog("ja")
    assert ja["arsene.name"] == "アルセーヌ新版"
    othello = [key for key, text in japanese_texts() if "リーダーマーカー" in text]
    assert not othello, f"the seed says マーカー: {othello}"
    assert ja["othello_torite.label.marker"] == "マーカー"


def test_tournament_help_names_what_a_japanese_member_sees():
    ja = catalog("ja")
    texts = [
        ja["cmd.tournament.opt.option1.description"],
        ja["tournament.error.bad_options"],
        ja["tournament.help.options.text"],
        ja["tournament.help.ratings.text"],
    ]
    new, length, rated = (
        ja["donguri.cmd.new.name"],
        ja["donguri.cmd.new.length.name"],
        ja["cmd.new.rated.name"],
    )
    for text in texts:
        assert "/new" not in text and "rated:" not in text, text
        assert f"「{new}」" in text, text
        if "length=" in text:
            assert f"「{length}" in text, "the English key is shown next to the option name the member sees"
    assert f"「{rated}」" in ja["tournament.help.ratings.text"]


def test_permission_errors_say_the_bot_lacks_the_permission():
    ja = catalog("ja")
    assert "ボットに必要な権限" in ja["error.missing_permissions"]
    assert "ボットにこの操作の権限がありません" in ja["error.bot_forbidden"]
    assert not [key for key, text in japanese_texts() if "あなたの選択です" in text]


# ---- the three rules the texts left out (review 2026-11-26, R1–R3) ----------------------------


def rules_text(game: str, section: str, language: str) -> str:
    return catalog(language)[f"{game}.rules.{section}.text"]


def test_arsene_rules_say_who_wins_a_trick_as_the_engine_decides():
    ja, en = rules_text("arsene", "play", "ja"), rules_text("arsene", "play", "en")
    assert "リードされたスートで最も強いカード(A が最強)がトリックに勝ちます" in ja
    assert "切り札ありのディールで切り札(ダイヤ)が出ていれば、最も強い切り札が勝ちます" in ja
    assert "The highest card of the suit led wins (A high)" in en
    assert "in a deal with trumps, the highest trump wins if any was played" in en
    plays = [(0, "S13"), (1, "S1"), (2, "H1"), (3, "D2")]
    assert trick_winner(plays, trumps=False) == (1, "S1"), "A high; another suit and an untrumped ♦ lose"
    assert trick_winner(plays, trumps=True) == (3, "D2"), "any trump beats the suit led"
    assert trick_winner([*plays, (0, "D11")], trumps=True) == (0, "D11"), "the highest trump"


def test_arsene_rules_say_an_exempted_player_takes_no_token_again():
    ja, en = rules_text("arsene", "scoring", "ja"), rules_text("arsene", "scoring", "en")
    assert "免除は1ゲームに1回だけで、免除を受けたプレイヤーはそれ以降、見のがしトークンを受け取りません" in ja
    assert "once per game: after that you never take a token again" in en
    holdings = new_holdings(4)
    holdings.exempt_used[0] = True
    lines, *_ = score_deal(holdings, [2, 2, 3, 4], None, contest=False)  # seats 0 and 1 clash at shop 2
    assert lines[0]["clash"] and lines[1]["clash"]
    assert holdings.tokens == [0, 1, 0, 0], "the exempted player clashes but takes no token"


def test_othello_rules_say_what_the_follower_plays_after_the_leader_passes():
    ja, en = rules_text("othello_torite", "tricks", "ja"), rules_text("othello_torite", "tricks", "en")
    assert "リーダーが置けずにパスした場合は、フォロー側は赤と青のどちらの駒を置いても構いません" in ja
    assert "フォロー側。そのトリックでリーダーでない方のことで、白とは限りません" in ja, "defined once (#6)"
    assert not [k for k in catalog("ja") if k.startswith("othello_torite.") and "後手" in catalog("ja")[k]], "後手 is White (#14)"
    assert "If the leader has to pass, the follower may place either suit" in en
    # Black leads and cannot place; White may then place blue on f1 and red on h6: both suits.
    engine, events = position({"g1": "Bb", "h1": "Wr", "h7": "Bb", "h8": "Wb"})
    assert [e.code for e in events] == ["passed"] and engine.to_act() == [WHITE]
    assert sorted(engine.legal_actions(WHITE)) == ["place:b:f1", "place:r:h6"]


# ---- lists, commands and punctuation -----------------------------------------------------------


def test_a_list_without_its_conjunction_follows_the_language_too():
    en, ja = Lang("en"), Lang("ja")
    assert en.join(["1", "5", "9"], conjunction=False) == "1, 5, 9"
    assert ja.join(["1", "5", "9"], conjunction=False) == "1、5、9"
    assert ja.join(["12チップ", "⌛ 時間切れ"], conjunction=False) == "12チップ、⌛ 時間切れ"
    assert [ja.join(["A"] * n, conjunction=False) for n in (0, 1)] == ["", "A"]


def test_japanese_lists_in_rendered_text_use_the_japanese_comma():
    """Review #13, #14, #26: result details, Final Quest cards, Saizen layout, the champion."""
    ja = Lang("ja")
    assert fact_line(
        {"kind": "final_quest", "turn": 3, "seat": 0, "target": 1, "named": [1, 5, 9], "response": "reveal", "cards": [2, 6, 10]},
        ["たろう", "はなこ", "じろう", "さくら"],
        ja,
    ) == "T3: たろう が はなこ にファイナルクエスト: 1、5、9 → はなこ が手札を公開: **2、6、10**"
    layout = SaizenUI().option_label(SaizenEngine.declared_options[1], "S:low+may", ja)
    assert layout == "♠︎ 小、MAY"
    result = {"ranks": [1, 2], "scores": [12, 3], "absent": [1]}
    rows = seat_results(ArseneUI(), result, ["たろう", "はなこ"], ja)
    assert rows[1].details == "3チップ、⌛ 時間切れ"


def test_the_champion_message_addresses_each_winner():
    """Review #13, #14: one さん per partner, 「、」 and 「！」; the title names the champion, not the event."""
    team = [Entrant(5, "たろう", 0, team=1), Entrant(6, "はなこ", 0, team=1)]
    t = SimpleNamespace(name="春の大会", entrants=team, name_of={5: "たろう", 6: "はなこ"}.get)
    winner = Standing(1, 1, 6.0, 2.0, 2, 0.0, 1000.0, 2, 0, 2, False)
    for language, title, text in (
        ("ja", "🏆 春の大会 優勝者", "**たろう** さん、**はなこ** さん、優勝おめでとうございます！"),
        ("en", "🏆 春の大会 champion", "Congratulations, **たろう** and **はなこ**!"),
    ):
        embed = podium_message(t, [winner], Lang(language), teams=True).embed
        assert embed.title == title and embed.description.startswith(text)


def test_a_command_named_in_japanese_text_is_given_in_both_forms():
    """Review #4: a Japanese client shows /卓 再開, an English one /table resume: give both."""
    bad = []
    for key, text in japanese_texts():
        english = re.findall(r"/(?:table|tournament|othello|finalquest|donguri|arsene|saizen)\b", text)
        localized = re.findall(r"/(?:卓|大会|オセロ|ファイナルクエスト|どんぐり|アルセーヌ|最善)(?=[ \s`])", text)
        if len(english) != len(localized):
            bad.append(f"{key}: {len(localized)} Japanese, {len(english)} English")
    assert not bad, "\n".join(bad)
    assert "/卓 再開(/table resume)" in catalog("ja")["error.paused"]


def test_no_half_width_exclamation_mark_after_japanese():
    bad = [key for key, text in japanese_texts() if re.search(r"[\u3040-\u30ff\u4e00-\u9fff]!", text)]
    assert not bad, f"a Japanese exclamation ends with ！: {bad}"


def test_tournament_rounds_are_kaisen_and_swiss_is_swiss_draw():
    """Review #23: 「スイスドロー」 and 「第n回戦」; 「ラウンド」 stays for rounds inside a game."""
    ja = catalog("ja")
    assert ja["tournament.round"].format(n=2) == "第2回戦"
    assert ja["cmd.tournament.format.swiss"] == "スイスドロー"
    tournament = [(k, v) for k, v in japanese_texts() if k.startswith(("tournament.", "cmd.tournament."))]
    assert not [k for k, v in tournament if "ラウンド" in v or "スイス式" in v]


def test_command_descriptions_end_in_the_plain_form():
    """Review #24: a slash command's description is a label: 「…を始める」, not 「…を始めます」."""
    bad = [
        f"{key}: {text}"
        for key, text in japanese_texts()
        if (key.startswith("cmd.") or ".cmd." in key) and key.endswith(".description") and re.search("ます|です", text)
    ]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize(
    ("game", "options", "ja", "en"),
    [
        ("final_quest", {"round_cap": 0}, "オプション「ラウンド上限」に「0」は指定できません。", "The option “round_cap” cannot be “0”."),
        ("donguri", {"length": "endless"}, "オプション「長さ」に「endless」は指定できません。", "The option “length” cannot be “endless”."),
        ("arsene", {"speed": 3}, "オプション「speed」に「3」は指定できません。", "The option “speed” cannot be “3”."),
    ],
)
def test_a_bad_option_is_named_as_the_member_sees_it(game, options, ja, en, monkeypatch):
    """Review #35: 「(round_cap = 0)」 showed the English key to a Japanese member."""
    ui = {"final_quest": FinalQuestUI, "donguri": DonguriUI, "arsene": ArseneUI}[game]()
    monkeypatch.setitem(REGISTRY, game, ui)
    with pytest.raises(UserError) as refused:
        checked_options(game, options)
    assert Lang("ja")(refused.value.key, **refused.value.params) == ja
    assert Lang("en")(refused.value.key, **refused.value.params) == en


def test_one_concept_one_word():
    """Review 2026-11-28 #12-#16, #29-#32: 「各回戦」 for a limit, 「全n回戦」 for a count, 主催者,
    既定, 卓を立てる for a player's table, コンピューター in option names."""
    ja = catalog("ja")
    assert ja["tournament.round_hours"].startswith("各回戦は最大") and "1回戦" not in ja["cmd.tournament.opt.round_hours.description"]
    assert ja["tournament.rounds"]["other"].format(count=3) == "全3回戦"
    words = {"初期値": "既定", "大会運営": "主催者", "到達ラウンド": "到達した回戦"}
    assert not [(k, w) for k, text in japanese_texts() for w in words if w in text]
    assert ja["server.name.organizer_role"] == ja["cmd.settings.organizer_role.name"] == "主催者ロール"
    assert ja["cmd.settings.computer_level.name"] == ja["cmd.tournament.opt.computer_level.name"] == "コンピューターの強さ"
    opening = [k for k, text in japanese_texts() if re.search(r"卓を開(く|き|け)", text) and "tournament" not in k]
    assert not opening, f"a player's table is 立てる: {opening}"
