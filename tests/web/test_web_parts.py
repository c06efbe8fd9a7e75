"""The pages' parts: markdown made safe HTML, signed ids, the configuration, and no words of their
own in the pages' code or templates (every text comes from the catalogs or a game's renderer)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from bot.core.config import ConfigError, parse
from bot.web.markup import plain, to_html
from bot.web.signing import Signer

WEB = Path(__file__).resolve().parents[2] / "bot" / "web"


def test_markdown_becomes_html_and_nothing_else_does():
    assert to_html("**alice** · ~~♠5 bob~~") == "<strong>alice</strong> · <s>♠5 bob</s>"
    assert to_html("a <script>alert(1)</script> & \"b\"") == "a &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;b&quot;"
    assert to_html("**<img src=x onerror=alert(1)>**") == "<strong>&lt;img src=x onerror=alert(1)&gt;</strong>"
    assert to_html("`**not bold**` and ```\n1. B:r:d3\n```\nafter") == (
        "<code>**not bold**</code> and <pre><code>1. B:r:d3</code></pre>after"
    )
    assert to_html("[the table](https://discord.com/channels/1/2/3)") == (
        '<a href="https://discord.com/channels/1/2/3" rel="noopener">the table</a>'
    )
    assert to_html("[x](javascript:alert(1))") == "[x](javascript:alert(1))", "only web links become links"
    assert to_html("move due <t:1800000000:R>") == (
        'move due <time datetime="2027-01-15T08:00:00Z" data-style="R">2027-01-15 08:00 +00:00</time>'
    )
    assert to_html("<@42> and <@7>", {42: "<b>alice</b>"}) == "&lt;b&gt;alice&lt;/b&gt; and @…"
    assert to_html("one\ntwo") == "one<br>\ntwo"
    assert plain("**Trick 3** · `B:r:d3`") == "Trick 3 · B:r:d3"


def test_a_page_id_is_signed_and_nothing_else_passes():
    signer = Signer("a secret of at least sixteen characters")
    token = signer.token(12)
    assert re.fullmatch(r"12-[A-Za-z0-9_-]{22}", token)
    assert signer.number(token) == 12
    assert signer.number(signer.token(12, kind="event"), kind="event") == 12
    assert signer.number(signer.token(12, kind="event")) is None, "an event's id opens no table"
    assert Signer("another secret entirely, sixteen+").number(token) is None
    assert signer.number("13-" + token.split("-")[1]) is None
    for bad in ("12", "12-", "0-" + "A" * 22, "-1-" + "A" * 22, token + "x", " " + token, "12-" + "A" * 22):
        assert signer.number(bad) is None, bad


def test_the_pages_are_configured_with_defaults_that_work_out_of_the_box():
    config = parse({})
    assert (config.web_host, config.web_port, config.public_url, config.web_pages) == ("127.0.0.1", 8080, "", True)
    config = parse({"web_port": 0, "public_url": "https://games.example/tt/", "web_pages": False})
    assert (config.web_port, config.public_url, config.web_pages) == (0, "https://games.example/tt", False)
    for raw, key in (
        ({"web_port": 70000}, "web_port"),
        ({"web_port": "8080"}, "web_port"),
        ({"public_url": "games.example"}, "public_url"),
        ({"web_pages": "yes"}, "web_pages"),
        ({"web_secret": "short"}, "web_secret"),
    ):
        with pytest.raises(ConfigError, match=key):
            parse(raw)


TAG = re.compile(r"<[^>]*>")
WORD = re.compile(r"[^\W\d_]{2,}")


def words_outside_tags(text: str) -> list[str]:
    text = re.sub(r"\{[^{}]*\}|\$\{?\w+\}?|&\w+;", " ", TAG.sub(" ", text))
    return WORD.findall(text)


@pytest.mark.parametrize("path", sorted(WEB.glob("*.py")), ids=lambda p: p.name)
def test_the_pages_code_writes_no_word_of_its_own(path):
    """A string that holds HTML holds only tags and placeholders: the words come from catalogs."""
    found, skipped = [], set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):  # judged whole, not part by part
            skipped |= {id(v) for v in node.values}
        body = getattr(node, "body", None)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and body:
            if isinstance(body[0], ast.Expr):
                skipped.add(id(body[0].value))  # a docstring
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.JoinedStr):
            text = "".join(v.value if isinstance(v, ast.Constant) else "{x}" for v in node.values)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        else:
            continue
        if TAG.search(text) and words_outside_tags(text):
            found.append(f"{path.name}:{node.lineno}: {text!r}")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("path", sorted((WEB / "templates").iterdir()), ids=lambda p: p.name)
def test_the_templates_write_no_word_of_their_own(path):
    assert words_outside_tags(path.read_text(encoding="utf-8")) == []


def test_the_word_check_sees_a_word():
    assert words_outside_tags('<p class="x">Replay</p>') == ["Replay"]
    assert words_outside_tags('<p class="move">{to_html(move)}</p> ⏮ · $title') == []
