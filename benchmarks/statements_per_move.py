"""What one member's move costs the database: SQL statements and table reads per move, counted on
the real bot driven through SimCord (``python benchmarks/statements_per_move.py [--tables N]``).

Three members play short Donguri tables from their DMs to the end; every statement the bot runs
on its SQLite file while they do (the move, its delivery, notices, the record, the scheduler) is
counted, and so are the table rows read from the database and those asked for
(``Store.get_table``, which a process alone on its SQLite file mostly answers from memory), then
divided by the moves played. Issue 44 asks for at most 8 statements and 1 table read per move. ``--by-kind`` prints the
statements grouped by their first words, most frequent first: where the rest go.
"""

from __future__ import annotations

import argparse
import asyncio
import pathlib
import re
import sys
import tempfile
import traceback
from collections import Counter

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from simcord import Env  # noqa: E402

from bot.app import create_bot  # noqa: E402
from bot.core.config import Config  # noqa: E402
from tests.support import table as sim  # noqa: E402


def caller() -> str:
    """The bot's frames that led to a statement, outside bot/storage (``--callers``)."""
    frames = [f for f in traceback.extract_stack() if "/bot/" in f.filename and "/bot/storage/" not in f.filename]
    return " < ".join(f"{pathlib.Path(f.filename).stem}.{f.name}" for f in reversed(frames[-4:]))


def kind(sql: str) -> str:
    words = re.sub(r"\s+", " ", sql.strip()).split(" ")
    head = " ".join(words[:4])
    return re.sub(r"\(.*", "", head)


async def main(tables: int, by_kind: bool, by_caller: bool) -> None:
    callers: Counter[tuple[str, str]] = Counter({("", ""): 0}) if by_caller else Counter()
    with tempfile.TemporaryDirectory() as directory:
        config = Config(
            token="unused", database=f"{directory}/tabletop.sqlite3", channel_budget=10_000, rest_budget=0,
            computer_search=False, web_port=0,
        )
        bot = create_bot(config)
        env = Env(bot)
        await env.start()
        try:
            world = sim.make_world(env)
            store = bot.services.store
            statements: Counter[str] = Counter()
            reads = 0
            db = store.db
            original_statement, original_get = db._statement, store.get_table

            async def counted_statement(verb, sql, params, wait=False):  # type: ignore[no-untyped-def]
                if counting:
                    statements[kind(sql)] += 1
                    if callers:
                        callers[(kind(sql), caller())] += 1
                return await original_statement(verb, sql, params, wait)

            async def counted_get(table_id):  # type: ignore[no-untyped-def]
                nonlocal reads
                if counting:
                    reads += 1
                    if callers:
                        callers[("get_table", caller())] += 1
                return await original_get(table_id)

            db._statement, store.get_table = counted_statement, counted_get  # type: ignore[method-assign]
            moves = 0
            counting = False
            for _ in range(tables):
                counting = False
                await sim.start_donguri(world)
                await env.settle()
                counting = True
                while sim.to_act(world):
                    (member,) = sim.to_act(world)[:1]
                    await sim.play_from_dm(member)
                    await env.settle()
                    moves += 1
            counting = False
        finally:
            await env.shutdown()
            await bot.services.session.close()
            await bot.services.store.close()
    total = sum(statements.values())
    read = sum(n for what, n in statements.items() if what.startswith("SELECT t.*"))
    print(f"{moves} moves over {tables} tables: {total / moves:.1f} SQL statements per move, "
          f"{read / moves:.2f} table rows read from the database per move "
          f"({reads / moves:.2f} asked for, the rest kept in memory)")
    if by_kind:
        for what, n in statements.most_common(25):
            print(f"  {n / moves:6.2f}  {what}")
    if by_caller:
        for (what, where), n in callers.most_common(40):
            if n:
                print(f"  {n / moves:6.2f}  {what:36} {where}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=3)
    parser.add_argument("--by-kind", action="store_true")
    parser.add_argument("--callers", action="store_true", help="where each kind of statement comes from")
    args = parser.parse_args()
    asyncio.run(main(args.tables, args.by_kind, args.callers))
