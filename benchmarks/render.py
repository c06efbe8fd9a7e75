"""Drawing cost per game: the public table (embed text and picture) and a seat's private prompt.

Usage: python benchmarks/render.py [--positions N] [--seed N]

From positions met in random games, each game's UI draws the table view and seat 0's prompt, as
the bot does for a table message and a hand DM. Reports mean and max ms per drawing and the mean
picture size. The tests check what is drawn; how fast it is drawn is measured here.
"""

from __future__ import annotations

import argparse
import importlib
import pathlib
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bot.core.games import GameUI  # noqa: E402
from bot.core.i18n import Lang  # noqa: E402
from tests.support.engines import engine_classes, random_positions  # noqa: E402


def ui_for(game_dir: str) -> GameUI:
    module = importlib.import_module(f"cogs.{game_dir}.render")
    (cls,) = [c for c in vars(module).values() if isinstance(c, type) and issubclass(c, GameUI) and c is not GameUI]
    return cls()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'game':<16}{'n':>3}  {'table ms (mean/max)':>20}  {'prompt ms (mean/max)':>21}  {'picture KB':>10}")
    for cls in engine_classes():
        ui = ui_for(cls.__module__.split(".")[1])
        n = cls.max_players
        names = [f"player {i + 1}" for i in range(n)]
        tr = Lang("en")
        table_ms, prompt_ms, sizes = [], [], []
        for engine in random_positions(cls, n, {}, args.positions, args.seed):
            start = time.perf_counter()
            view = ui.table_view(engine.public_view(), names, tr)
            table_ms.append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            ui.prompt(engine, 0, names, tr)
            prompt_ms.append((time.perf_counter() - start) * 1000)
            if view.image:
                sizes.append(len(view.image) / 1024)
        size = f"{statistics.mean(sizes):.0f}" if sizes else "-"
        print(
            f"{cls.game_id:<16}{n:>3}  {statistics.mean(table_ms):>11.1f} / {max(table_ms):>6.1f}"
            f"  {statistics.mean(prompt_ms):>12.1f} / {max(prompt_ms):>6.1f}  {size:>10}"
        )


if __name__ == "__main__":
    main()
