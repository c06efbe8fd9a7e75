"""One language per member: a Japanese member at an English table reads everything private (DM
hand, the ephemeral "My hand / Play", /mygames) in Japanese, while the table stays English."""

from __future__ import annotations

import re

from tests.support.table import (
    World,
    dms,
    embed_text,
    hand_dm,
    labels,
    open_table,
    play_from_dm,
    table_message,
    to_act,
)


def japanese(text: str) -> bool:
    return bool(re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", text))


def reply_text(result) -> str:
    return embed_text(result.response if result.response is not None else result.followups[-1])


async def mixed_table(simcord_env, client_locales):
    guild = simcord_env.create_guild("Chess club")  # an English server
    channel = guild.create_text_channel("games")
    alice, hana, bob = (guild.add_member(simcord_env.create_user(n)) for n in ("alice", "hana", "bob"))
    client_locales.update({alice.id: "en-US", hana.id: "ja", bob.id: "en-GB"})
    world = World(simcord_env, guild, channel, [alice, hana, bob])
    lobby = await open_table(world, alice, "donguri", players=3, length="short")
    await hana.click(lobby, label="Join")
    await bob.click(lobby, label="Join")
    return world, alice, hana, bob


async def test_a_japanese_member_at_an_english_table(simcord_env, simcord_bot, client_locales):
    world, alice, hana, bob = await mixed_table(simcord_env, client_locales)
    table = embed_text(table_message(world))
    assert "Deal 1/6" in table and not japanese(table), "the table speaks the table's language"
    assert labels(table_message(world)) == ["My hand / Play", "?"]

    (dm,) = dms(hana)
    assert "あなたの手札" in embed_text(dm) and "Your hand" not in embed_text(dm)
    assert "Your hand" in embed_text(hand_dm(alice)) and not japanese(embed_text(hand_dm(bob)))
    ephemeral = await hana.click(table_message(world), label="My hand / Play")
    assert ephemeral.ephemeral and "あなたの手札" in reply_text(ephemeral)
    assert "Your hand" in reply_text(await bob.click(table_message(world), label="My hand / Play"))

    for _ in range(3):  # a whole trick: hana's DM is edited after others' moves and her own
        (member,) = to_act(world)
        await play_from_dm(member)
        assert "あなたの手札" in embed_text(hand_dm(hana))
        assert not japanese(embed_text(table_message(world)))
    record = "\n".join(m.content for m in world.channel.threads[-1].history() if m.author.bot)
    assert "Trick 1" in record and not japanese(record), "the record is public: the table's language"

    mine = await hana.slash(world.channel, "mygames")
    assert mine.ephemeral and japanese(reply_text(mine))
    assert not japanese(reply_text(await alice.slash(world.channel, "mygames")))


async def test_the_language_is_remembered_across_a_restart_and_follows_a_change(
    simcord_env, simcord_bot, client_locales, restart
):
    world, _alice, hana, _bob = await mixed_table(simcord_env, client_locales)
    assert await simcord_bot.store.surfaces.member_language(hana.id) == "ja"
    bot = await restart()
    assert "あなたの手札" in embed_text(hand_dm(hana))
    if hana not in to_act(world):  # someone else moves: hana's DM is redrawn, from the stored language
        await play_from_dm(to_act(world)[0])
        assert "あなたの手札" in embed_text(hand_dm(hana))

    client_locales[hana.id] = "en-GB"  # she switched her Discord to English
    await hana.click(table_message(world), label="My hand / Play")
    assert await bot.store.surfaces.member_language(hana.id) == "en"
    await play_from_dm(to_act(world)[0])
    assert "Your hand" in embed_text(hand_dm(hana))


async def test_a_language_is_written_only_when_it_changes(simcord_env, simcord_bot, client_locales):
    world, _alice, hana, _bob = await mixed_table(simcord_env, client_locales)
    writes = []
    original = simcord_bot.store.surfaces.set_member_language

    async def counting(user_id, language):
        writes.append((user_id, language))
        await original(user_id, language)

    simcord_bot.store.surfaces.set_member_language = counting
    for _ in range(3):
        await hana.click(table_message(world), label="My hand / Play")
    assert writes == []
    client_locales[hana.id] = "en-US"
    await hana.click(table_message(world), label="My hand / Play")
    assert writes == [(hana.id, "en")]
