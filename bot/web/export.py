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
import importlib.util
import json
import re
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


def _source(module: str) -> Path | None:
    """The source file of a project module (``bot…`` or ``cogs…``); None for anything else."""
    if module.split(".")[0] not in ("bot", "cogs"):
        return None
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):  # a name imported from a module, not a module
        return None
    return Path(spec.origin) if spec is not None and spec.origin and spec.origin.endswith(".py") else None


def _imports(module: str, path: Path) -> set[str]:
    """The project modules that ``module`` (its source at ``path``) imports, whatever is loaded now."""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the module's package, one level up per extra dot
                base = ".".join([*package[: len(package) - node.level + 1], *([base] if base else [])])
            names = [base, *(f"{base}.{a.name}" for a in node.names)]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        found.update(n for n in names if n and _source(n) is not None)
    return found


def engine_digest(cls: type[Engine]) -> str:
    """A digest of the engine's rules: its module's source and that of every project module it
    imports, in turn (the game's rules, ``bot.core``), but no renderer."""
    sources: dict[str, Path] = {}
    todo = [cls.__module__]
    while todo:
        module = todo.pop()
        path = _source(module)
        if module in sources or path is None:
            continue
        sources[module] = path
        todo += sorted(_imports(module, path) - set(sources))
    digest = hashlib.sha256()
    for module in sorted(sources):
        digest.update(module.encode() + b"\0" + sources[module].read_bytes())
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
