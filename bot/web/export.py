"""A finished table as JSON, and the check that it replays: what the platform stores of a game (its
options, seed and action log) is the whole game, so any copy of the bot can play it again and must
reach the same result (``python -m bot.replay FILE``).

The engine's version is the bot's version and a digest of the engine's source (its module and the
modules of its game and of ``bot.core`` it imports): an export made by other rules says so.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import json
import re
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

from bot.core.engine import Engine
from bot.storage.store import TableRow

FORMAT = "tabletop-bot/table"
FORMAT_VERSION = 1
ROOT = Path(__file__).resolve().parents[2]
GAME_ID = re.compile(r"^[a-z][a-z0-9_]{0,40}$")


def bot_version() -> str:
    try:
        return metadata.version("tabletop-bot")
    except metadata.PackageNotFoundError:
        return "unknown"


def engine_class(game: str) -> type[Engine]:
    """The engine of ``game``, from its package under ``cogs/`` (no bot needed)."""
    if not GAME_ID.match(game) or not (ROOT / "cogs" / game / "engine.py").is_file():
        raise LookupError(game)
    module = importlib.import_module(f"cogs.{game}.engine")
    for value in vars(module).values():
        if isinstance(value, type) and issubclass(value, Engine) and value.game_id == game:
            return value
    raise LookupError(game)


def _imports(module: str) -> set[str]:
    """The modules of the project that ``module`` imports (by name), from its source."""
    path = Path(sys.modules[module].__file__ or "")
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        found.update(n for n in names if n in sys.modules and n.split(".")[0] in ("bot", "cogs"))
    return found


def engine_digest(cls: type[Engine]) -> str:
    """A digest of the engine's rules: its module's source and that of every project module it
    imports, in turn (the game's rules, ``bot.core``), but no renderer."""
    seen: set[str] = set()
    todo = [cls.__module__]
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        todo += sorted(_imports(module) - seen)
    digest = hashlib.sha256()
    for module in sorted(seen):
        digest.update(module.encode() + b"\0" + Path(sys.modules[module].__file__ or "").read_bytes())
    return digest.hexdigest()[:16]


def export(table: TableRow, actions: list[tuple[int, str]], final: Engine) -> dict[str, Any]:
    """A finished table, as ``python -m bot.replay`` reads it back."""
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game": table.game,
        "engine": {"bot_version": bot_version(), "rules": engine_digest(type(final))},
        "table": table.id,
        "players": len(table.seats),
        "options": table.options,
        "seed": table.seed,
        "seats": [
            {"seat": s.position, "name": s.name, "computer": s.is_computer, "level": s.level} for s in table.seats
        ],
        "actions": [[seat, action] for seat, action in actions],
        "result": json.loads(table.result) if table.result else None,
        "final": final.public_view(),
    }
