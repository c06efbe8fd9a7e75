"""The real entry point under cProfile, for finding where the bot's CPU per move goes.

``python -m benchmarks.profiled_bot --config config.toml`` runs ``bot.main`` and, on a clean exit
(SIGTERM), writes the profile to ``$TABLETOP_PROFILE`` (default ``bot.prof`` in the working
directory) and, when ``$TABLETOP_SQL_COUNTS`` names a file, how many times each SQL statement ran;
``benchmarks/profile_load.py`` drives it.
"""

from __future__ import annotations

import cProfile
import json
import os
import sys
import time
from collections import Counter

from bot.main import main
from bot.storage.sqlite import SQLiteDatabase

STATEMENTS: Counter[str] = Counter()


def count_statements() -> None:
    original = SQLiteDatabase._statement

    async def counted(self, verb, sql, params, wait=False):
        STATEMENTS[" ".join(sql.split())[:90]] += 1
        return await original(self, verb, sql, params, wait)

    SQLiteDatabase._statement = counted


if __name__ == "__main__":
    counts = os.environ.get("TABLETOP_SQL_COUNTS")
    if counts:
        count_statements()
    profile = cProfile.Profile(time.thread_time)  # the event loop's own CPU, not the wall clock
    code = profile.runcall(main)
    profile.dump_stats(os.environ.get("TABLETOP_PROFILE", "bot.prof"))
    if counts:
        with open(counts, "w") as f:
            json.dump(STATEMENTS.most_common(), f, indent=1)
    sys.exit(code)
