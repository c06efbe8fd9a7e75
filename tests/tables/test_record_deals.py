"""An Arsène deal is never split over two record messages: its header, its tricks, its summary
are one message, and no message holds two deals (the final result may follow on its own). The log is written by the table service itself
(the move that ends a deal also opens the next: "Deal 2: bob deals" belongs to deal 2), and the
record drawn and packed as the delivery worker does, with names as long as Discord allows."""

from __future__ import annotations

import re

import pytest

from bot.core.games import REGISTRY, register
from bot.core.i18n import Lang
from bot.tables import record_lines
from bot.tables.record import RECORD_LIMIT, Record
from cogs.arsene.render import ArseneUI

if "arsene" not in REGISTRY:
    register(ArseneUI())


async def played_to_the_end(world, n: int, seed: int, names: list[str]) -> int:
    table_id = await world.lobby.create_seated(
        "arsene", guild_id=1, channel_id=2, host_id=1, players=[(i + 1, names[i]) for i in range(n)],
        options={"advanced": seed % 2 == 0}, language="en", clock=None, on_timeout="computer_turn",
    )
    await world.lobby.start(table_id, None, seed, shuffle=False)
    for uid in range(1, n + 1):  # computers play every seat to the end, as for players who left
        await world.seat_ops.hand_to_computer(table_id, uid)
    await world.tables.play_computers(table_id)
    return table_id


async def messages(world, table_id: int, tr: Lang) -> list[record_lines.Part]:
    table = await world.tables.table(table_id)
    engine = await world.tables.engine(table)
    rows = await world.store.log_after(table_id, 0)
    units = record_lines.draw(
        rows, REGISTRY["arsene"], engine.public_view(), table.seats, tr,
        lambda names: Record.final_line(table, engine, names, tr),
    )
    return record_lines.pack(None, units, RECORD_LIMIT)


@pytest.mark.parametrize("n", [3, 4])
async def test_each_arsene_deal_is_one_record_message(world, n):
    names = [letter * 32 for letter in "abcd"][:n]  # the longest display names Discord allows
    for seed in range(1, 5):
        table_id = await played_to_the_end(world, n, seed, names)
        for tr, header in ((Lang("en"), r"\*\*Deal (\d+)\*\*:"), (Lang("ja"), r"\*\*ディール(\d+)\*\*:")):
            parts = await messages(world, table_id, tr)
            if parts[-1].text.startswith("🏁"):  # the final result may follow the last deal on its own
                parts.pop()
            deals = [p.deal for p in parts]
            assert deals == list(range(1, len(parts) + 1)), f"one message per deal, in order: {deals}"
            for part in parts:
                assert len(part.text) <= RECORD_LIMIT
                opened = [int(d) for d in re.findall(header, part.text)]
                assert opened in ([], [part.deal]), f"deal {part.deal}'s message opens {opened}"
                if opened:
                    assert re.match(header, part.text), "a deal's header opens its own message"
            assert all(re.match(header, p.text) for p in parts[1:]), "every deal after the first opens with its header"
