"""What share of the null bot's moves/s any bot can reach that answers each click and edits the next
player's DM, as issue #13 asks (``python benchmarks/p1_floor.py [--tables N] [--seconds S]
[--rounds R]``).

``benchmarks/load.py`` measures P1 as the real bot's moves/s over the null bot's, which answers a
click with one commit and one UPDATE_MESSAGE response. A move at a table also changes the next
player's turn, which their DM must show (#13, item 5): one more REST call per move at least, even
through the click token that makes it uncounted. This runs the null bot beside a second null bot
that also makes that call (``null_dm_edit``), against fake Discords of their own, taking turns in
closed-loop rounds: its share is the most P1 can be for a bot that does no rules, rendering or
bookkeeping at all. A third null bot (``null_render``) also plays each move by the rules of a real
Donguri game and draws the two real messages the move changes (the clicker's hand in the answer,
the next player's in the DM edit): its share is the most P1 can be for a bot that shows real
hands, before the move's transaction, the table message, the record and the delivery worker.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import pathlib
import random
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from benchmarks.load import WARM_UP, Side  # noqa: E402
from benchmarks.load_driver import closed_loop, null_lanes  # noqa: E402
from tests.support.bot_process import TOKEN, BotProcess  # noqa: E402
from tests.support.fake_discord import FakeDiscord  # noqa: E402
from tests.support.players import Players  # noqa: E402

SIDES = (
    ("null", ()),
    ("null_dm", ("null_dm_edit = true",)),
    ("null_render", ("null_render = true",)),
)


async def run(args: argparse.Namespace) -> dict:
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="tabletop-floor-") as tmp:
        root = pathlib.Path(tmp)
        async with contextlib.AsyncExitStack() as stack:
            sides = {}
            for name, lines in SIDES:
                on = await stack.enter_async_context(FakeDiscord(token=TOKEN))
                (root / name).mkdir()
                bot = BotProcess(on, root / name, *lines, module="benchmarks.null_bot")
                await bot.start_ready()
                sides[name] = Side(on, bot, Players(on, rng), null_lanes(on, args.tables), args.tables, None)
            try:
                for side in sides.values():  # warmed up, then rounds in turn
                    await closed_loop(side.fake, side.players, side.lanes, side.count, WARM_UP, rng, None)
                for _ in range(args.rounds):
                    for side in sides.values():
                        await side.round(args.seconds, rng)
            finally:
                for side in sides.values():
                    await side.bot.stop()
            out = {name: side.summary() for name, side in sides.items()}
            for name, _ in SIDES[1:]:
                out[f"{name}_share"] = out[name]["moves_per_s"] / max(out["null"]["moves_per_s"], 1e-9)
            return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    out = asyncio.run(run(args))
    for name, _ in SIDES:
        row = out[name]
        print(
            f"{name:8} {row['moves_per_s']:6.0f} moves/s, {row['cpu_ms_per_move']:.2f} ms bot CPU per move,"
            f" {row['calls_per_move_total']} REST calls per move {json.dumps(row['calls_per_move'])},"
            f" rounds {row['per_round_moves_per_s']}"
        )
    print(f"null bot with the DM edit: {out['null_dm_share']:.1%} of the null bot's moves/s")
    print(f"... with the rules and both real drawings too: {out['null_render_share']:.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
