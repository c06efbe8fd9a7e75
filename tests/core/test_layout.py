"""The platform's packages depend on each other in one direction, and none of them knows a game."""

from __future__ import annotations

import ast
import re
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


SERVICES = {
    "store", "languages", "arrivals", "service", "lobby", "seat_ops", "hooks", "scheduler", "delivery", "computers", "speech",
    "desk", "ending", "opening", "ratings", "tournaments", "sweep", "rest_shares", "session", "services", "config",
    "settings", "guilds", "site", "web",
}
ROOTS = {ROOT / "bot" / "app.py", ROOT / "bot" / "wiring.py"}


def reaches_through_the_bot(tree: ast.AST) -> list[str]:
    """``bot.<service>``, ``self.bot.<anything>``, ``client.<service>`` or ``interaction.client.<service>``:
    a service found through the Discord client instead of handed over in a constructor."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        owner = node.value
        owner_name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", None)
        if owner_name == "bot" and isinstance(owner, ast.Attribute):
            found.append(ast.unparse(node))  # self.bot.<x>: the bot kept as a locator
        elif owner_name in ("bot", "client") and node.attr in SERVICES:
            found.append(ast.unparse(node))
    return found


def test_the_layout_check_sees_a_reach_through_the_bot():
    code = "self.bot.delivery.refresh(1)\ninteraction.client.tournaments\nbot.store\nself.client.get_channel(1)"
    assert sorted(reaches_through_the_bot(ast.parse(code))) == [
        "bot.store", "interaction.client.tournaments", "self.bot.delivery"
    ]


def test_no_module_reaches_a_service_through_the_bot_object():
    """Services get their collaborators in their constructor (``bot/wiring.py``), never from the bot."""
    offenders = {}
    for path in [*BOT.rglob("*.py"), *(ROOT / "cogs").rglob("*.py")]:
        if path in ROOTS:
            continue
        found = reaches_through_the_bot(ast.parse(path.read_text()))
        if found:
            offenders[str(path.relative_to(ROOT))] = found
    assert offenders == {}


#: Private names the project may read, each with its reason: ``os._exit`` is public; aiosqlite's
#: connection and thread, read in ``bot/storage/sqlite_thread.py`` only (tests/storage/test_sqlite_thread.py
#: watches them); discord.py's sweep of its rate-limit buckets, throttled in ``bot/core/ratelimits.py``
#: (tests/core/test_ratelimits.py watches it).
PRIVATE_ALLOWED = {"os._exit", "db._conn", "db._execute", "http._try_clear_expired_ratelimits"}


def test_no_module_reads_a_private_attribute_of_a_library():
    """discord.py's private attributes change without notice between releases: none is read."""
    found = []
    for path in [*BOT.rglob("*.py"), *(ROOT / "cogs").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Attribute) or not node.attr.startswith("_"):
                continue
            if node.attr.startswith("__") and node.attr.endswith("__"):
                continue  # dunders are the language's own
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                continue
            if ast.unparse(node) not in PRIVATE_ALLOWED:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} {ast.unparse(node)}")
    assert found == []



def module_of(path: Path, root: Path) -> str:
    return ".".join(path.relative_to(root).with_suffix("").parts)


def imported_names(tree: ast.AST, module: str) -> dict[str, tuple[str, str]]:
    """Name bound by ``from bot... import X [as Y]`` (or ``cogs...``, or a relative import in
    ``module``) -> (module, X), under ``TYPE_CHECKING`` too."""
    names = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        source = node.module or ""
        if node.level:  # relative to the package of ``module`` (a module, not a package's __init__)
            package = module.split(".")[: -node.level]
            source = ".".join(package + ([source] if source else []))
        if source.split(".")[0] in ("bot", "cogs"):
            names.update({alias.asname or alias.name: (source, alias.name) for alias in node.names})
    return names


def type_checking_names(tree: ast.AST) -> set[str]:
    """Names imported under ``if TYPE_CHECKING:``: they exist for the type checker only."""
    return {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for child in node.body
        if isinstance(child, ast.Import | ast.ImportFrom)
        for alias in child.names
    }


def is_interface(node: ast.ClassDef) -> bool:
    """A base meant to be inherited from another file: a protocol, an ABC, an exception, one with
    its own constructor, or one that declares the class constants its subclasses set (``GameUI``),
    rather than methods that need attributes their subclass defines."""
    bases = {ast.unparse(b).rsplit(".", 1)[-1] for b in node.bases}
    methods = [f for f in node.body if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)]
    abstract = any("abstractmethod" in ast.unparse(d) for f in methods for d in f.decorator_list)
    declared = any(
        isinstance(n, ast.AnnAssign) and "ClassVar" in ast.unparse(n.annotation) for n in node.body
    )
    return (
        bool(bases & {"Protocol", "ABC", "Exception"})
        or abstract
        or declared
        or any(f.name == "__init__" for f in methods)
    )


def spread_classes(root: Path) -> set[str]:
    """Classes of ``root/bot`` and ``root/cogs`` put together from mixins in other files: a base that
    exists for the type checker only (``if TYPE_CHECKING: from ... import X as _Base``), or a base
    from another module that is no interface but a bundle of methods using attributes its subclass
    defines."""
    trees = {
        module_of(p, root): ast.parse(p.read_text())
        for package in ("bot", "cogs")
        for p in sorted((root / package).rglob("*.py"))
    }
    known = {
        (module, node.name): node
        for module, tree in trees.items()
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
    }
    found = set()
    for module, tree in trees.items():
        imported, hidden = imported_names(tree, module), type_checking_names(tree)
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef):
                continue
            for base in map(ast.unparse, node.bases):
                origin = imported.get(base)
                if base in hidden:
                    found.add(f"{module}.{node.name}")
                elif origin is not None and origin[0] != module and origin in known:
                    if not is_interface(known[origin]):
                        found.add(f"{module}.{node.name}")
    return found


def test_the_layout_check_sees_a_class_spread_over_files(tmp_path):
    (tmp_path / "bot").mkdir()
    (tmp_path / "bot" / "parts.py").write_text(
        "from typing import Protocol\n"
        "class Part:\n    def run(self):\n        return self.store\n"
        "class Shape(Protocol):\n    def run(self): ...\n"
        "class Made:\n    def __init__(self, store):\n        self.store = store\n"
    )
    (tmp_path / "bot" / "whole.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "from bot.parts import Made, Part, Shape\n"
        "if TYPE_CHECKING:\n    from bot.other import Whole as _Base\nelse:\n    _Base = object\n"
        "class Whole(Part):\n    pass\n"
        "class Hidden(_Base):\n    pass\n"
        "class Fine(Shape):\n    pass\n"
        "class Also(Made):\n    pass\n"
    )
    (tmp_path / "cogs" / "game").mkdir(parents=True)
    (tmp_path / "cogs" / "game" / "views.py").write_text(
        "class Views:\n    def public_view(self):\n        return self.board\n"
    )
    (tmp_path / "cogs" / "game" / "engine.py").write_text(
        "from .views import Views\nclass GameEngine(Views):\n    pass\n"
    )
    assert spread_classes(tmp_path) == {"bot.whole.Whole", "bot.whole.Hidden", "cogs.game.engine.GameEngine"}


def test_no_class_is_spread_over_files():
    """A class's methods are in one file, and every collaborator comes through its constructor:
    a checker follows each class, and a reader finds it whole."""
    assert spread_classes(ROOT) == set()


SQL = re.compile(r"\b(SELECT .* FROM|INSERT INTO|UPDATE \w+ SET|DELETE FROM|CREATE (TABLE|INDEX))\b")


def sql_strings(tree: ast.AST) -> list[str]:
    """String literals (and f-strings' literal parts) that hold a SQL statement."""
    return [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str) and SQL.search(n.value)]


def test_the_sql_check_sees_a_statement():
    code = 'q = "SELECT id FROM game_tables"\nhelp = "Select a table from the list"'
    assert sorted(sql_strings(ast.parse(code))) == ["SELECT id FROM game_tables"]


def test_all_sql_lives_in_storage():
    """A reader finds every query on a table in ``bot/storage/``, one module per owner."""
    found = {}
    for path in [*BOT.rglob("*.py"), *(ROOT / "cogs").rglob("*.py")]:
        if BOT / "storage" in path.parents:
            continue
        statements = sql_strings(ast.parse(path.read_text()))
        if statements:
            found[str(path.relative_to(ROOT))] = statements
    assert found == {}


def reads_of_statement_text(tree: ast.AST) -> list[str]:
    """Uses of a name ``sql`` other than passing it on: a driver reading a statement to decide
    how to run it (``sql.upper()``, ``sql in ...``)."""
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id == "sql" and isinstance(node.ctx, ast.Load):
            parent = parents[node]
            if not (isinstance(parent, ast.Call) and node in parent.args):
                found.append(ast.unparse(parent))
    return found


def test_the_scan_check_sees_a_driver_reading_a_statement():
    code = 'if sql.lstrip()[:7].upper().startswith(WRITES): pass\nif sql in MAY_WAIT: pass\nrun(sql, params)'
    assert sorted(reads_of_statement_text(ast.parse(code))) == ["sql in MAY_WAIT", "sql.lstrip"]


def test_no_database_driver_reads_a_statement_to_decide_how_to_run_it():
    """The caller's choice of method (fetch or execute) decides; ``dialect.py`` only translates."""
    for name in ("sqlite.py", "postgres.py"):
        assert reads_of_statement_text(ast.parse((BOT / "storage" / name).read_text())) == [], name
