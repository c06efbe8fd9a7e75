"""Japanese and English everywhere: catalog parity, placeholders, the slash-command translator, and
one Donguri flow in each language through SimCord (no literals in code: test_i18n_literals.py)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from string import Formatter
from typing import Any

import discord
import pytest
from discord.app_commands import TranslationContext, locale_str
from discord.app_commands import TranslationContextLocation as Where

from bot.core.i18n import _flatten, catalog, t
from bot.core.translator import CatalogTranslator, translate_key, valid_name
from tests.support.catalogs import ROOT, catalog_pairs, translated
from tests.support.locales import japanese, members_in, reply_text
from tests.support.table import add_computer, embed_text, enabled_ids, hand_dm, labels

#: Catalogs that must be complete in both languages now; other games join when they get a ja.toml.
REQUIRED = {"bot", "donguri"}


def flat(path: Path) -> dict[str, Any]:
    out: dict[str, Any] = {}
    _flatten("", tomllib.loads(path.read_text(encoding="utf-8")), out)
    return out


def fields(text: str) -> set[str]:
    """Placeholder names of a format string ({name}, {name!r:>3} and {name.attr} give "name")."""
    names = set()
    for _literal, field, _spec, _conv in Formatter().parse(text):
        if field is not None:
            names.add(re.split(r"[.\[]", field)[0])
    return names


def forms(value: Any) -> dict[str, str]:
    return value if isinstance(value, dict) else {"other": value}


PAIRS = catalog_pairs()
PAIR_IDS = [name for name, _en, _ja in PAIRS]


def _require_ja(name: str, ja: Path) -> None:
    if not ja.exists():
        assert name not in REQUIRED, f"{ja.relative_to(ROOT)} is required"
        pytest.skip(f"{name}: no ja.toml yet (issue 8 still open for this game)")


# ---- (a) every key in both languages -----------------------------------------------------------


@pytest.mark.parametrize(("name", "en", "ja"), PAIRS, ids=PAIR_IDS)
def test_every_key_exists_in_both_languages(name, en, ja):
    _require_ja(name, ja)
    en_keys, ja_keys = set(flat(en)), set(flat(ja))
    not_in_ja, not_in_en = sorted(en_keys - ja_keys), sorted(ja_keys - en_keys)
    assert not not_in_ja, f"missing in {ja.relative_to(ROOT)}: {not_in_ja}"
    assert not not_in_en, f"missing in {en.relative_to(ROOT)}: {not_in_en}"


def test_bot_and_donguri_are_translated():
    assert translated() >= REQUIRED


# ---- (b) the same placeholders, plural-safe ----------------------------------------------------


@pytest.mark.parametrize(("name", "en", "ja"), PAIRS, ids=PAIR_IDS)
def test_placeholders_match_between_languages(name, en, ja):
    _require_ja(name, ja)
    en_cat, ja_cat = flat(en), flat(ja)
    problems = []
    for key in sorted(en_cat.keys() & ja_cat.keys()):
        en_forms, ja_forms = forms(en_cat[key]), forms(ja_cat[key])
        for language, found in (("en", en_forms), ("ja", ja_forms)):
            if "other" not in found or not set(found) <= {"one", "other"}:
                problems.append(f"{key} ({language}): a plural table needs 'other' and may add 'one'")
            for text in found.values():
                if not isinstance(text, str) or not text.strip():
                    problems.append(f"{key} ({language}): empty or not text")
                elif "" in fields(text):
                    problems.append(f"{key} ({language}): positional placeholder, use a name")
        if problems:
            continue
        for form in {"one", "other"} & (en_forms.keys() | ja_forms.keys()):
            en_text = en_forms.get(form, en_forms["other"])
            ja_text = ja_forms.get(form, ja_forms["other"])
            if fields(en_text) != fields(ja_text):
                problems.append(
                    f"{key} [{form}]: en {sorted(fields(en_text))} ≠ ja {sorted(fields(ja_text))}"
                )
    assert not problems, "\n".join(problems)


PLURAL_NOUN = re.compile(r"\{count\}\s+[A-Za-z]+s\b")


@pytest.mark.parametrize(("name", "en", "ja"), PAIRS, ids=PAIR_IDS)
def test_counted_english_nouns_have_plural_forms(name, en, ja):
    """A text like '{count} cards' reads '1 cards' for one card: it must be a one/other table."""
    _require_ja(name, ja)
    bad = sorted(k for k, v in flat(en).items() if isinstance(v, str) and PLURAL_NOUN.search(v))
    assert not bad, f"give these keys one/other forms: {bad}"


def test_plural_forms_are_chosen_by_count():
    assert t("donguri.count.cards", "en", count=1) == "1 card"
    assert t("donguri.count.cards", "en", count=11) == "11 cards"
    assert t("donguri.count.cards", "ja", count=1) == "1枚"
    assert t("clock.hours", "ja", count=2) == "2時間"


# ---- (d) the translator -------------------------------------------------------------------------


async def test_translator_gives_japanese_for_ja_and_keeps_the_default_otherwise():
    translator = CatalogTranslator()
    rules = locale_str("rules", key="donguri.cmd.rules.name")
    name_context = TranslationContext(Where.command_name, None)
    assert await translator.translate(rules, discord.Locale.japanese, name_context) == "ルール"
    for locale in (discord.Locale.american_english, discord.Locale.british_english, discord.Locale.french):
        assert await translator.translate(rules, locale, name_context) is None
    assert await translator.translate(locale_str("rules"), discord.Locale.japanese, name_context) is None
    description = locale_str("How to play", key="donguri.cmd.rules.description")
    text = await translator.translate(
        description, discord.Locale.japanese, TranslationContext(Where.command_description, None)
    )
    assert "どんぐりと山猫" in text
    assert translate_key("no.such.key", "ja", Where.command_description) is None


def test_names_follow_discords_rules():
    for good in ("new", "turn_dms", "どんぐり", "ルール", "一時停止", "参加中の卓", "a-b", "x" * 32):
        assert valid_name(good), good
    for bad in ("New", "new game", "", "x" * 33, "卓・新規", "rules!"):
        assert not valid_name(bad), bad


def test_an_invalid_japanese_name_is_left_out(monkeypatch):
    monkeypatch.setitem(catalog("ja"), "donguri.cmd.rules.name", "Rules of the game")
    assert translate_key("donguri.cmd.rules.name", "ja", Where.command_name) is None


OUR_ROOTS = (
    "bot.tables.commands",
    "bot.tables.finding",
    "bot.tables.settings_command",
    "bot.events.commands",
    "bot.ratings.commands",
    "cogs.donguri.cog",
    "cogs.arsene.cog",
    "cogs.saizen.cog",
    "cogs.final_quest.cog",
    "cogs.othello_torite.cog",
)


def _walk_payload(node: dict[str, Any], path: str, problems: list[str]) -> None:
    names = node.get("name_localizations") or {}
    descriptions = node.get("description_localizations") or {}
    if not valid_name(names.get("ja", "")):
        problems.append(f"{path}: Japanese name {names.get('ja')!r}")
    if not 1 <= len(descriptions.get("ja", "")) <= 100:
        problems.append(f"{path}: Japanese description {descriptions.get('ja')!r}")
    siblings = [o.get("name_localizations", {}).get("ja") for o in node.get("options", [])]
    if len(siblings) != len(set(siblings)):
        problems.append(f"{path}: Japanese option names repeat: {siblings}")
    for option in node.get("options", []):
        _walk_payload(option, f"{path} {option['name']}", problems)
    for choice in node.get("choices", []) or []:
        if not (choice.get("name_localizations") or {}).get("ja"):
            problems.append(f"{path} = {choice['value']}: no Japanese choice name")


async def test_every_platform_and_donguri_command_is_synced_with_japanese(simcord_env):
    bot = simcord_env.bot
    ours = {c.name for c in bot.tree.get_commands() if c.module in OUR_ROOTS}
    assert ours == {
        "table",
        "mygames",
        "tables",
        "notifications",
        "donguri",
        "arsene",
        "saizen",
        "finalquest",
        "othello",
        "tournament",
        "leaderboard",
        "profile",
        "settings",
    }
    synced = {cmd["name"]: cmd for cmd in simcord_env.backend.commands[None].values()}
    problems: list[str] = []
    for name in sorted(ours):
        _walk_payload(synced[name], f"/{name}", problems)
    assert not problems, "\n".join(problems)
    roots = [synced[n]["name_localizations"]["ja"] for n in synced if synced[n].get("name_localizations")]
    assert len(roots) == len(set(roots)), "Japanese top-level names must be unique"
    assert synced["donguri"]["name_localizations"]["ja"] == "どんぐり"
    assert "description_localizations" in synced["donguri"]


# ---- SimCord: one Donguri flow in each language -------------------------------------------------


def latest_table(channel) -> discord.Message:
    for message in reversed(channel.history()):
        if message.author.bot and message.embeds:
            return message
    raise AssertionError("no table message")


async def play_one_deal(world_channel, member) -> str:
    """The member plays 12 cards from their DMs against two computers; returns the thread record."""
    for _ in range(12):
        message = hand_dm(member)
        await member.user.click(message, custom_id=enabled_ids(message)[0])
    thread = world_channel.threads[-1]
    return "\n".join(m.content for m in thread.history() if m.author.bot)


async def test_a_donguri_table_in_japanese(simcord_env, client_locales):
    guild = simcord_env.create_guild("将棋部", preferred_locale="ja")
    channel = guild.create_text_channel("games")
    taro, emma = members_in(simcord_env, guild, client_locales, taro="ja", emma="en-GB")

    rules = await taro.slash(channel, "donguri rules")
    assert rules.ephemeral
    assert reply_text(rules).startswith("どんぐりと山猫\n目的") and "マイナス点" in reply_text(rules)
    english_rules = await emma.slash(channel, "donguri rules")
    assert reply_text(english_rules).startswith("Donguri to Yamaneko\nGoal"), (
        "replies use the member's locale"
    )

    opened = await taro.slash(channel, "donguri new", players=3, length="short")
    assert opened.ephemeral and reply_text(opened).startswith("卓を立てました")
    lobby = latest_table(channel)
    text = embed_text(lobby)
    assert "どんぐりと山猫" in text and "卓 #1" in text and "短め" in text
    assert {"参加", "退出", "開始", "中止", "CPUを追加"} <= set(labels(lobby))
    assert channel.threads[-1].name.startswith("どんぐりと山猫")

    again = await taro.click(lobby, label="参加")
    assert again.ephemeral and reply_text(again) == "すでにこの卓に着席しています。"
    english = await emma.click(lobby, label="開始")
    assert english.ephemeral and reply_text(english) == "Only the host of this table can do that."

    await add_computer(taro, lobby, label="CPUを追加")
    await add_computer(taro, latest_table(channel), label="CPUを追加")
    table = latest_table(channel)
    text = embed_text(table)
    assert "ディール1/6" in text and "CPU" in text and "手番" in text
    assert labels(table) == ["手札 / プレイ", "?"]
    hand = embed_text(hand_dm(taro))
    assert "あなたの手札" in hand and "12枚" in hand

    late = await emma.click(table, label="手札 / プレイ")
    assert late.ephemeral and reply_text(late) == "You are not seated at this table."
    record = await play_one_deal(channel, taro)
    assert record.count("トリック") >= 12 and "ディール1の結果" in record
    assert not re.search(r"\b(Trick|Deal|scored|total)\b", record)
    assert "ディール2/6" in embed_text(latest_table(channel))


async def test_a_donguri_table_in_english(simcord_env, client_locales):
    guild = simcord_env.create_guild("Chess club")
    channel = guild.create_text_channel("games")
    alice, hana = members_in(simcord_env, guild, client_locales, alice="en-US", hana="ja")

    rules = await alice.slash(channel, "donguri rules")
    assert "Donguri to Yamaneko" in reply_text(rules) and not japanese(reply_text(rules))
    opened = await alice.slash(channel, "donguri new", players=3, length="standard")
    assert reply_text(opened).startswith("Your table is open")
    lobby = latest_table(channel)
    assert "Donguri to Yamaneko · table #1" in embed_text(lobby) and not japanese(embed_text(lobby))
    assert {"Join", "Leave", "Start", "Cancel", "Add computer"} <= set(labels(lobby))
    refused = await hana.click(lobby, label="Start")
    assert refused.ephemeral and reply_text(refused) == "それができるのはこの卓のホストだけです。"
    await add_computer(alice, lobby)
    await add_computer(alice, latest_table(channel))
    table = latest_table(channel)
    assert "Deal 1/9" in embed_text(table) and not japanese(embed_text(table))
    assert "**Your hand** (12 cards)" in embed_text(hand_dm(alice))
    record = await play_one_deal(channel, alice)
    assert record.count("Trick ") == 12 and "Deal 1 scored" in record and not japanese(record)


def test_japanese_donguri_terms_are_the_designers():
    ja = catalog("ja")
    assert ja["donguri.name"] == "どんぐりと山猫"
    rules = " ".join(v for k, v in ja.items() if k.startswith("donguri.rules."))
    for term in ("どんぐり", "山猫", "ディール", "マイナス点", "マストフォロー", "切り札"):
        assert term in rules, term
