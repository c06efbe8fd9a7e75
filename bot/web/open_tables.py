"""A server index's open tables, as ``/tables`` lists them: the lobbies waiting for players, then
the games in play, each with its game, options, seats free, clock and host, and a link to its
page. Only the server's own tables, and only those played where @everyone can look
(``Site.table_listed``): a table in a staff channel is named on no index.
"""

from __future__ import annotations

from bot.core.games import REGISTRY
from bot.core.i18n import Lang
from bot.storage.store import TableRow
from bot.tables import render
from bot.tables.finding import LOBBIES, RUNNING
from bot.web.markup import escape, plain
from bot.web.pages import chosen
from bot.web.site import Site


def host_name(table: TableRow, tr: Lang) -> str:
    host = next((s for s in table.seats if s.user_id == table.host_id), None)
    return render.seat_name(host, tr) if host is not None else "—"


def options_text(table: TableRow, tr: Lang) -> str:
    summary = REGISTRY[table.game].option_summary(table.options, table.size, tr)
    options = " · ".join(filter(None, plain(summary).splitlines()))
    if table.guests:
        options = f"{options} · {tr('tables.invite_only')}" if options else tr("tables.invite_only")
    return options or "—"


def line(site: Site, table: TableRow, tr: Lang) -> str:
    name = f"{tr(f'{table.game}.name')} #{table.id}"
    href = site.href(table.id, lang=chosen(tr))
    clock, host = render.clock_name(table.clock, tr), host_name(table, tr)
    if table.status == "lobby":
        about = tr("web.open.lobby", options=options_text(table, tr), free=table.size - len(table.seats),
                   size=table.size, clock=clock, host=host)
    else:
        players = tr.join((render.seat_name(s, tr) for s in table.seats), conjunction=False)
        about = tr("web.open.running", players=players, clock=clock, host=host)
    return f'<li><a href="{escape(href)}">{escape(name)}</a> · {escape(about)}</li>'


async def open_tables_html(site: Site, guild_id: int, tr: Lang) -> str:
    found = [t for t in await site.store.tables_in_server(guild_id) if t.game in REGISTRY and await site.table_listed(t)]
    lobbies = [t for t in found if t.status == "lobby" and t.tournament_id is None][:LOBBIES]
    running = [t for t in found if t.status == "running"][:RUNNING]
    parts = [f'<section class="open-tables"><h2>{escape(tr("web.open.title"))}</h2>']
    if not lobbies and not running:
        parts.append(f"<p>{escape(tr('web.open.none'))}</p>")
    for heading, tables in ((tr("tables.waiting", count=len(lobbies)), lobbies),
                            (tr("tables.playing", count=len(running)), running)):
        if tables:
            items = "".join(line(site, t, tr) for t in tables)
            parts.append(f"<h3>{escape(heading)}</h3><ul>{items}</ul>")
    parts.append("</section>")
    return "".join(parts)
