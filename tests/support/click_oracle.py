"""What a click may change, judged from the stored state before and after it (the click fuzz).

The test reads each custom id on its own terms (the bot's formats, numbers as the bot writes them,
within 64 bits) and knows the rules of who may do what: a move by the seat to act, legal in the
stored game and sent with a version it has not acted since; lobby changes by the member concerned
or the host, from the table's server (or, seated, from a DM). Anything else must change nothing,
and a legal move by the seat to act from its current prompt must be applied.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

NUM = r"(?:0|[1-9][0-9]{0,18})"
ACTION = r"[A-Za-z0-9:._-]{1,60}"
FORMATS = {
    "lobby": re.compile(rf"tt:(?P<verb>join|leave|start|cancel|bot|hand):(?P<tid>{NUM})"),
    "level": re.compile(rf"tt:bot:(?P<level>easy|normal|hard):(?P<tid>{NUM})"),
    "move": re.compile(rf"tt:a:(?P<tid>{NUM}):(?P<ver>{NUM}):(?P<action>{ACTION})"),
    "menu": re.compile(rf"tt:as:(?P<tid>{NUM}):(?P<ver>{NUM})(?::{NUM})?"),
    "kick": re.compile(rf"tt:kick:(?P<tid>{NUM})"),
    "setting": re.compile(rf"tt:(?P<what>clock|tmo|lang):(?P<tid>{NUM})"),
    "dead": re.compile(rf"tt:x:(?P<tid>{NUM}):{NUM}"),
    "end": re.compile(rf"tt:(?P<verb>rematch|decline|rules):(?P<tid>{NUM})"),
    "event": re.compile(rf"tt:ev:(?P<verb>join|drop|checkin|start|next|confirm|repair):(?P<eid>{NUM})"),
}


@dataclass
class Click:
    custom_id: str
    values: list[str] | None  # None: a button

    def read(self) -> tuple[str, dict[str, Any]] | None:
        """(format, fields) when the id is written as the bot writes it, else None."""
        for kind, pattern in FORMATS.items():
            match = pattern.fullmatch(self.custom_id)
            if match is None:
                continue
            fields = dict(match.groupdict())
            for key in ("tid", "ver", "eid"):
                if fields.get(key) is not None:
                    fields[key] = int(fields[key])
                    if fields[key] >= 2**63:
                        return None
            one = self.values[0] if self.values and len(self.values) == 1 else None
            if kind == "menu":
                if one is None or re.fullmatch(ACTION, one) is None:
                    return None
                fields["action"] = one
            elif kind in ("kick", "setting"):
                if one is None:
                    return None
                fields["value"] = one
            return kind, fields
        return None


async def snapshot(bot) -> dict[str, Any]:
    """Every table's and tournament's stored state, without what only drawing changes."""
    tables = {}
    for t in await bot.store.tables_with_status("lobby", "running", "finished", "cancelled"):
        seats = tuple((s.position, s.user_id, s.level, s.away) for s in t.seats)
        fields = (t.status, t.version, seats, t.clock, t.on_timeout, t.language, t.paused, t.host_id)
        tables[t.id] = (fields, tuple(await bot.store.actions(t.id)), t)
    events = {}
    store = bot.tournaments.service.store
    for tid in range(1, 4):  # the arena holds one tournament
        event = await store.get(tid)
        if event is not None:
            entrants = tuple(sorted((e.user_id, e.active, e.checked_in) for e in event.entrants))
            events[tid] = (event.status, event.round, entrants)
    return {"tables": tables, "events": events}


def seat_of(table, user_id: int) -> int | None:
    return next((s.position for s in table.seats if s.user_id == user_id and not s.away), None)


def reaches(actor, table) -> bool:
    """The click comes from the table's server, or from the DM of a member seated there."""
    if actor.guild_id is None:
        return seat_of(table, actor.user_id) is not None
    return table.guild_id is None or actor.guild_id == table.guild_id


async def must_apply(bot, click: Click, actor, before, routed: bool) -> bool:
    """A legal move by the seat to act, from a prompt of the current version that carries it
    (``routed``: discord.py hands a click only to an item its message carries)."""
    read = click.read()
    if not routed or read is None or read[0] not in ("move", "menu"):
        return False
    fields = read[1]
    entry = before["tables"].get(fields["tid"])
    if entry is None:
        return False
    table = entry[2]
    seat = seat_of(table, actor.user_id)
    if table.status != "running" or table.paused or seat is None or not reaches(actor, table):
        return False
    if fields["ver"] != len(entry[1]):
        return False
    engine = await bot.service.engine(table)
    return seat in engine.to_act() and fields["action"] in engine.legal_actions(seat)


async def judge(bot, click: Click, actor, before, after, routed: bool) -> str | None:
    """Why the change from ``before`` to ``after`` is wrong for this click; None when it is right."""
    changed = {t for t in before["tables"].keys() | after["tables"].keys() if before["tables"].get(t, (None,))[:2] != after["tables"].get(t, (None,))[:2]}
    new_events = {e for e in before["events"].keys() | after["events"].keys() if before["events"].get(e) != after["events"].get(e)}
    if not changed and not new_events:
        if await must_apply(bot, click, actor, before, routed):
            return "a legal move by the seat to act was not applied"
        return None
    read = click.read()
    if read is None:
        return f"changed {sorted(changed)} {sorted(new_events)} from an id the bot never writes"
    kind, fields = read
    if new_events:
        return _event_change(kind, fields, actor, before, after, new_events, changed)
    if kind == "end":
        return _end_change(fields, actor, before, after, changed)
    if changed != {fields.get("tid")}:
        return f"changed tables {sorted(changed)}"
    (tid,) = changed
    if tid not in before["tables"]:
        return "a table appeared"
    (old, log, table), (new, new_log, _after) = before["tables"][tid], after["tables"][tid]
    if not reaches(actor, table):
        return "changed a table the click cannot reach"
    return _table_change(kind, fields, actor, table, old, log, new, new_log)


def _event_change(kind, fields, actor, before, after, events, tables) -> str | None:
    if tables or kind != "event" or events != {fields["eid"]} or fields["verb"] not in ("join", "drop", "checkin"):
        return f"tournament change {sorted(events)} from {kind}"
    if actor.guild_id is None:
        return "a tournament changed from a DM"
    old, new = before["events"][fields["eid"]], after["events"][fields["eid"]]
    others = lambda state: {e for e in state[2] if e[0] != actor.user_id}  # noqa: E731
    if old[:2] != new[:2] or others(old) != others(new):
        return "a tournament changed beyond the clicking member's own entry"
    return None


def _end_change(fields, actor, before, after, changed) -> str | None:
    """**Rematch** and **Decline**, by a member seated at a finished table that is no tournament's,
    move that table's version on; the last confirmation also adds its rematch, seated the same."""
    tid, verb = fields["tid"], fields["verb"]
    if tid not in before["tables"] or verb == "rules":
        return f"{verb} changed tables {sorted(changed)}"
    old, log, table = before["tables"][tid]
    new, new_log, _after = after["tables"][tid]
    if not reaches(actor, table) or table.status != "finished" or table.tournament_id is not None:
        return f"{verb} changed a table it may not"
    if actor.user_id not in {s.user_id for s in table.seats if s.user_id is not None}:
        return f"{verb} by someone not seated"
    added = changed - {tid}
    # Once the rematch table's message is posted, the finished table moves on once more to link to
    # it (``placement.py``): the delivery worker may do so before the snapshot after the click.
    steps = (1, 2) if verb == "rematch" and added else (1,)
    if (new[0], new[2]) != (old[0], old[2]) or new[1] - old[1] not in steps or new_log != log:
        return f"{verb} changed more than the finished table's version"
    if not added:
        return None
    if verb != "rematch" or len(added) != 1 or added <= before["tables"].keys():
        return f"{verb} changed tables {sorted(changed)}"
    fresh = after["tables"][next(iter(added))][2]
    same = [(s.position, s.user_id, s.level) for s in fresh.seats] == [(s.position, s.user_id, s.level) for s in table.seats]
    return None if fresh.rematch_of == tid and same else "the rematch is not seated as its table"


def _table_change(kind, fields, actor, table, old, log, new, new_log) -> str | None:
    status, _version, seats = old[:3]
    host = actor.user_id == table.host_id
    seat = seat_of(table, actor.user_id)
    computers = {s.position for s in table.seats if s.user_id is None or s.away}
    if kind in ("move", "menu"):
        if status != "running" or seat is None:
            return "a move by someone not seated at a running table"
        if fields["ver"] > len(log) or any(s == seat for s, _ in log[fields["ver"] :]):
            return "a move from a prompt the seat has acted since"
        added = new_log[len(log) :]
        if new_log[: len(log)] != log or not added or added[0] != (seat, fields["action"]):
            return f"the log changed to {added[:3]} for {fields['action']!r}"
        if any(s not in computers for s, _ in added[1:]):
            return "members' moves were added besides the click's"
        return None
    if new_log[: len(log)] != log:
        return "the log was rewritten"
    if kind == "lobby":
        verb = fields["verb"]
        if verb == "join" and status == "lobby" and seat is None and actor.user_id in {s[1] for s in new[2]}:
            return None
        if verb == "leave" and status == "lobby" and seat is not None and not host:
            return None if actor.user_id not in {s[1] for s in new[2]} else "left but still seated"
        if verb == "start" and status == "lobby" and host and new[0] == "running":
            return None
        if verb == "cancel" and status in ("lobby", "running") and host and new[0] == "cancelled":
            return None
        return f"{verb} by {actor.name} changed a {status} table"
    if not host or status != "lobby":
        return f"{kind} by someone who is not the host of a lobby"
    if kind == "level":
        return None if len(new[2]) == len(seats) + 1 else "adding a computer changed more seats"
    if kind == "kick":
        return None if len(new[2]) == len(seats) - 1 else "removing a seat changed more seats"
    if kind == "setting":
        return None if new[:3] == (status, old[1] + 1, seats) else "a setting changed more than itself"
    return f"{kind} changed a table"
