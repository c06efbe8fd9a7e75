"""What the Activity shows one member: the table as everyone sees it, and their own hand only.

Everything public comes from what the table message and the pages draw (the game's ``TableView``,
whose turn, the clock, the record); the member's hand and choices come from the very ``Prompt``
their DM's buttons are made of (``GameUI.prompt``), for their own seat and no other. A spectator
gets no prompt at all. Nothing here reads ``engine.observation`` of a seat but through that prompt.
"""

from __future__ import annotations

from typing import Any

from bot.core import results
from bot.core.drawing import unencoded
from bot.core.engine import Engine
from bot.core.games import REGISTRY, Choice, Prompt
from bot.core.i18n import Lang
from bot.storage.store import Store, TableRow
from bot.tables import render
from bot.tables.service import TableService
from bot.tables.terms import LEVELS
from bot.web import pages
from bot.web.markup import plain, to_html
from bot.web.site import RECORD, record_lines

OPEN = ("lobby", "running")


class States:
    def __init__(self, store: Store, service: TableService) -> None:
        self.store = store
        self.service = service

    async def engine(self, table: TableRow) -> Engine | None:
        return None if table.status in ("lobby", "cancelled") or table.seed is None else await self.service.engine(table)

    async def of(self, table: TableRow, member_id: int, tr: Lang, engine: Engine | None = None) -> dict[str, Any]:
        """The member's state of ``table`` (``engine``: its game at that version, when already read)."""
        if engine is None:
            engine = await self.engine(table)
        rows = await self.store.log_after(table.id, 0) if engine is not None else []
        return draw(table, engine, member_id, tr, rows)


def draw(table: TableRow, engine: Engine | None, member_id: int, tr: Lang, rows: list[Any]) -> dict[str, Any]:
    seat = table.seat_of(member_id)
    running = engine is not None and table.status == "running" and not engine.is_terminal()
    to_act = engine.to_act() if running and engine is not None else []
    names = pages.mentions(table, tr)
    data: dict[str, Any] = {
        "table": {
            "id": table.id,
            "game": table.game,
            "game_name": tr(f"{table.game}.name"),
            "title": plain(render.game_title(table, tr)),
            "status": table.status,
            "version": table.version,
            # What a move says it was made from (a button's too): the number of actions played.
            "seen": len(engine.history) if engine is not None else 0,
            "size": table.size,
            "language": tr.language,
        },
        "seats": seats(table, engine, member_id, to_act, tr),
        "to_act": to_act,
        "your_turn": seat is not None and seat in to_act,
        "clock": {
            "per_turn": table.clock,
            "deadline": table.deadline if running else None,
            "paused": table.paused,
            "on_timeout": table.on_timeout,
        },
        "status_html": pages.status_html(table, to_act, tr) if table.status in OPEN else "",
        "you": {"member": str(member_id), "seat": seat, "host": member_id == table.host_id, "prompt": None},
        "labels": labels(tr),
    }
    if engine is None:
        data["view"] = {"html": pages.lobby_html(table, tr) if table.status == "lobby" else "", "image": False}
        data["lobby"] = lobby(table, member_id) if table.status == "lobby" else None
        return data
    with unencoded():  # the pictures are drawn only to learn whether there is one: ``/table.png`` sends it
        view = render.table_view(table, engine, tr)
        data["view"] = {"html": pages.view_html(view, None, names, tr), "image": view.image is not None}
        if seat is not None:
            data["you"]["prompt"] = prompt(table, engine, seat, tr)
    data["lobby"] = None
    groups, left_out = pages.latest(record_lines(table, engine, rows, tr), RECORD)
    data["record_html"] = pages.record_html(groups, tr, names, left_out)  # a finished table's view holds its result
    return data


def seats(table: TableRow, engine: Engine | None, member_id: int, to_act: list[int], tr: Lang) -> list[dict[str, Any]]:
    """Each seat as the seat list shows it, with its score when the game shows scores to all."""
    public = engine.public_view() if engine is not None else {}
    scores = public.get("scores")
    if table.status == "finished" and engine is not None:
        stored = results.stored_result(table, engine)
        scores = stored.get("scores") if stored else scores
    shown = isinstance(scores, list) and len(scores) == len(table.seats)
    return [
        {
            "position": i,
            "name": render.seat_name(s, tr),
            "label": render.seat_label(s, tr),
            "member": str(s.user_id) if s.user_id is not None else None,
            "computer": s.played_by_computer,
            "you": s.user_id == member_id,
            "acting": i in to_act,
            "score": scores[i] if shown and isinstance(scores, list) else None,
        }
        for i, s in enumerate(table.seats)
    ]


def prompt(table: TableRow, engine: Engine, seat: int, tr: Lang) -> dict[str, Any]:
    """The seat's own prompt, as its DM's buttons show it: every choice, the greyed ones with why."""
    ui = REGISTRY[table.game]
    names = render.seat_names(table, tr)
    asked: Prompt = ui.prompt(engine, seat, names, tr)
    playing = table.status == "running" and not engine.is_terminal() and not table.paused
    # The game says why its greyed choices are greyed, each reason once, as the table's **?** does.
    reasons = ui.greyed(engine, seat, names, tr) if playing else []
    why = " · ".join(reasons) or None
    legal = set(engine.legal_actions(seat)) if playing else set()

    def choice(c: Choice) -> dict[str, Any]:
        enabled = playing and c.action is not None and c.action in legal
        return {
            "action": c.action if enabled else None,
            "label": c.label,
            "emoji": c.emoji,
            "style": c.style,
            "enabled": enabled,
            "reason": None if enabled else why,
        }

    mentions = pages.mentions(table, tr)
    public = ui.public_choices(engine.public_view(), names, tr) if playing else []
    return {
        "text_html": to_html(asked.text, mentions),
        "choices": [choice(c) for c in asked.choices],
        "menus": [{"placeholder": m.placeholder, "choices": [choice(c) for c in m.choices]} for m in asked.menus],
        # The table message's own buttons (Final Quest's YES / NO), playable by this seat only when legal.
        "table_choices": [choice(c) for c in public if c.action in legal],
        "reasons": reasons,
        "image": asked.image is not None,
        "playing": playing,
    }


def lobby(table: TableRow, member_id: int) -> dict[str, Any]:
    """What the member may do in the lobby now (the lobby ops check it again when they do)."""
    seated = table.seat_of(member_id) is not None
    host = member_id == table.host_id
    full = len(table.seats) >= table.size
    min_players = REGISTRY[table.game].engine.min_players
    return {
        "can": {
            "join": not seated and not full,
            "leave": seated and not host,
            "start": host and len(table.seats) >= min_players,
            "add_computer": host and not full,
        },
        "levels": list(LEVELS),
        "seated": len(table.seats),
    }


def labels(tr: Lang) -> dict[str, str]:
    """The Activity's words for its own buttons, from the catalogs (its script writes none)."""
    found = {k: tr(f"button.{k}") for k in ("join", "leave", "start", "add_computer")}
    found.update({f"level.{k}": tr(f"level.{k}") for k in LEVELS})
    found.update({k: tr(f"activity.label.{k}", time="{time}") for k in LABELS})
    return found


#: The Activity's own words (``activity.label.*``), its script's every one: ``{time}`` in
#: ``time_left`` is filled in by the script, as the clock runs down.
LABELS = (
    "hand", "waiting", "your_turn", "spectating", "record", "connecting", "reconnecting", "ended",
    "seats", "you", "time_left", "choose", "here", "elsewhere", "mine", "none", "all_tables", "outside",
    "sending", "signing_in",
)
