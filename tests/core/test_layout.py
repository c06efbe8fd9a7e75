"""The platform's packages depend on each other in one direction, and none of them knows a game."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "bot"


def package_of(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "bot" or len(parts) < 2:
        return None
    return parts[1] if (BOT / parts[1]).is_dir() else "bot"


def runtime_imports(path: Path) -> set[str]:
    """Modules imported when ``path`` runs; imports under ``if TYPE_CHECKING:`` only serve type hints."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for other in child.orelse:
                    visit(other)
                continue
            if isinstance(child, ast.Import):
                found.update(alias.name for alias in child.names)
            elif isinstance(child, ast.ImportFrom) and child.module and child.level == 0:
                found.add(child.module)
                found.update(f"{child.module}.{alias.name}" for alias in child.names)
            visit(child)

    visit(ast.parse(path.read_text()))
    return found


def package_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in BOT.rglob("*.py"):
        source = package_of(".".join(path.relative_to(ROOT).with_suffix("").parts))
        edges = graph.setdefault(source, set())
        for module in runtime_imports(path):
            target = package_of(module)
            if target and target != source:
                edges.add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    found, state = [], {}

    def walk(node: str, trail: list[str]) -> None:
        state[node] = "open"
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                found.append([*trail[trail.index(nxt) :], nxt])
            elif nxt not in state:
                walk(nxt, [*trail, nxt])
        state[node] = "done"

    for start in sorted(graph):
        if start not in state:
            walk(start, [start])
    return found


def test_cycle_finder_sees_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_between_platform_packages():
    graph = package_graph()
    assert {"core", "storage", "tables", "events", "ratings"} <= set(graph)
    assert cycles(graph) == []


def test_core_depends_on_no_other_package():
    assert package_graph()["core"] == set()


def test_the_platform_knows_no_game():
    for path in BOT.rglob("*.py"):
        games = {m for m in runtime_imports(path) if m.split(".")[0] == "cogs"}
        assert not games, f"{path.relative_to(ROOT)} imports {games}"
