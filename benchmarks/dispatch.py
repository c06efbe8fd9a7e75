"""What routing a click costs: discord.py's own dynamic-item dispatch against a match on the custom id.

discord.py's ``ViewStore.schedule_dynamic_item_call`` rebuilds a view from the clicked message
(``View.from_message``) and walks it to find the clicked item before ``from_custom_id`` runs; the
bot's router matches the custom id against the item templates and builds the item from the match.
Both are timed here on the same DM hand (a full hand of buttons, as Donguri deals it), side by side
in one run; ``--click-ms`` is the bot's whole CPU per move from ``benchmarks/load.py`` to compare with.

    python benchmarks/dispatch.py [--click-ms 1.8] [--rounds 20000]
"""

from __future__ import annotations

import argparse
import asyncio
import time
from types import SimpleNamespace

import discord
from discord.ui.view import View

from bot.tables import components


def hand_message(buttons: int = 10) -> dict:
    rows = []
    for r in range(0, buttons, 5):
        rows.append({"type": 1, "components": [
            {"type": 2, "style": 2, "label": f"♥{n}", "custom_id": f"tt:a:123456:42:H{n}"}
            for n in range(r + 1, min(r + 6, buttons + 1))
        ]})
    return {"components": rows}


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=20000)
    parser.add_argument("--click-ms", type=float, default=1.8, help="the bot's CPU per move (load.py)")
    args = parser.parse_args()
    data = hand_message()
    custom_id = "tt:a:123456:42:H7"
    # What discord.py's dispatch reads of the message: its components (flags: not components v2).
    message = SimpleNamespace(components=[discord.ActionRow(row) for row in data["components"]],
                              flags=SimpleNamespace(components_v2=False))
    router_classes = components.ALL
    # What the items read of the click itself: its custom id (a button carries no values).
    interaction = SimpleNamespace(data={"custom_id": custom_id, "component_type": 2})

    async def discord_py() -> None:
        await asyncio.create_task(scheduled())  # discord.py runs each dynamic item call as a task

    async def scheduled() -> None:
        view = View.from_message(message, timeout=None)  # type: ignore[arg-type]
        base = next(i for i in view.walk_children() if getattr(i, "custom_id", None) == custom_id)
        for cls in router_classes:
            match = cls.__discord_ui_compiled_template__.fullmatch(custom_id)
            if match is not None:
                await cls.from_custom_id(interaction, base, match)  # type: ignore[arg-type]
                return

    async def router() -> None:
        for cls in router_classes:
            match = cls.__discord_ui_compiled_template__.fullmatch(custom_id)
            if match is not None:
                await cls.from_custom_id(interaction, None, match)  # type: ignore[arg-type]
                return

    results = {}
    for _ in range(3):  # interleaved, so both see the same machine
        for name, fn in (("discord.py dispatch", discord_py), ("router", router)):
            start = time.process_time()
            for _ in range(args.rounds):
                await fn()
            ms = (time.process_time() - start) * 1000 / args.rounds
            results[name] = min(results.get(name, ms), ms)
    extra = results["discord.py dispatch"] - results["router"]
    for name, ms in results.items():
        print(f"{name:22s} {ms * 1000:7.1f} µs a click")
    print(f"discord.py's dispatch adds {extra * 1000:.1f} µs a click: {100 * extra / args.click_ms:.1f}% "
          f"of a click's {args.click_ms} ms CPU")


if __name__ == "__main__":
    asyncio.run(main())
