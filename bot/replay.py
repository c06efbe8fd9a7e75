"""``python -m bot.replay FILE``: play an exported table (its page's JSON export) again through the
engine, and check that it reaches the result and the final table the export says.

Exit status 0 when it does, 1 when it does not (or an action is refused), 2 for a file that is not
an export. An export made by other rules than this copy's is replayed all the same, with a warning.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from bot.core.engine import IllegalAction
from bot.web.export import FORMAT, engine_class, engine_digest


class NotAnExport(Exception):
    pass


def _read(text: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise NotAnExport(f"not JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise NotAnExport(f"not a table export (no \"format\": \"{FORMAT}\")")
    for key, kind in (("game", str), ("players", int), ("seed", int), ("options", dict), ("actions", list)):
        if not isinstance(data.get(key), kind):
            raise NotAnExport(f"\"{key}\" is missing or not a {kind.__name__}")
    for entry in data["actions"]:
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], int) and isinstance(entry[1], str)):
            raise NotAnExport(f"an action is not [seat, \"action\"]: {entry!r}")
    return data


def check(data: dict[str, Any], out: TextIO) -> bool:
    """Replay ``data``; True when the game ends as it says. Writes what it found to ``out``."""
    try:
        cls = engine_class(data["game"])
    except LookupError:
        raise NotAnExport(f"unknown game {data['game']!r}") from None
    rules = (data.get("engine") or {}).get("rules")
    if rules != engine_digest(cls):
        print(f"warning: exported with other rules ({rules}) than this copy's ({engine_digest(cls)})", file=out)
    where = "the setup"
    try:
        engine = cls(data["players"], data["seed"], data["options"])
        for number, (seat, action) in enumerate(data["actions"], start=1):
            where = f"action {number} (seat {seat}, {action!r})"
            engine.apply(seat, action)
    except IllegalAction as exc:
        print(f"FAILED: {where} was refused: {exc.code} {exc.params}", file=out)
        return False
    result = data.get("result") or {}
    problems = []
    if result.get("reason") == "timeout":  # a clock ended the table before the game did
        if engine.is_terminal():
            problems.append("the export says a clock ended the table, but the game is over")
    elif not engine.is_terminal():
        problems.append("the game is not over after its last action")
    else:
        for key, value in engine.results().items():
            if result.get(key) != value:
                problems.append(f"result {key}: export says {result.get(key)!r}, the engine {value!r}")
    if "final" in data and json.loads(json.dumps(engine.public_view())) != data["final"]:
        problems.append("the final table differs from the export's")
    for problem in problems:
        print(f"FAILED: {problem}", file=out)
    if not problems:
        ranks = result.get("ranks")
        print(f"ok: {data['game']}, {len(data['actions'])} actions replayed; ranks {ranks}, scores {result.get('scores')}", file=out)
    return not problems


def main(argv: list[str] | None = None, out: TextIO = sys.stdout) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.replay", description=__doc__.split("\n\n")[0])
    parser.add_argument("file", help="a table's JSON export (- for standard input)")
    args = parser.parse_args(argv)
    try:
        text = sys.stdin.read() if args.file == "-" else open(args.file, encoding="utf-8").read()
        return 0 if check(_read(text), out) else 1
    except OSError as exc:
        print(f"bot.replay: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    except NotAnExport as exc:
        print(f"bot.replay: {args.file}: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
