"""The table's ? button through the real bot: a private answer in the clicker's language (the marks
shown, the seat list's notes, greyed cards and, for a seated member, their own), on a running and
on a finished table; it changes nothing, and a click from another server is refused."""

from __future__ import annotations

import asyncio

from tests.support.forged import forge
from tests.support.table import (
    add_computer,
    embed_text,
    labels,
    make_world,
    open_table,
    table_message,
)


def table_id(world) -> int:
    return int(table_message(world).embeds[0].title.split("#")[-1].split()[0])


def answer(result) -> str:
    message = result.response if result.response is not None else result.followups[-1]
    return embed_text(message)


async def running_donguri(world):
    alice = world.members[0]
    lobby = await open_table(world, alice, "donguri", players=3, length="short")
    await add_computer(alice, lobby, "hard")
    await add_computer(alice, table_message(world), "easy")
    return alice, table_message(world)


async def test_the_help_button_answers_privately_in_the_members_language(
    simcord_env, simcord_bot, client_locales
):
    world = make_world(simcord_env)
    hana = world.members[1]
    client_locales.update({world.members[0].id: "en-US", hana.id: "ja"})
    alice, table = await running_donguri(world)
    tid = table_id(world)
    assert labels(table) == ["My hand / Play", "?"]
    assert table.embeds[0].footer.text.startswith("▶ to play · 🎴 dealer\n")
    before = (embed_text(table), len(world.channel.history()), len(world.channel.threads[-1].history()))
    version = (await simcord_bot.service.table(tid)).version

    mine = await alice.click(table, custom_id=f"tt:help:{tid}")
    assert mine.ephemeral
    text = answer(mine)
    assert text.startswith(f"❔ Donguri to Yamaneko · table #{tid}: marks and greyed cards")
    assert "▶ marks the player whose turn it is." in text and "🎴 marks this deal's dealer." in text
    assert "🤖 marks a seat a computer plays." in text and "~~card~~" not in text, "only the marks shown"
    assert "**Greyed cards**" in text and "you must follow the suit led if you can" in text
    assert "For you, right now:" in text, "alice is seated: her own greyed cards are explained"

    japanese = await hana.click(table, custom_id=f"tt:help:{tid}")
    text = answer(japanese)
    assert japanese.ephemeral and text.startswith(f"❔ どんぐりと山猫 · 卓 #{tid}: 記号とグレーのカード")
    assert "▶ は手番のプレイヤーの印です。" in text and "マストフォロー" in text
    assert "いまのあなたの場合" not in text, "hana is not seated: no hand of hers to explain"

    table = table_message(world)
    after = (embed_text(table), len(world.channel.history()), len(world.channel.threads[-1].history()))
    assert after == before and (await simcord_bot.service.table(tid)).version == version, "nothing changed"


async def test_a_help_click_from_another_server_is_refused(simcord_env, simcord_bot):
    world = make_world(simcord_env)
    _alice, table = await running_donguri(world)
    tid = table_id(world)
    other = make_world(simcord_env, names=("mallory",))
    own = await open_table(other, other.members[0], "donguri", players=3)
    refused = await forge(other.members[0], own, f"tt:help:{tid}", carried=True)
    assert refused.ephemeral and "another server" in refused.response.content.lower()


async def test_the_finished_table_keeps_its_help_button(simcord_env, simcord_bot):
    world = make_world(simcord_env)
    alice, _table = await running_donguri(world)
    tid = table_id(world)
    await simcord_bot.seat_ops.hand_to_computer(tid, alice.id)
    await simcord_bot.service.play_computers(tid)
    await simcord_bot.delivery.refresh(tid)
    for _ in range(500):  # until the delivery worker has drawn the finished table
        await simcord_env.settle()
        if simcord_bot.delivery.worker.idle and labels(table_message(world)) == ["Rematch", "Rules", "?"]:
            break
        await asyncio.sleep(0.01)
    final = table_message(world)
    assert (await simcord_bot.service.table(tid)).status == "finished" and labels(final) == ["Rematch", "Rules", "?"]
    text = answer(await alice.click(final, custom_id=f"tt:help:{tid}"))
    assert "▶" not in text and "🎴" not in text, "a finished table shows no turn and no dealer"
    assert "**alice (computer playing, normal)** (in the seat list)" in text
    assert "For you" not in text, "the game is over: nothing is greyed"


async def test_a_help_click_on_a_table_cancelled_in_its_lobby_is_out_of_date(simcord_env, simcord_bot, caplog):
    """Found by the click fuzz on a busy machine: a table cancelled before it started has no seed,
    and its ? (forged: a lobby shows none) logged an unexpected error."""
    world = make_world(simcord_env)
    alice = world.members[0]
    lobby = await open_table(world, alice, "donguri", players=3)
    tid = table_id(world)
    await alice.click(lobby, custom_id=f"tt:cancel:{tid}")
    assert (await simcord_bot.service.table(tid)).status == "cancelled"
    refused = await forge(alice, table_message(world), f"tt:help:{tid}", carried=True)
    assert refused.ephemeral and "out of date" in refused.response.content
    assert [r.getMessage() for r in caplog.records if r.levelname == "ERROR"] == []
