"""The real entry point with the delivery worker's timings traced, for finding where a turn's
hand-off waits: ``python -m benchmarks.traced_bot --config config.toml`` runs ``bot.main`` and, on
a clean exit (SIGTERM), writes to ``$TABLETOP_TRACE`` (default ``trace.json``) one record per
move (its click's arrival, the commit, the answer) and per delivery pass (when it was first asked
for, when it started and ended, and each surface's start, end and outcome: shown, put off by
``Later`` and for how long, or failed), and the event loop's lag sampled every 10 ms.
``benchmarks/handoff_trace.py`` drives it and reads the file.
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import sys
import time

from bot.main import main
from bot.tables import delivery as delivery_module
from bot.tables.budget import Later
from bot.tables.desk import Desk
from bot.tables.worker import Worker

MOVES: list[dict] = []
PASSES: list[dict] = []
LAG: list[float] = []
_asked: dict[int, float] = {}  # table -> when a pass was first asked for since the last one started
_urged: dict[int, float] = {}  # table -> when its hands were first asked for since they last started
_current: dict[int, dict] = {}  # table -> the pass running


def now() -> float:
    return time.monotonic()


def trace_worker() -> None:
    request = Worker.request

    @functools.wraps(request)
    def traced(self, key, delay=0.0, urgent=False, **more):
        if self.name == "delivery" and delay <= 0:
            for asked in (_asked, _urged) if urgent else (_asked,):
                asked.setdefault(key, now())
        return request(self, key, delay, urgent=urgent, **more) if urgent else request(self, key, delay, **more)

    Worker.request = traced


def trace_delivery() -> None:
    cls = delivery_module.Delivery

    def traced_pass(kind, method):
        @functools.wraps(method)
        async def pass_(self, table_id):
            asked = (_urged if kind == "hands" else _asked).pop(table_id, None)
            record = {"kind": kind, "table": table_id, "asked": asked, "start": now(), "surfaces": [],
                      "queued": len(getattr(self.worker, "firsts", ())) if kind == "hands" else len(self.worker.queue),
                      "running": len(getattr(self.worker, "hurrying", ())) if kind == "hands" else len(self.worker.running)}
            _current[table_id] = record
            try:
                await method(self, table_id)
            finally:
                record["end"] = now()
                _current.pop(table_id, None)
                PASSES.append(record)

        return pass_

    cls._refresh = traced_pass("pass", cls._refresh)
    if hasattr(cls, "_hands"):  # the urgent part of a pass, after a move
        cls._hands = traced_pass("hands", cls._hands)

    def surface(name, method, seat_arg=False):
        @functools.wraps(method)
        async def traced(self, table, *args):
            record = _current.get(table.id)
            item = {"name": name, "start": now(), "version": table.version}
            if seat_arg:
                item["seat"] = args[-1]
            try:
                result = await method(self, table, *args)
                item["outcome"] = "done"
                return result
            except Later as later:
                item["outcome"] = f"later {later.delay:.3f}"
                raise
            except Exception as exc:
                item["outcome"] = f"error {exc!r}"[:80]
                raise
            finally:
                item["end"] = now()
                if record is not None:
                    record["surfaces"].append(item)

        return traced

    cls.deliver_hand = surface("hand", cls.deliver_hand, seat_arg=True)
    cls.update_table_message = surface("message", cls.update_table_message)
    if hasattr(cls, "append_record"):  # a checkout from before the record was an object of its own
        cls.append_record = surface("record", cls.append_record)
    else:
        record_class = delivery_module.Record
        record_class.append = surface("record", record_class.append)
    notices = delivery_module.TurnNotices
    notices.sync = surface("notices", notices.sync)
    tokens = delivery_module.Tokens
    edit = tokens.edit

    @functools.wraps(edit)
    async def token_edit(self, table_id, seat, token, **fields):
        record = _current.get(table_id)
        item = {"name": "token_edit", "seat": seat, "start": now()}
        try:
            return await edit(self, table_id, seat, token, **fields)
        finally:
            item["end"] = now()
            if record is not None:
                record["surfaces"].append(item)

    tokens.edit = token_edit


def trace_moves() -> None:
    act = Desk._act

    @functools.wraps(act)
    async def traced(self, interaction, table_id, version, action):
        created = (int(interaction.id) >> 22) + 1420070400000  # the snowflake's wall-clock ms
        item = {"table": table_id, "version": version, "frame_wall_ms": created,
                "start_wall_ms": time.time() * 1000, "start": now()}
        try:
            return await act(self, interaction, table_id, version, action)
        finally:
            item["end"] = now()
            MOVES.append(item)

    Desk._act = traced


async def sample_lag() -> None:
    while True:
        before = now()
        await asyncio.sleep(0.01)
        LAG.append(now() - before - 0.01)


DB: dict[str, list[float]] = {"read": [], "held": [], "wait": []}


def trace_database() -> None:
    """How long a read outside a transaction takes (mostly waiting for the lock), how long a
    transaction waits for the lock, and how long it holds it."""
    import contextlib

    from bot.storage.sqlite import SQLiteDatabase

    run = SQLiteDatabase._run

    @functools.wraps(run)
    async def traced_run(self, verb, sql, params):
        start = now()
        try:
            return await run(self, verb, sql, params)
        finally:
            if not self._holding():
                DB["read"].append(now() - start)

    SQLiteDatabase._run = traced_run
    transaction = SQLiteDatabase.transaction

    @contextlib.asynccontextmanager
    async def traced_transaction(self):
        if self._holding():
            async with transaction(self):
                yield
            return
        start = now()
        got = None
        try:
            async with transaction(self):
                got = now()
                DB["wait"].append(got - start)
                yield
        finally:
            if got is not None:
                DB["held"].append(now() - got)

    SQLiteDatabase.transaction = traced_transaction


def install() -> None:
    trace_database()
    trace_worker()
    trace_delivery()
    trace_moves()
    from bot import main as main_module

    run = main_module.run

    async def traced_run(config):
        task = asyncio.get_running_loop().create_task(sample_lag())
        try:
            return await run(config)
        finally:
            task.cancel()

    main_module.run = traced_run


if __name__ == "__main__":
    install()
    code = main()
    with open(os.environ.get("TABLETOP_TRACE", "trace.json"), "w") as f:
        json.dump({"moves": MOVES, "passes": PASSES, "lag": LAG, "db": DB}, f)
    sys.exit(code)
