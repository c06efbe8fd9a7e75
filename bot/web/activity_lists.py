"""What the Activity's page asks before it shows a table: the application's id (which the Embedded
App SDK needs before it can say anything to Discord), and which table to open.

An Activity opens in a channel, not at a table: the member may have pressed **Play in Discord** on
one (the store remembers it, ``launched_table``), the channel may hold one table, or several, or
the server's tables are elsewhere. The page opens the launched table, else the channel's only one,
else shows this list to pick from. A session that no Activity instance placed in a server sees
only the tables its member sits at, as everywhere else (``check_place``).
"""

from __future__ import annotations

from typing import Any

from bot.core.i18n import Lang
from bot.storage.store import Store, TableRow
from bot.tables import render
from bot.web.activity_auth import Session
from bot.web.markup import plain


async def open_tables(store: Store, session: Session, tr: Lang) -> dict[str, Any]:
    """The tables the member may open here, the channel's first, and the one they launched."""
    if session.guild_id is None:
        rows = await store.tables_of_user(session.member_id)
    else:
        rows = await store.tables_in_server(session.guild_id)
    here = [r for r in rows if session.channel_id is not None and session.channel_id in (r.channel_id, r.thread_id)]
    rest = [r for r in rows if r not in here]
    return {
        "launched": await launched(store, session, {r.id for r in rows}),
        "here": [entry(r, session, tr) for r in here],
        "elsewhere": [entry(r, session, tr) for r in rest],
        "placed": session.guild_id is not None,
    }


async def launched(store: Store, session: Session, open_ids: set[int]) -> int | None:
    """The table the member pressed **Play in Discord** on for this channel, if still open here
    (stored by the launch button, ``bot/tables/launch.py``)."""
    if session.guild_id is None or session.channel_id is None:
        return None
    table_id = await store.launched_table(session.member_id, session.guild_id, session.channel_id)
    return table_id if table_id in open_ids else None


def entry(row: TableRow, session: Session, tr: Lang) -> dict[str, Any]:
    """One line of the picker: the table's title, where it stands, and who sits at it."""
    players = tr.join(render.seat_name(s, tr) for s in row.seats)
    status = tr("mygames.lobby" if row.status == "lobby" else "mygames.running")
    return {
        "id": row.id,
        "game": row.game,
        "title": plain(render.game_title(row, tr)),
        "status": row.status,
        "summary": " · ".join(p for p in (status, players) if p),
        "seated": row.seat_of(session.member_id) is not None,
    }
