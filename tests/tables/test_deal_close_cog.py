"""A deal's hand DM is closed when the next deal's DM comes: its last state was never drawn there,
so a member whose last move of the deal a computer made (here: a seat handed to a computer) kept
"Your turn" and live buttons in it for good."""

from __future__ import annotations

from tests.support.table import dms, embed_text, enabled_ids, hand_dm, make_world, open_table


async def test_the_earlier_deals_dm_says_it_is_over_once_the_next_hand_is_dealt(simcord_env, simcord_bot, client_locales):
    world = make_world(simcord_env)
    members = world.members[:3]
    client_locales[members[0].id] = "ja"
    lobby = await open_table(world, members[0], "donguri", players=3, length="short")
    for member in members[1:]:
        await member.click(lobby, label="Join")
    await simcord_env.settle()
    (table,) = await simcord_bot.store.tables_with_status("running")
    first = {m.id: hand_dm(m).id for m in members}
    away = next(m for m in members if enabled_ids(hand_dm(m)))  # it is their turn: a computer takes it
    await simcord_bot.seat_ops.hand_to_computer(table.id, away.id)
    await simcord_env.settle()
    def dealt_again(member) -> bool:
        return any(m.id > first[member.id] and ("Donguri" in embed_text(m) or "どんぐり" in embed_text(m))
                   for m in dms(member))

    def offered(member) -> list[str]:
        held = [m for m in dms(member) if m.components and not (m.content or "").startswith("🏁")]
        return enabled_ids(held[-1]) if held else []

    for _ in range(200):  # the others play on until the next deal is dealt
        if all(dealt_again(m) for m in members):
            break
        movers = [m for m in members if m is not away and offered(m)]
        if movers:
            await movers[0].user.click(hand_dm(movers[0]), custom_id=offered(movers[0])[0])
        await simcord_env.settle()
    else:
        raise AssertionError("the next deal never came")
    for member in members:
        old = next(m for m in dms(member) if m.id == first[member.id])
        assert enabled_ids(old) == [] and not old.components, "no button left in the earlier deal's DM"
        text = embed_text(old)
        expected = "この手札は終わりました" if member is members[0] else "This hand is over"
        assert expected in text, text
        assert "Your turn" not in text and "あなたの手番" not in text
