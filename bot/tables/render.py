"""Turn lobby state, a game's ``TableView`` and ``Prompt`` into Discord embeds and components."""

from __future__ import annotations

import hashlib
import io
import json
from dataclasses import dataclass
from typing import Any

import discord

from bot.core import results
from bot.core.engine import Engine, IllegalAction
from bot.core.games import REGISTRY, Names, Prompt, TableView
from bot.core.i18n import LANGUAGES, Lang
from bot.storage.rematches import DECLINED, OPEN, STARTED, Rematch
from bot.storage.store import Seat, TableRow
from bot.tables import talk
from bot.tables.choices import STYLES, Rows, choice_rows
from bot.tables.components import (
    ActButton,
    EndButton,
    HelpButton,
    KickSelect,
    PlayButton,
    SettingSelect,
    TableButton,
    static_view,
)
from bot.tables.invite_render import closed_text, guest_lines
from bot.tables.service import CLOCKS, TIMEOUT_POLICIES
from bot.tables.terms import COMPUTER, computer_number

IMAGE_NAME = "table.png"
NAME_MAX = 20  # characters of a member's name in a line (tricks, facts, the record)


@dataclass
class Rendered:
    content: str | None = None
    embed: discord.Embed | None = None
    view: discord.ui.View | Rows | None = None
    image: bytes | None = None

    def files(self) -> list[discord.File]:
        return [discord.File(io.BytesIO(self.image), filename=IMAGE_NAME)] if self.image else []

    def send_kwargs(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"content": self.content, "embed": self.embed, "files": self.files()}
        if self.view is not None:
            kwargs["view"] = self.view
        return kwargs

    def edit_kwargs(self) -> dict[str, Any]:
        return {"content": self.content, "embed": self.embed, "attachments": self.files(), "view": self.view}


@dataclass
class Ending:
    """What a finished table offers next: its rematch as stored, and the rematch table's link once
    it is posted."""

    rematch: Rematch | None = None
    rematch_url: str | None = None


def seat_name(seat: Seat, tr: Lang) -> str:
    """How every line names a seat (tricks, prompts, the record, results): short, so that a trick
    fits a phone's line and a deal's record one message. A computer is "🤖 Computer 1"; a member
    whose seat a computer now plays keeps their name, and the seat list says once who plays it,
    with the name whole (``seat_label``)."""
    if seat.is_computer:
        return tr("table.computer", n=computer_number(seat.name, seat.position))
    return short_name(seat.name)


def short_name(name: str) -> str:
    """A member's name cut to ``NAME_MAX`` characters (Discord allows 32)."""
    return name if len(name) <= NAME_MAX else name[: NAME_MAX - 1].rstrip() + "…"


def seat_label(seat: Seat, tr: Lang) -> str:
    """How the seat list names a seat, in the lobby and at the top of the table: the name, with a
    computer's level, and a replacement marked, once per table rather than on every line."""
    level = tr(f"level.{seat.level}")
    if seat.is_computer:
        return tr("table.computer_level", n=computer_number(seat.name, seat.position), level=level)
    if seat.away:
        return tr("table.away_level", player=seat.name, level=level)
    if seat.replaced is not None:
        return tr("table.replaced", player=seat.name, was=former_name(seat.replaced, seat.position, tr))
    return seat.name


def former_name(stored: str, position: int, tr: Lang) -> str:
    """Whom a member took a seat over from: a member's name, or a computer's (``SeatOps`` stores
    "computer:N" for one)."""
    if stored.partition(":")[0] == COMPUTER:
        return tr("table.computer", n=computer_number(stored, position))
    return stored


def timestamp(when: float | None, style: str = "R") -> str:
    """A Discord timestamp: each reader sees it in their own time zone and language."""
    return f"<t:{int(when)}:{style}>" if when else "—"


def clock_text(table: TableRow, tr: Lang) -> str:
    if table.paused:
        return tr("clock.paused")
    if table.clock and table.deadline:
        return tr("clock.ends", when=timestamp(table.deadline))
    return ""


def clock_name(clock: int | None, tr: Lang) -> str:
    if not clock:
        return tr("clock.none")
    for unit, size in (("days", 86400), ("hours", 3600), ("minutes", 60)):
        if clock % size == 0:
            return tr(f"clock.{unit}", count=clock // size)
    return tr("clock.minutes", count=clock // 60)


def seat_names(table: TableRow, tr: Lang) -> Names:
    """The names of every seat, for a game's renderer: short ones for its lines, labels for its
    seat list (``Names``)."""
    return Names([seat_name(s, tr) for s in table.seats], [seat_label(s, tr) for s in table.seats])


def refusal(game: str, exc: IllegalAction, names: list[str], tr: Lang) -> str:
    """Why the rules refused a move, in words: the game's own message for the code, else the
    platform's. Text a refusal echoes (what a client sent) is cut short, so the answer always fits."""
    params = {k: f"{v[:60]}…" if isinstance(v, str) and len(v) > 60 else v for k, v in exc.params.items()}
    params = REGISTRY[game].format_params(params, names)
    key = f"{game}.error.{exc.code}"
    return tr(key if tr.has(key) else f"error.{exc.code}", **params)


def seat_mention(seat: Seat, tr: Lang) -> str:
    return seat_name(seat, tr) if seat.is_computer else f"<@{seat.user_id}>"


def game_title(table: TableRow, tr: Lang) -> str:
    return tr("table.title", game=tr(f"{table.game}.name"), id=table.id)


def play_button(table: TableRow, tr: Lang) -> PlayButton:
    """**Play in Discord**: the table in the Activity (``launch.py``), on a lobby or running table's
    message when the application has one (the config's ``activity``)."""
    label = tr("activity.launch.button")
    return PlayButton("play", table.id, label=label, emoji="🎮", style=discord.ButtonStyle.secondary)


def lobby(table: TableRow, tr: Lang, launch: bool = False) -> Rendered:
    """``launch``: offer **Play in Discord**, in a row of its own under the menus, when the lobby
    has no clock. Discord allows five rows: the lobby's buttons take one, and each menu one (the
    remove menu comes with the first member to join, the timeout menu with a clock); with a clock
    there would be a row for it only until someone joins, and it is better not shown than gone."""
    ui = REGISTRY[table.game]
    cls = ui.engine
    players = "\n".join(f"{i + 1}. {seat_label(s, tr)}" for i, s in enumerate(table.seats)) or "—"
    embed = discord.Embed(title=game_title(table, tr), colour=0x5865F2)
    embed.description = tr("lobby.intro_invited" if table.guests else "lobby.intro", host=f"<@{table.host_id}>")
    summary = ui.option_summary(table.options, table.size, tr)
    if summary:
        embed.add_field(name=tr("lobby.options"), value=summary, inline=False)
    embed.add_field(
        name=tr("lobby.players", count=len(table.seats), size=table.size), value=players, inline=False
    )
    if table.guests:
        embed.add_field(name=tr("lobby.guests"), value=guest_lines(table, tr)[:1024], inline=False)
    if table.clock:
        policy = tr(f"clock.policy.{table.on_timeout}")
        clock = tr("lobby.clock", clock=clock_name(table.clock, tr), policy=policy)
    else:
        clock = tr("lobby.no_clock")  # what a timeout does means nothing without a clock
    clock += "\n" + tr("lobby.rated" if table.rated else "lobby.casual")
    embed.add_field(name=tr("lobby.clock_title"), value=clock, inline=False)
    if cls.min_players >= table.size:  # a table of fixed size: "2 players", not "at least 2 (up to 2)"
        embed.set_footer(text=tr("lobby.footer_full", count=table.size))
    else:
        embed.set_footer(text=tr("lobby.footer", min=cls.min_players, size=table.size))
    items: list[discord.ui.Item[Any]] = [
        TableButton("join", table.id, label=tr("button.join"), style=discord.ButtonStyle.success),
        TableButton("leave", table.id, label=tr("button.leave"), style=discord.ButtonStyle.secondary),
        TableButton("start", table.id, label=tr("button.start"), style=discord.ButtonStyle.primary),
        TableButton("cancel", table.id, label=tr("button.cancel"), style=discord.ButtonStyle.danger),
        TableButton("bot", table.id, label=tr("button.add_computer"), style=discord.ButtonStyle.secondary),
    ]
    removable = [s for s in table.seats if s.user_id != table.host_id]
    if removable:
        options = [
            discord.SelectOption(label=seat_name(s, tr)[:100], value=str(s.position)) for s in removable
        ]
        items.append(KickSelect(table.id, placeholder=tr("lobby.remove_placeholder"), options=options, row=1))
    clocks = [discord.SelectOption(label=clock_name(None, tr), value="0", default=not table.clock)]
    clocks += [
        discord.SelectOption(label=clock_name(c, tr), value=str(c), default=c == table.clock) for c in CLOCKS
    ]
    items.append(
        SettingSelect("clock", table.id, placeholder=tr("lobby.clock_placeholder"), options=clocks, row=2)
    )
    if table.clock:
        policies = [
            discord.SelectOption(label=tr(f"clock.policy.{p}")[:100], value=p, default=p == table.on_timeout)
            for p in TIMEOUT_POLICIES
        ]
        items.append(
            SettingSelect("tmo", table.id, placeholder=tr("lobby.policy_placeholder"), options=policies, row=3)
        )
    languages = [
        discord.SelectOption(label=tr(f"language.{code}"), value=code, default=code == table.language)
        for code in LANGUAGES
    ]
    items.append(
        SettingSelect(
            "lang", table.id, placeholder=tr("lobby.language_placeholder"), options=languages, row=4
        )
    )
    if launch and not table.clock:
        items.append(play_button(table, tr))
    return Rendered(content=None, embed=embed, view=static_view(*items))


def closed(table: TableRow, tr: Lang) -> Rendered:
    """A closed table: by its host, or a lobby nobody joined, which says so."""
    embed = discord.Embed(title=game_title(table, tr), description=closed_text(table, tr), colour=0x99AAB5)
    return Rendered(embed=embed, view=static_view())


def footer_text(view: TableView, tr: Lang) -> str:
    """The table's footer: the legend of the marks it shows, then the game's own footer."""
    return "\n".join(filter(None, [legend_line(view, tr), view.footer]))


def _embed(view: TableView, tr: Lang) -> discord.Embed:
    embed = discord.Embed(title=view.title, description=view.description or None, colour=view.colour)
    for name, value in view.fields:
        embed.add_field(name=name, value=value or "—", inline=False)
    footer = footer_text(view, tr)
    if footer:
        embed.set_footer(text=footer)
    if view.image:
        embed.set_image(url=f"attachment://{IMAGE_NAME}")
    return embed


def table_view(table: TableRow, engine: Engine, tr: Lang) -> TableView:
    """What the table message shows, before it becomes an embed (the web pages show the same):
    the game's public table, the table's title and, once it has one, its result."""
    ui = REGISTRY[table.game]
    view = public_table(table, engine, tr)
    view.title = f"{game_title(table, tr)} · {view.title}" if view.title else game_title(table, tr)
    result = results.stored_result(table, engine) if table.status == "finished" else None
    if result is not None:
        block = results.result_block(ui, result, seat_names(table, tr), tr)
        view.description = f"{block}\n\n{view.description}" if view.description else block
    return view


def end_controls(table: TableRow, ending: Ending, tr: Lang) -> tuple[str | None, list[discord.ui.Item[Any]]]:
    """The final table's line about its rematch and its buttons: **Rematch** (with **Decline** once
    offered) while the rematch may still happen, and **Rules**. A tournament's table has no rematch."""
    rules = EndButton("rules", table.id, label=tr("button.rules"), emoji="📖", style=discord.ButtonStyle.secondary)
    rematch = ending.rematch
    if table.tournament_id is not None or table.status != "finished":
        return None, [rules]
    if rematch is not None and rematch.state == STARTED:
        if ending.rematch_url:
            return tr("rematch.started", url=ending.rematch_url, id=rematch.new_table_id), [rules]
        return tr("rematch.starting", id=rematch.new_table_id), [rules]
    if rematch is not None and rematch.state == DECLINED:
        seat = next((s for s in table.seats if s.user_id == rematch.declined_by and not s.is_computer), None)
        return tr("rematch.declined", player=seat.name if seat else "—"), [rules]  # the member, not who played for them
    if rematch is not None and rematch.state != OPEN:
        return tr("rematch.expired"), [rules]
    humans = [s for s in table.seats if not s.is_computer]
    votes = set(rematch.votes) if rematch else set()
    count = sum(s.user_id in votes for s in humans)
    label = tr("button.rematch_count", done=count, total=len(humans)) if count else tr("button.rematch")
    items: list[discord.ui.Item[Any]] = [
        EndButton("rematch", table.id, label=label, emoji="🔁", style=discord.ButtonStyle.success)
    ]
    if rematch is None:
        return None, [*items, rules]
    items.append(EndButton("decline", table.id, label=tr("button.decline"), style=discord.ButtonStyle.secondary))
    players = " · ".join(f"{'✅' if s.user_id in votes else '⏳'} {s.name}" for s in humans)
    return tr("rematch.open", players=players, when=timestamp(rematch.expires_at)), [*items, rules]


def dm_header(table: TableRow, engine: Engine, seat: int, tr: Lang, url: str) -> str:
    """The top of a seat's DM: which table it is for; once the game is over, that it is, with the
    link to the final table (the result comes in a DM of its own: ``result_dms.py``)."""
    if table.status == "finished":
        return tr("dm.end.closed", url=url)
    return tr("dm.header", url=url)


def legend_line(view: TableView, tr: Lang) -> str:
    """One line that names every mark the table shows now, and only those."""
    return " · ".join(tr(f"{key}.short") for key in view.legend)


def public_table(table: TableRow, engine: Engine, tr: Lang) -> TableView:
    """The game's drawing of the public table, as the table message and its **?** answer show it."""
    public = engine.public_view()
    if table.talk:  # said at the table, not kept by the engine
        public = {**public, "talk": talk.latest(table.talk), "said": talk.said(table.talk)}
    if table.status == "finished" and not engine.is_terminal():
        public = {**public, "stopped": True}  # a clock ended the table: see games.stopped
    return REGISTRY[table.game].table_view(public, seat_names(table, tr), tr)


def help_button(table: TableRow) -> HelpButton:
    return HelpButton(table.id, label="?", style=discord.ButtonStyle.secondary)


def table_message(
    table: TableRow,
    engine: Engine,
    tr: Lang,
    ending: Ending | None = None,
    page: str | None = None,
    launch: bool = False,
) -> Rendered:
    """``ending``: what a finished table offers next; ``page``: the table's web page, which the title
    links to (and, once the game is over, its replay); ``launch``: a running table offers **Play in
    Discord**."""
    ui = REGISTRY[table.game]
    view = table_view(table, engine, tr)
    embed = _embed(view, tr)
    embed.url = page
    if table.status == "finished":
        content, items = end_controls(table, ending or Ending(), tr)
        items.append(help_button(table))
        if page:
            items.append(discord.ui.Button(label=tr("button.replay"), url=f"{page}/replay", emoji="🎞️"))
        return Rendered(content=content, embed=embed, view=static_view(*items), image=view.image)
    if engine.is_terminal() or table.status != "running":
        return Rendered(content=None, embed=embed, view=static_view(help_button(table)), image=view.image)
    waiting = [seat_mention(table.seats[s], tr) for s in engine.to_act()]
    content = " · ".join(
        filter(None, [tr("table.to_act", players=tr.join(waiting)), clock_text(table, tr)])
    )
    public = ui.public_choices(engine.public_view(), seat_names(table, tr), tr)
    version = len(engine.history)
    extra = [
        ActButton(
            table.id,
            version,
            c.action,
            label=c.label[:80],
            emoji=c.emoji,
            row=1,
            style=discord.ButtonStyle(STYLES.get(c.style, 1)),
        )
        for c in public[:5]
        if c.action is not None
    ]
    hand = TableButton(
        "hand", table.id, label=tr("button.my_hand"), style=discord.ButtonStyle.primary, emoji="🃏"
    )
    buttons: list[discord.ui.Item[Any]] = [hand, help_button(table), *extra]
    if launch:
        buttons.insert(2, play_button(table, tr))
    return Rendered(content=content, embed=embed, view=static_view(*buttons), image=view.image)


def announcement(table: TableRow, home: discord.abc.GuildChannel, tr: Lang) -> Rendered:
    """The notice in the channel where a table with its own channel was opened."""
    embed = discord.Embed(
        title=game_title(table, tr),
        colour=0x5865F2,
        description=tr("lobby.own_channel", channel=home.mention, host=f"<@{table.host_id}>"),
    )
    join = TableButton("join", table.id, label=tr("button.join"), style=discord.ButtonStyle.success)
    return Rendered(embed=embed, view=static_view(join))


def prompt_message(table: TableRow, engine: Engine, seat: int, tr: Lang, header: str = "") -> Rendered:
    ui = REGISTRY[table.game]
    prompt: Prompt = ui.prompt(engine, seat, seat_names(table, tr), tr)
    version = len(engine.history)
    embed = discord.Embed(description=prompt.text, colour=0x2F7D4F)
    embed.title = game_title(table, tr)
    header = "\n".join(filter(None, [header, clock_text(table, tr)]))
    if header:
        embed.description = f"{header}\n\n{prompt.text}"
    if table.status == "finished":  # the hand is closed: no prompt, legend or picture under the end
        embed.description = header or None
        return Rendered(content=None, embed=embed, view=Rows([]))
    if prompt.image:
        embed.set_image(url=f"attachment://{IMAGE_NAME}")
    if table.status != "running":
        return Rendered(content=None, embed=embed, view=Rows([]), image=prompt.image)
    return Rendered(content=None, embed=embed, view=choice_rows(table.id, version, prompt, tr), image=prompt.image)


def relevance(table: TableRow, engine: Engine, seat: int) -> str:
    """What a seat's DM must follow: its turn, its choices, its private cards, the deal, the end.

    Others' moves alone ("waiting for X") do not change it, so a waiting player's DM is not edited
    on every move.
    """
    public = engine.public_view()
    private = {k: v for k, v in engine.observation(seat).items() if public.get(k) != v}
    acting = seat in engine.to_act()
    key = [
        acting,
        engine.legal_actions(seat) if acting else [],
        private,
        engine.deal_number,
        table.status,
        table.paused,
        table.deadline if acting else None,
        table.seats[seat].user_id,
    ]
    return hashlib.sha1(json.dumps(key, sort_keys=True, default=str).encode()).hexdigest()
