"""No user-facing literal in code: texts people read come from the message catalogs, and command
declarations match them."""

from __future__ import annotations

import ast
import re
import unicodedata
from pathlib import Path

import pytest

from bot.core.i18n import catalog
from tests.support.catalogs import ROOT, translated

# ---- (c) no user-facing literal in code ---------------------------------------------------------

#: Keyword arguments that Discord shows to people.
SHOWN_KEYWORDS = {
    "content",
    "description",
    "group_description",
    "group_name",
    "label",
    "name",
    "placeholder",
    "reason",
    "text",
    "title",
}
SEND_CALLS = {"send", "send_message"}
LOG_CALLS = {"debug", "info", "warning", "error", "exception", "critical", "log"}
CATALOG_KEY = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z0-9_{}]+)+\.?$")
WORD = re.compile(r"[^\W\d_]{2,}")


def code_files() -> list[Path]:
    names = (
        "tables/commands",
        "tables/desk",
        "tables/settings_command",
        "tables/permissions",
        "events/round_checks",
        "guilds",
        "tables/render",
        "events/commands",
        "events/create_command",
        "events/desk",
        "events/render",
        "ratings/commands",
    )
    files = [ROOT / f"bot/{name}.py" for name in names]
    for game in sorted(translated() - {"bot"}):
        files += [p for p in (ROOT / f"cogs/{game}/{name}.py" for name in ("cog", "render", "texts")) if p.exists()]
    return files


def _call_name(node: ast.Call) -> str:
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _is_text(node: ast.AST) -> bool:
    return isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, str))


def _text(node: ast.AST) -> str:
    """A string constant, or an f-string with every {field} written as "x"."""
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "x" for v in node.values)
    return node.value


def _strings_below(node: ast.AST) -> set[int]:
    return {id(sub) for sub in ast.walk(node) if _is_text(sub)}


def _has_letters(text: str) -> bool:
    return bool(WORD.search(text)) or any(unicodedata.category(c).startswith("L") for c in text if c != "x")


def _is_sentence(text: str) -> bool:
    """Words a person reads: a space and a word once {fields} are gone, or any non-ASCII letter."""
    bare = re.sub(r"\{[^{}]*\}", "", text)
    if any(ord(c) > 127 and unicodedata.category(c).startswith("L") for c in bare):
        return True
    return bool(re.search(r"\s", bare.strip()) and WORD.search(bare))


def user_facing_literals(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    exempt: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and body:
            first = body[0]
            if isinstance(first, ast.Expr) and _is_text(first.value):
                exempt.add(id(first.value))  # docstring
        if isinstance(node, ast.JoinedStr):
            exempt |= _strings_below(node) - {id(node)}  # judged as a whole, not part by part
        if isinstance(node, ast.Call):
            name = _call_name(node)
            if name == "locale_str" and node.args and any(k.arg == "key" for k in node.keywords):
                exempt.add(id(node.args[0]))  # the English default of a catalog key
            elif name == "command" and node.args and _is_text(node.args[0]):
                exempt |= _strings_below(node)  # translator.command: English defaults of catalog keys
            elif name in LOG_CALLS:
                exempt |= _strings_below(node)
        elif isinstance(node, ast.Raise) and node.exc is not None:
            exempt |= _strings_below(node.exc)  # exceptions are for developers; UserError takes a key
    found = []

    def flag(node: ast.AST, why: str) -> None:
        if id(node) not in exempt and not CATALOG_KEY.match(_text(node)):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {why}: {_text(node)!r}")
            exempt.add(id(node))

    for node in ast.walk(tree):
        keywords: list[ast.keyword] = []
        if isinstance(node, ast.Call):
            name = _call_name(node)
            keywords = [
                k for k in node.keywords if k.arg in SHOWN_KEYWORDS or (k.arg, name) == ("value", "add_field")
            ]
            if (
                name in SEND_CALLS
                and node.args
                and _is_text(node.args[0])
                and _has_letters(_text(node.args[0]))
            ):
                flag(node.args[0], "text sent")
        elif isinstance(node, ast.ClassDef):
            keywords = [k for k in node.keywords if k.arg in SHOWN_KEYWORDS]
        for keyword in keywords:
            if _is_text(keyword.value) and _has_letters(_text(keyword.value)):
                flag(keyword.value, f"{keyword.arg}=")
    for node in ast.walk(tree):
        if _is_text(node) and _is_sentence(_text(node)):
            flag(node, "sentence")
    return found


def test_the_literal_check_catches_what_it_should(tmp_path, monkeypatch):
    sample = tmp_path / "cogs" / "sample.py"
    sample.parent.mkdir()
    sample.write_text(
        '"""A docstring is fine."""\n'
        "import logging\n"
        "log = logging.getLogger(__name__)\n"
        "async def f(i, tr, a, b):\n"
        '    """So is this one."""\n'
        '    log.warning("missing permission: %s", a)\n'
        '    text = tr("donguri.name") + f"{a} · {b}" + tr(f"donguri.majority.{a}")\n'
        '    cmd = locale_str("Open a table here", key="cmd.x.description")\n'
        '    await i.response.send_message("Done")\n'
        '    button = Button(label="Join", custom_id=f"tt:join:{a}")\n'
        '    shown = "Game over"\n'
        '    title = f"Deal {a} of {b}"\n'
        '    thread = f"{a} · {b}"\n'
        '    japanese = "どんぐり"\n'
        '    raise RuntimeError("not for players")\n',
        encoding="utf-8",
    )
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    found = sorted(line.split(": ", 1)[1] for line in user_facing_literals(sample))
    assert found == [
        "label=: 'Join'",
        "sentence: 'Deal x of x'",
        "sentence: 'Game over'",
        "sentence: 'どんぐり'",
        "text sent: 'Done'",
    ]


@pytest.mark.parametrize("path", code_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_user_facing_literal_in_code(path):
    found = user_facing_literals(path)
    assert not found, "move these texts into a message catalog:\n" + "\n".join(found)


def command_strings(node: ast.Call) -> list[tuple[str, str]]:
    """(English default, key) of a ``translator.command(key, description, **options)`` declaration."""
    key, description = node.args[0].value, node.args[1].value
    options = {k.arg: k.value for k in node.keywords if k.arg is not None}
    shared = options.pop("options_key", None)
    base = shared.value if shared is not None else key
    out = [(key.rsplit(".", 1)[-1], f"{key}.name"), (description, f"{key}.description")]
    for param, value in options.items():
        if isinstance(value, ast.Tuple):
            text, prefix = value.elts[0].value, value.elts[1].value
        else:
            text, prefix = value.value, f"{base}.{param}"
        out += [(param, f"{prefix}.name"), (text, f"{prefix}.description")]
    return out


def locale_strings(path: Path) -> list[tuple[str, str]]:
    """(English default, key) of every ``locale_str("...", key="...")`` and ``command(...)`` in a file."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and _call_name(node) == "command" and node.args:
            out += command_strings(node)
        if isinstance(node, ast.Call) and _call_name(node) == "locale_str" and node.args:
            key = next((k.value for k in node.keywords if k.arg == "key"), None)
            assert _is_text(node.args[0]) and key is not None and _is_text(key), (
                f"{path.relative_to(ROOT)}:{node.lineno}: locale_str needs a literal default and key="
            )
            out.append((node.args[0].value, key.value))
    return out


@pytest.mark.parametrize(
    "path",
    [
        *(
            ROOT / f"bot/{name}.py"
            for name in (
                "tables/commands", "tables/settings_command", "events/commands", "events/create_command",
                "ratings/commands",
            )
        ),
        *(ROOT / f"cogs/{g}/cog.py" for g in sorted(translated() - {"bot"})),
    ],
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_command_texts_come_from_the_catalogs(path):
    pairs = locale_strings(path)
    assert pairs, "commands are declared with locale_str"
    en, ja = catalog("en"), catalog("ja")
    for default, key in pairs:
        assert en.get(key) == default, f"{key}: code says {default!r}, en catalog {en.get(key)!r}"
        assert isinstance(ja.get(key), str), f"{key} has no Japanese text"


# ---- lists go through Lang.join -----------------------------------------------------------------

#: Code that builds text people read, beyond the files above: result lines and the profile.
LIST_FILES = ("bot/core/results.py", "bot/ratings/commands.py", "bot/events/render.py")


def comma_joins(path: Path) -> list[str]:
    """``", ".join(...)`` (or 「、」) in code: a list written in one language's punctuation."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        func = node.func if isinstance(node, ast.Call) else None
        if (
            isinstance(func, ast.Attribute)
            and func.attr == "join"
            and isinstance(func.value, ast.Constant)
            and isinstance(func.value.value, str)
            and ("," in func.value.value or "、" in func.value.value)
        ):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {func.value.value!r}.join")
    return found


def test_the_comma_join_check_catches_what_it_should(tmp_path, monkeypatch):
    sample = tmp_path / "sample.py"
    sample.write_text('a = ", ".join(x)\nb = "、".join(x)\nc = " · ".join(x)\nd = tr.join(x)\n', encoding="utf-8")
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    assert [f.split(": ", 1)[1] for f in comma_joins(sample)] == ["', '.join", "'、'.join"]


@pytest.mark.parametrize(
    "path", sorted({*code_files(), *(ROOT / f for f in LIST_FILES)}), ids=lambda p: str(p.relative_to(ROOT))
)
def test_lists_in_text_are_joined_by_the_language(path):
    """Names, cards and details are listed with ``Lang.join``, which writes 「、」 in Japanese."""
    found = comma_joins(path)
    assert not found, "use tr.join(items) (or conjunction=False for a roster):\n" + "\n".join(found)
