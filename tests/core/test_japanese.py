"""Japanese that reads as Japanese: no English colons between sentences, one さん per name in a
turn ping, lists joined with 「、」, and the rules and terms of the native review (issue 18)."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from bot.core.i18n import Lang, catalog
from bot.tables.delivery import ping_text

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


TURN, DUE = "clock.turn_ping", "clock.reminder"


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
