"""What the pages read and who may read it: a table found by its signed id (and only while its
server shows pages), drawn as the table message draws it, and a finished game step by step.

The live page of a table is drawn once per version and language, whoever asks: every viewer of a
busy table gets the same drawing (``Fragment``), and so does its picture.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode, urlparse

from bot.core import results
from bot.core.drawing import UNENCODED, unencoded
from bot.core.engine import Engine
from bot.core.games import REGISTRY
from bot.core.i18n import Lang
from bot.storage.store import Store, TableRow
from bot.tables import render
from bot.tables.record_lines import draw
from bot.tables.service import TableService
from bot.web import pages
from bot.web.drawn import Drawn
from bot.web.export import export
from bot.web.live import shown
from bot.web.markup import escape, plain, to_html
from bot.web.off_loop import off_loop
from bot.web.privacy import Listed, PagesShown, listed_nowhere
from bot.web.replays import Replay, Replays
from bot.web.signing import Signer

DRAWINGS = 1024  # pages without their pictures: 5 to 20 kB each
DRAWN_BYTES = 48 * 2**20  # with the pictures asked for, tens of kB each
RECORD = 40  # the most lines of the record a live page shows (the replay has the whole game)


@dataclass
class Fragment:
    """A page's body, its title and the picture it shows (if any)."""

    html: str
    title: str
    image: bytes | None = None

    @property
    def size(self) -> int:
        return len(self.html) + len(self.title) + len(self.image or b"")


class Site:
    def __init__(
        self,
        store: Store,
        service: TableService,
        signer: Signer,
        shown: PagesShown,
        public_url: str = "",
        listed: Listed = listed_nowhere,
    ) -> None:
        self.store = store
        self.service = service
        self.signer = signer
        self.shown = shown
        #: Whether an index page (a server's, an event's, a profile) may list a table of a channel.
        self.listed = listed
        self.public_url = public_url.rstrip("/")
        #: The path the pages are served under, as people reach them (a reverse proxy's prefix).
        self.base = urlparse(self.public_url).path.rstrip("/")
        self.replays = Replays(store)
        self.drawings: Drawn[Fragment] = Drawn(DRAWINGS, lambda f: f.size, DRAWN_BYTES)

    # ---- addresses -------------------------------------------------------------------------------
    def path(self, table_id: int, suffix: str = "") -> str:
        return f"/t/{self.signer.token(table_id)}{suffix}"

    def href(self, table_id: int, suffix: str = "", **query: Any) -> str:
        """A link from one page to another (under the pages' prefix)."""
        return self.link(self.path(table_id, suffix), **query)

    def server_path(self, guild_id: int, suffix: str = "") -> str:
        return f"/s/{self.signer.token(guild_id, 'server')}{suffix}"

    def player_token(self, guild_id: int, user_id: int) -> str:
        """A member's profile id within one server: a member known in one server gives no way to
        their profile in another."""
        return self.signer.token(user_id, f"player:{guild_id}")

    def event_path(self, tournament_id: int, suffix: str = "") -> str:
        return f"/e/{self.signer.token(tournament_id, 'event')}{suffix}"

    def link(self, path: str, **query: Any) -> str:
        """A link to ``path`` (made by one of the ``…_path`` above) under the pages' prefix; a value
        None is left out (``lang`` when the reader chose none: ``pages.chosen``)."""
        query = {k: v for k, v in query.items() if v is not None}
        return self.base + path + (f"?{urlencode(query)}" if query else "")

    async def public(self, guild_id: int | None, path: str) -> str | None:
        """``path``'s address as Discord links to it: only with a public address, and only while
        the server shows its pages."""
        if not self.public_url or not await self.shown(guild_id):
            return None
        return self.public_url + path

    async def rating_page(self, guild_id: int, game: str, user_id: int | None = None) -> str | None:
        """The page ``/leaderboard`` (``user_id`` None) or ``/profile`` links to, if any."""
        suffix = f"/{game}" + (f"/{self.player_token(guild_id, user_id)}" if user_id is not None else "")
        return await self.public(guild_id, self.server_path(guild_id, suffix))

    async def table_listed(self, table: TableRow) -> bool:
        """May an index page list this table (its thread or channel is one @everyone sees)?"""
        return await self.listed(table.guild_id, table.home_channel_id)

    async def table_page(self, table: TableRow) -> str | None:
        """The table's page as Discord links to it (the ``table_page`` hook of ``TableHooks``): only
        when the pages have a public address and the table's server shows them."""
        if not self.public_url or not await self.shown(table.guild_id):
            return None
        return self.public_url + self.path(table.id)

    # ---- finding a table -------------------------------------------------------------------------
    async def find(self, token: str) -> TableRow | None:
        """The table of a page id; None for an id not signed here, a table that does not exist, or
        one whose server turned its pages off: all answer alike."""
        table_id = self.signer.number(token)
        if table_id is None:
            return None
        table = await self.store.get_table(table_id)
        if table is None or table.game not in REGISTRY or not await self.shown(table.guild_id):
            return None
        return table

    async def read(self, table_id: int) -> TableRow | None:
        return await self.store.get_table(table_id)

    # ---- the live table --------------------------------------------------------------------------
    async def live(self, table: TableRow, tr: Lang, picture: bool = False) -> Fragment:
        """What the table message shows now, with whose turn it is, the clock and the record; its
        picture encoded only when asked for (``picture``), as the page links it."""
        key = ("live", table.id, *shown(table), tr.language, pages.chosen(tr), picture)
        return await self.drawings.get_or_draw(key, lambda: self._live(table, tr, picture))

    async def live_event(self, table: TableRow, tr: Lang) -> bytes:
        """The live stream's event for the table as it is now, encoded once for all its viewers."""
        key = ("event", table.id, *shown(table), tr.language, pages.chosen(tr))

        async def draw() -> Fragment:
            fragment = await self.live(table, tr)
            data = json.dumps({"version": table.version, "title": fragment.title, "html": fragment.html})
            return Fragment("", "", f"id: {table.version}\nevent: table\ndata: {data}\n\n".encode())

        event = (await self.drawings.get_or_draw(key, draw)).image
        assert event is not None
        return event

    async def _live(self, table: TableRow, tr: Lang, picture: bool) -> Fragment:
        title = render.game_title(table, tr)
        heading = f"<h1>{escape(title)}</h1>"
        if table.status == "lobby":
            return Fragment(heading + pages.lobby_html(table, tr), title)
        if table.status == "cancelled":
            return Fragment(heading + f"<p>{escape(tr('table.cancelled'))}</p>", title)
        engine = (await self.service.engine(table)).clone()  # the game's own copy moves on meanwhile
        rows = await self.store.log_after(table.id, 0)
        return await off_loop(self._draw_live, table, engine, rows, tr, picture)

    def _draw_live(self, table: TableRow, engine: Engine, rows: list[Any], tr: Lang, picture: bool) -> Fragment:
        with drawing(picture):
            view = render.table_view(table, engine, tr)
        running = table.status == "running" and not engine.is_terminal()
        image = self.href(table.id, "/table.png", v=table.version, lang=pages.chosen(tr)) if view.image else None
        names = pages.mentions(table, tr)
        body = [pages.status_html(table, engine.to_act() if running else [], tr)]
        body.append(pages.view_html(view, image, names, tr, level=1))
        replay = self.href(table.id, "/replay", lang=pages.chosen(tr)) if table.status == "finished" else None
        if replay:
            body.append(pages.links_html([(tr("button.replay"), replay), (tr("web.export"), self.href(table.id, "/export.json"))]))
        groups, left_out = pages.latest(record_lines(table, engine, rows, tr), RECORD)
        body.append(pages.record_html(groups, tr, names, left_out, replay, table.game))
        return Fragment("\n".join(body), plain(view.title), encoded(view.image))

    # ---- the replay ------------------------------------------------------------------------------
    async def replay(self, table: TableRow) -> Replay:
        return await self.replays.of(table)

    async def step(self, table: TableRow, replay: Replay, n: int, tr: Lang, picture: bool = False) -> Fragment:
        """The game after ``n`` actions: the move that led there, the table, every hand as someone
        looking on sees it (the picture encoded only when asked for)."""
        key = ("step", table.id, n, tr.language, pages.chosen(tr), picture)

        def drawn() -> Fragment:
            with drawing(picture):
                return self._step(table, replay, n, tr)

        async def draw() -> Fragment:
            return await off_loop(drawn)

        return await self.drawings.get_or_draw(key, draw)

    def _step(self, table: TableRow, replay: Replay, n: int, tr: Lang) -> Fragment:
        ui = REGISTRY[table.game]
        labels = [render.seat_label(s, tr) for s in table.seats]
        names = render.seat_names(table, tr)
        lines: list[str] = []
        if n == 0:
            engine, move = replay.state(0), tr("web.replay.start")
        else:
            step = replay.steps[n - 1]
            engine = replay.state(n - 1)
            label = pages.choice_label(ui.prompt(engine, step.seat, names, tr), step.action)
            move = tr("web.replay.move", player=names[step.seat], move=label or f"`{step.action}`")
            engine.apply(step.seat, step.action)
            lines = ui.record(step.events, engine.public_view(), names, tr)
        if n == replay.length:
            view = render.table_view(table, engine, tr)
        else:
            view = ui.table_view(engine.public_view(), names, tr)
            view.title = f"{render.game_title(table, tr)} · {view.title}" if view.title else render.game_title(table, tr)
        image = self.href(table.id, f"/replay/{n}.png", lang=tr.language) if view.image else None
        # Each seat seen from outside (``onlooker``): its DM's words are its player's ("Your hand").
        hands = [pages.hand_html(labels[s], ui.onlooker(engine, s, names, tr)) for s in range(len(table.seats))]
        body = pages.step_html(move, lines, pages.view_html(view, image, pages.mentions(table, tr), tr), hands, tr)
        return Fragment(body, plain(view.title), encoded(view.image))

    def deal_ends(self, table: TableRow, replay: Replay, tr: Lang) -> list[tuple[int, int, list[str]]]:
        """(deal, step, the record's lines of the action that closed it) for every deal."""
        ui = REGISTRY[table.game]
        names = render.seat_names(table, tr)
        found = []
        for i, step in enumerate(replay.steps):
            last = i + 1 == replay.length
            if last or replay.steps[i + 1].deal != step.deal:
                lines = ui.record(step.events, replay.state(i + 1).public_view(), names, tr)
                found.append((step.deal, i + 1, lines))
        return found

    def result_html(self, table: TableRow, tr: Lang) -> str:
        result = json.loads(table.result) if table.result else None
        if result is None:
            return ""
        block = results.result_block(REGISTRY[table.game], result, render.seat_names(table, tr), tr)
        return f'<section class="result">{to_html(block)}</section>'

    # ---- the export ------------------------------------------------------------------------------
    async def export(self, table: TableRow) -> dict[str, Any]:
        replay = await self.replays.of(table)
        return export(table, [(s.seat, s.action) for s in replay.steps], replay.state(replay.length))


def drawing(picture: bool) -> contextlib.AbstractContextManager[None]:
    """Pictures drawn and encoded (``picture``), or drawn only, as a page that links them needs."""
    return contextlib.nullcontext() if picture else unencoded()


def encoded(image: bytes | None) -> bytes | None:
    """A picture's bytes, or None for none or one not encoded (``unencoded``)."""
    return None if image is None or image == UNENCODED else image


def record_lines(table: TableRow, engine: Engine, rows: list[Any], tr: Lang) -> list[tuple[int, list[str]]]:
    """The public record's lines by deal, as the thread shows them (``bot/tables/record_lines``
    draws both): the game's lines for its events, the platform's notes, each seat named as it was
    then; the closing line is the result above, and what waits for a later event waits here too."""
    units = draw(rows, REGISTRY[table.game], engine.public_view(), table.seats, tr, lambda _names: "")
    groups: dict[int, list[str]] = {}
    for unit in units:
        groups.setdefault(unit.deal, []).extend(line for line in unit.lines if line)
    return [(d, lines) for d, lines in sorted(groups.items()) if lines]
