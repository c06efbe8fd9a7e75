"""The pages' HTML, from what the table message and the DMs show: the games' own ``TableView`` and
``Prompt``, the record's lines, and the catalogs. No word is written here; every text comes from a
catalog or a game's renderer, and is escaped (``markup``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from string import Template
from typing import Any
from urllib.parse import urlencode

from bot.core.games import REGISTRY, Prompt, TableView
from bot.core.i18n import LANGUAGES, Lang
from bot.storage.store import TableRow
from bot.tables import render
from bot.web import assets
from bot.web.markup import escape, plain, to_html

TEMPLATES = Path(__file__).resolve().parent / "templates"
_loaded: dict[str, Template] = {}


def template(name: str) -> Template:
    if name not in _loaded:
        _loaded[name] = Template((TEMPLATES / name).read_text(encoding="utf-8"))
    return _loaded[name]


class Reader(Lang):
    """A page's language, and whether its reader chose it (``?lang=``) rather than their browser or
    the table deciding: only a choice is carried on in the links the page makes (``chosen``), so a
    link someone shares opens in the language of whoever follows it."""

    def __init__(self, language: str, chosen: bool) -> None:
        super().__init__(language)
        self.chosen = chosen


def chosen(tr: Lang) -> str | None:
    """``?lang=`` for the links of a page read in ``tr``: the reader's choice, else none."""
    return tr.language if isinstance(tr, Reader) and tr.chosen else None


@dataclass
class Shell:
    """What every page has around its body: its language, title, address prefix and scripts."""

    tr: Lang
    title: str
    base: str  # the path the pages are served under ("" or "/tabletop")
    path: str | None  # this page's path, for its language links (None: an error, no links)
    query: dict[str, str]
    script: str = ""
    main: dict[str, str] | None = None


def page(shell: Shell, body: str) -> str:
    tr = shell.tr
    links = []
    for code in LANGUAGES if shell.path is not None else ():
        query = escape(urlencode({**shell.query, "lang": code}))
        current = ' aria-current="true"' if code == tr.language else ""
        links.append(f'<a href="{escape(shell.base + (shell.path or ""))}?{query}" hreflang="{code}"{current}>{escape(tr(f"language.{code}"))}</a>')
    attributes = "".join(f' data-{k}="{escape(v)}"' for k, v in (shell.main or {}).items())
    script = f'<script src="{escape(assets.url(shell.base, shell.script))}" defer></script>' if shell.script else ""
    return template("page.html").substitute(
        lang=tr.language,
        title=escape(shell.title),
        base=escape(shell.base),
        style=escape(assets.url(shell.base, "style.css")),
        icon=escape(assets.url(shell.base, "favicon.svg")),
        site=escape(tr("web.site")),
        languages=escape(tr("web.languages")),
        language_links=" ".join(links),
        main=attributes,
        body=body,
        script=script,
    )


def message(tr: Lang, heading: str, text: str) -> str:
    return f"<h1>{escape(heading)}</h1>\n<p>{to_html(text)}</p>"


# ---- the table message ---------------------------------------------------------------------------
def view_html(view: TableView, image: str | None, names: dict[int, str], tr: Lang, level: int = 2) -> str:
    """A game's ``TableView`` as the embed shows it: title, text, fields, picture, the legend of its
    marks and its footer."""
    parts = [f'<section class="view" style="--accent:#{view.colour:06x}">']
    parts.append(f"<h{level}>{to_html(view.title, names)}</h{level}>")
    if view.description:
        parts.append(f'<div class="text">{to_html(view.description, names)}</div>')
    for name, value in view.fields:
        parts.append(f'<section class="field"><h{level + 1}>{to_html(name, names)}</h{level + 1}>')
        parts.append(f'<div class="text">{to_html(value or "—", names)}</div></section>')
    if image:
        parts.append(f'<img src="{escape(image)}" alt="{escape(plain(view.title))}" loading="lazy">')
    footer = render.footer_text(view, tr)
    if footer:
        parts.append(f'<p class="footer">{to_html(footer, names)}</p>')
    parts.append("</section>")
    return "\n".join(parts)


def mentions(table: TableRow, tr: Lang) -> dict[int, str]:
    return {s.user_id: render.seat_name(s, tr) for s in table.seats if s.user_id is not None}


def status_html(table: TableRow, to_act: list[int], tr: Lang) -> str:
    """Whose turn it is and the clock, as the table message's first line says it."""
    lines = []
    if to_act:
        names = [f"**{render.seat_name(table.seats[s], tr)}**" for s in to_act]
        lines.append(tr("table.to_act", players=tr.join(names)))
    clock = render.clock_text(table, tr)
    if clock:
        lines.append(clock)
    if table.clock:
        policy = tr(f"clock.policy.{table.on_timeout}")
        lines.append(tr("lobby.clock", clock=render.clock_name(table.clock, tr), policy=policy))
    return "".join(f'<p class="status">{to_html(line, mentions(table, tr))}</p>' for line in lines)


def latest(groups: list[tuple[int, list[str]]], limit: int) -> tuple[list[tuple[int, list[str]]], int]:
    """The record's latest lines, at most ``limit`` of them, by whole deals back from the last (the
    last deal's own last lines if it alone has more), and how many earlier lines were left out: a
    long game's page stays a page (a Final Quest of 1,741 actions printed 76,090 px of it)."""
    kept: list[tuple[int, list[str]]] = []
    room = limit
    for deal, lines in reversed(groups):
        if not kept:
            kept.append((deal, lines[-limit:]))
            room -= len(kept[0][1])
        elif len(lines) <= room:
            kept.append((deal, lines))
            room -= len(lines)
        else:
            break
    kept.reverse()
    return kept, sum(len(lines) for _, lines in groups) - sum(len(lines) for _, lines in kept)


def game_text(game: str, key: str, tr: Lang, **params: Any) -> str:
    """A platform text in the game's own words where the game has them (``<game>.<key>``): Saizen
    plays rounds, not deals."""
    own = f"{game}.{key}"
    return tr(own if tr.has(own) else key, **params)


def record_html(
    groups: list[tuple[int, list[str]]],
    tr: Lang,
    names: dict[int, str],
    left_out: int = 0,
    replay: str | None = None,
    game: str = "",
) -> str:
    """The record's lines, by deal when there are several (the latest open); ``left_out`` earlier
    lines are counted, and ``replay`` (a finished game's) links where they all are."""
    if not groups:
        return ""
    parts = [f'<section class="record"><h2>{escape(tr("web.record"))}</h2>']
    if left_out:
        note = escape(tr("web.record_cut", count=left_out))
        if replay:
            note += f' <a href="{escape(replay)}">{escape(tr("web.record_whole"))}</a>'
        parts.append(f'<p class="hint">{note}</p>')
    for i, (deal, lines) in enumerate(groups):
        items = "<ol>" + "".join(f"<li>{to_html(line, names)}</li>" for line in lines) + "</ol>"
        if len(groups) == 1:
            parts.append(items)
            continue
        opened = " open" if i == len(groups) - 1 else ""
        parts.append(f"<details{opened}><summary>{escape(game_text(game, 'web.deal', tr, deal=deal))}</summary>{items}</details>")
    parts.append("</section>")
    return "\n".join(parts)


def links_html(links: list[tuple[str, str]]) -> str:
    if not links:
        return ""
    items = "".join(f'<li><a href="{escape(href)}">{escape(text)}</a></li>' for text, href in links)
    return f'<nav class="links"><ul>{items}</ul></nav>'


def lobby_html(table: TableRow, tr: Lang) -> str:
    ui = REGISTRY[table.game]
    parts = [f"<h2>{escape(tr('web.lobby'))}</h2>"]
    summary = ui.option_summary(table.options, table.size, tr)
    if summary:
        parts.append(f'<section class="field"><h3>{escape(tr("lobby.options"))}</h3><div class="text">{to_html(summary)}</div></section>')
    seats = "".join(f"<li>{to_html(render.seat_label(s, tr))}</li>" for s in table.seats)
    heading = escape(tr("lobby.players", count=len(table.seats), size=table.size))
    parts.append(f'<section class="field"><h3>{heading}</h3><ol>{seats}</ol></section>')
    clock = render.clock_name(table.clock, tr) if table.clock else tr("lobby.no_clock")
    parts.append(f'<p class="status">{to_html(clock)} · {to_html(tr("lobby.rated" if table.rated else "lobby.casual"))}</p>')
    return "\n".join(parts)


# ---- the replay ----------------------------------------------------------------------------------
def choice_label(prompt: Prompt, action: str) -> str | None:
    """How the acting seat's own prompt named ``action``: a card, a square, Pass …"""
    for choice in [*prompt.choices, *(c for menu in prompt.menus for c in menu.choices)]:
        if choice.action == action:
            return f"{choice.emoji} {choice.label}".strip() if choice.emoji else choice.label
    return None


def chips(choices: list[Any]) -> str:
    items = []
    for c in choices:
        label = f"{c.emoji} {c.label}".strip() if c.emoji else c.label
        mark = ' class="playable"' if c.action is not None else ""
        items.append(f"<li{mark}>{escape(label)}</li>")
    return f'<ul class="chips">{"".join(items)}</ul>' if items else ""


def hand_html(name: str, prompt: Prompt) -> str:
    """One seat at this step, seen from outside (``GameUI.onlooker``): its cards or choices, the
    playable ones marked."""
    parts = [f'<article class="hand"><h3>{escape(name)}</h3>', f'<div class="text">{to_html(prompt.text)}</div>']
    parts.append(chips(prompt.choices))
    for menu in prompt.menus:
        parts.append(f"<details><summary>{escape(menu.placeholder)}</summary>{chips(menu.choices)}</details>")
    parts.append("</article>")
    return "\n".join(parts)


def step_html(move: str, lines: list[str], view: str, hands: list[str], tr: Lang) -> str:
    parts = [f'<p class="move">{to_html(move)}</p>']
    if lines:
        parts.append('<ul class="lines">' + "".join(f"<li>{to_html(line)}</li>" for line in lines) + "</ul>")
    parts.append(view)
    if hands:
        parts.append(f'<section class="hands"><h2>{escape(tr("web.replay.hands"))}</h2>{"".join(hands)}</section>')
    return "\n".join(parts)


def controls_html(step: int, total: int, tr: Lang) -> str:
    """The slider, the buttons (links without the script) and the keys' hint."""
    def button(key: str, target: int, symbol: str) -> str:
        label = escape(tr(f"web.replay.{key}"))
        return f'<a class="button" data-go="{key}" href="?step={target}" aria-label="{label}" title="{label}">{symbol}</a>'

    position = escape(tr("web.replay.step", step=step, total=total))
    return "\n".join([
        '<div class="controls" role="group">',
        button("first", 0, "⏮"),
        button("previous", max(step - 1, 0), "◀"),
        f'<input type="range" id="step" min="0" max="{total}" value="{step}" aria-label="{escape(tr("web.replay.slider"))}">',
        button("next", min(step + 1, total), "▶"),
        button("last", total, "⏭"),
        f'<output for="step" id="position" aria-live="polite">{position}</output>',
        "</div>",
        f'<p class="hint">{escape(tr("web.replay.keys"))}</p>',
    ])


def scores_html(deals: list[tuple[int, int, list[str]]], tr: Lang, game: str = "") -> str:
    """Each deal's closing lines (its scores, in the game's own words), linked to their step; a
    game of one part has its result, not "scores by deal" over a single item."""
    if not deals:
        return ""
    items = []
    for deal, step, lines in deals:
        text = "".join(f"<div>{to_html(line)}</div>" for line in lines)
        name = game_text(game, "web.deal", tr, deal=deal) if len(deals) > 1 else tr("web.replay.end")
        items.append(f'<li><a href="?step={step}" data-step="{step}">{escape(name)}</a>{text}</li>')
    heading = game_text(game, "web.replay.scores", tr) if len(deals) > 1 else tr("web.replay.result")
    return f'<section class="scores"><h2>{escape(heading)}</h2><ol>{"".join(items)}</ol></section>'
