"""Clicks of every kind, as a modified client may send them, against the real bot (issue 33).

Hypothesis draws who clicks (members seated or not, from the table's server, from another server,
from their DMs), from which message, and what: the bot's own buttons and menus, mutations of them
(other tables, numbers past 64 bits, other versions, actions and values of anything) and plain
garbage; a forged click claims, half the time, that the clicked message carries it, so that it
reaches the item itself under discord.py's routing. After each click: it got exactly one answer, no error was logged, and the stored state
changed only as the rules allow (``tests/support/click_oracle.py``); a legal move by the seat to act
from its current prompt was applied.

Some 250 clicks here (about 20 s); ``FUZZ_EXAMPLES=10000`` runs that many and prints a summary
(with ``-s``). The arena lives on from click to click, so Hypothesis cannot replay a failure: it
reports it as flaky, with the click that failed in the assertion.
"""

from __future__ import annotations

import logging
import os
import time
from collections import Counter
from dataclasses import dataclass

import pytest_asyncio
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tests.support.arena import Arena, build
from tests.support.click_oracle import Click, judge, snapshot
from tests.support.forged import answer_text, forge
from tests.support.table import components

FUZZ = int(os.environ.get("FUZZ_EXAMPLES", "0"))
VERBS = (
    "join", "leave", "start", "cancel", "bot", "hand", "a", "as", "kick", "clock", "tmo", "lang", "x", "ev", "easy", "drop",
    "rematch", "decline", "rules",
)
NUMBERS = ("0", "1", "007", "-1", "", str(2**63 - 1), str(2**63), str(2**64), "9" * 25, "1" * 5000)



class Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest_asyncio.fixture
async def arena(simcord_env, simcord_bot):
    arena = await build(simcord_env, simcord_bot)
    errors = Errors()
    logging.getLogger().addHandler(errors)
    arena.errors, arena.tally, arena.started = errors, Counter(), time.monotonic()  # type: ignore[attr-defined]
    yield arena
    logging.getLogger().removeHandler(errors)
    tally = arena.tally  # type: ignore[attr-defined]
    print(
        f"\nclick fuzz: {tally['clicks']} clicks in {time.monotonic() - arena.started:.0f} s, "  # type: ignore[attr-defined]
        f"{tally['unanswered']} unanswered, {len(errors.records)} errors logged; "
        + ", ".join(f"{k} {v}" for k, v in sorted(tally.items()) if k not in ("clicks", "unanswered"))
    )


# ---- what is clicked ---------------------------------------------------------------------------
# Hypothesis draws a plan of fixed shape, then the plan is read against the arena as it is now: what
# can be clicked changes with every click, and Hypothesis's draws must not depend on it.
INDEX = st.integers(0, 2**16)
NUMBER = (  # None: an id of the arena
    st.sampled_from(NUMBERS) | st.integers(0, 2**70).map(str) | st.integers(2**63 - 2, 2**63 + 2).map(str) | st.none()
)
ACTION = st.text(max_size=70) | st.from_regex(r"[A-Za-z0-9:._-]{0,70}", fullmatch=True) | st.none()  # None: a real one
VALUE = NUMBER | ACTION | st.sampled_from(["60", "0", "end", "ja", "fr"])


@dataclass
class Mutation:
    how: str
    where: int
    number: str | None
    action: str | None
    verb: str
    values: list[str | None] | None
    pick: int


@dataclass
class Plan:
    kind: str
    actor: int
    message: int
    component: int
    option: int
    mutations: list[Mutation]
    garbage: Click
    carried: bool  # the message claims to carry the forged component (``forged.forge``)


MUTATION = st.builds(
    Mutation,
    st.sampled_from(["number", "number", "past64", "action", "verb", "values", "cut", "append"]),
    INDEX,
    NUMBER,
    ACTION,
    st.sampled_from(VERBS),
    st.none() | st.lists(VALUE, max_size=3),
    INDEX,
)
GARBAGE = st.builds(
    Click,
    st.text(max_size=120)
    | st.from_regex(r"tt:[a-z]{1,6}(:[0-9]{1,25}){1,3}(:[A-Za-z0-9:._-]{0,12})?", fullmatch=True),
    st.none() | st.lists(st.text(max_size=30), max_size=3),
)
PLAN = st.builds(
    Plan,
    st.sampled_from(["own", "own", "own+", "own+", "real", "real", "mutant", "mutant", "mutant", "garbage"]),
    INDEX,
    INDEX,
    INDEX,
    INDEX,
    st.lists(MUTATION, min_size=1, max_size=3),
    GARBAGE,
    st.booleans(),
)


def pick(items: list, index: int):
    return items[index % len(items)]


def pressed(component, option: int) -> Click:
    """A press of a component as the bot drew it (a menu: one of its options)."""
    if component.get("type") != 3:
        return Click(component["custom_id"], None)
    return Click(component["custom_id"], [pick([o["value"] for o in component["options"]], option)])


def mutated(click: Click, mutations: list[Mutation], components: list) -> Click:
    ids = sorted({p for c in components for p in c["custom_id"].split(":") if p.isdigit()})
    actions = sorted(moves(components) | {o["value"] for c in components for o in c.get("options", [])})
    parts, values = click.custom_id.split(":"), click.values
    for m in mutations:
        parts = parts or [""]
        number = m.number if m.number is not None else pick(ids, m.pick)
        action = m.action if m.action is not None else pick(actions or ["play:S1"], m.pick)
        where = 1 + m.where % max(1, len(parts) - 1)
        if m.how in ("number", "past64"):
            digits = [i for i, p in enumerate(parts) if p.isdigit()] or [len(parts) - 1]
            parts[pick(digits, m.where)] = number if m.how == "number" else str(2**63 + m.pick)
        elif m.how == "action":
            parts = parts[:4] + [action] if parts[1:2] == ["a"] else parts[:where] + [action]
        elif m.how == "verb":
            parts[min(where, len(parts) - 1)] = m.verb
        elif m.how == "values":
            values = None if m.values is None else [v if v is not None else pick(actions or ["x"], m.pick) for v in m.values]
        elif m.how == "cut":
            parts = parts[: m.where % (len(parts) + 1)]
        else:
            parts.append(number if m.where % 2 else action)
    return Click(":".join(parts), values)


def another_move(click: Click, m: Mutation, components: list) -> Click:
    """The same prompt sending another action: any text, or a move of any game."""
    action = m.action if m.action is not None else pick(sorted(moves(components)) or ["x"], m.pick)
    if click.values is not None:
        return Click(click.custom_id, [action])
    return Click(":".join(click.custom_id.split(":")[:4] + [action]), None)


def moves(components: list) -> set[str]:
    found = {c["custom_id"].split(":", 4)[-1] for c in components if c["custom_id"].startswith("tt:a:")}
    return found | {o["value"] for c in components for o in c.get("options", []) if c["custom_id"].startswith("tt:as:")}


def own_prompts(arena: Arena) -> list:
    """(actor, message, component) for every button or menu in a member's own DM: their moves."""
    found = []
    for actor in arena.actors:
        if actor.guild_id is None:
            for message in arena.sources(actor):
                for row in message.components:
                    for c in row.get("components", [row]):
                        if c.get("custom_id", "").startswith(("tt:a:", "tt:as:")) and not c.get("disabled"):
                            found.append((actor, message, c))
    return found


def read_plan(arena: Arena, plan: Plan) -> tuple:
    """(kind, actor, message, click) that the plan makes of the arena as it is now."""
    prompts = own_prompts(arena) if plan.kind.startswith("own") else []
    if prompts:  # "own+": the member's own move, changed (the seat to act sending garbage)
        actor, source, component = pick(prompts, plan.component)
        click = pressed(component, plan.option)
        if plan.kind == "own+":
            click = another_move(click, plan.mutations[0], arena.components())
        return plan.kind, actor, source, click
    kind = "real" if plan.kind.startswith("own") else plan.kind
    actor = pick(arena.actors, plan.actor)
    sources = arena.sources(actor)
    source = pick(sources, plan.message)
    if kind == "garbage":
        return kind, actor, source, plan.garbage
    components = arena.components()
    # A real click comes from the message that carries it, among those the member can click.
    seen = {id(m) for m in sources}
    pool = [(m, c) for m, c in arena.carried() if id(m) in seen] if kind == "real" else []
    groups: dict[str, list] = {}
    for message, c in pool or arena.carried():  # every kind of button as often as any other
        groups.setdefault(":".join(c["custom_id"].split(":")[:2]), []).append((message, c))
    group = pick(sorted(groups), plan.actor // 7)
    carrier, component = pick(groups[group], plan.component)
    click = pressed(component, plan.option)
    if id(carrier) in seen:
        source = carrier
    if kind == "mutant":
        click = mutated(click, plan.mutations, components)
    return kind, actor, source, click


# ---- the property --------------------------------------------------------------------------------
@settings(
    max_examples=FUZZ or 250,
    deadline=None,
    phases=[Phase.generate],  # the arena lives on between examples: a failure does not replay
    database=None,
    suppress_health_check=list(HealthCheck),
)
@given(plan=PLAN)
async def test_every_click_is_answered_once_and_changes_only_what_it_may(arena, plan):
    env, bot = arena.env, arena.bot
    await arena.replenish()
    kind, actor, source, click = read_plan(arena, plan)
    before = await snapshot(bot)
    requests, logged, raised = len(env.http_requests), len(arena.errors.records), env.error_cursor
    carried = plan.carried and kind in ("mutant", "garbage", "own+")
    result = await forge(actor.handle, source, click.custom_id, click.values, carried)
    after = await snapshot(bot)

    tally = arena.tally
    tally["clicks"] += 1
    tally[f"{kind}/{actor.kind}"] += 1
    tally["carried"] += carried
    verb = click.custom_id.split(":")[1] if click.custom_id.startswith("tt:") else ""
    tally[f"tt:{verb if verb in VERBS else '?'}"] += 1
    numbers = [p for p in click.custom_id.split(":") if p.isascii() and p.isdigit()]
    tally["past 64 bits"] += any(len(p) > 19 or int(p) >= 2**63 for p in numbers)
    record = result._interaction
    callbacks = [
        r
        for r in env.http_requests[requests:]
        if r.method == "POST" and r.path.startswith(f"/interactions/{record.id}/") and r.path.endswith("/callback")
    ]
    tally["unanswered"] += not result.acknowledged
    shown = (click.custom_id[:100], click.values, actor.name, actor.kind)
    assert result.acknowledged and len(callbacks) == 1, f"{len(callbacks)} answers to {shown}"
    assert arena.errors.records[logged:] == [], f"logged an error for {shown}"
    assert env.errors_since(raised) == (), f"raised for {shown}"
    sent_as = 3 if click.values is not None else 2
    routed = carried or any(c.get("custom_id") == click.custom_id and c.get("type") == sent_as for c in components(source))
    wrong = await judge(bot, click, actor, before, after, routed)
    assert wrong is None, f"{wrong}: {shown}, carried {carried}, answered {answer_text(result)[:80]!r}"
    tally["changed"] += before != after
