"""Clicks a modified client sends (ids and menu values no message of ours offered) get one private
"not valid any more", change nothing and log one line at INFO, never an error (issue 33)."""

from __future__ import annotations

import logging

from tests.games.saizen.test_saizen_cog import choose, is_chip_prompt
from tests.support.forged import answer_text, forge
from tests.support.table import (
    components,
    dms,
    enabled_ids,
    make_world,
    open_table,
    start_donguri,
    table_message,
    to_act,
)

NOT_VALID = "That control is out of date"
TOO_BIG = (str(2**63), str(2**64 + 5), "9" * 30, "1" * 5000)


def table_id(world) -> int:
    return int(table_message(world).embeds[0].title.split("#")[-1].split()[0])


async def stored(bot, tid: int):
    table = await bot.store.get_table(tid)
    seats = [(s.position, s.user_id, s.level) for s in table.seats]
    return table.status, table.version, seats, table.clock, table.language, await bot.store.actions(tid)


def errors(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


def refusals(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "bot.tables.desk" and "refused a click" in r.getMessage()]


async def lobby_of_two(world):
    alice, bob = world.members[:2]
    lobby = await open_table(world, alice, "donguri", players=4)
    await bob.click(lobby, label="Join")
    return alice, table_message(world)


async def test_a_remove_menu_value_that_is_no_seat_is_refused_and_changes_nothing(
    simcord_env, simcord_bot, caplog
):
    caplog.set_level(logging.INFO)
    world = make_world(simcord_env)
    alice, lobby = await lobby_of_two(world)
    tid = table_id(world)
    before = await stored(simcord_bot, tid)
    sent = (["x"], [""], ["-1"], ["1.0"], ["01"], [str(2**63)], ["100"], [], ["1", "1"])
    for values in sent:
        result = await forge(alice, lobby, f"tt:kick:{tid}", values)
        assert result.acknowledged and result.ephemeral, values
        assert NOT_VALID in answer_text(result), values
    assert await stored(simcord_bot, tid) == before, "bob is still seated"
    assert errors(caplog) == []
    assert len(refusals(caplog)) == len(sent), "one line each"
    assert all(r.levelno == logging.INFO for r in refusals(caplog))
    kicked = await forge(alice, lobby, f"tt:kick:{tid}", ["1"])
    assert "bob" not in str(table_message(world).embeds[0].to_dict()), kicked


async def test_a_settings_value_the_menu_never_offered_is_refused(simcord_env, simcord_bot, caplog):
    world = make_world(simcord_env)
    alice, lobby = await lobby_of_two(world)
    tid = table_id(world)
    before = await stored(simcord_bot, tid)
    for what, value in (("clock", "61"), ("clock", "x"), ("tmo", "never"), ("lang", "fr"), ("lang", "")):
        result = await forge(alice, lobby, f"tt:{what}:{tid}", [value])
        assert NOT_VALID in answer_text(result), (what, value)
    assert await stored(simcord_bot, tid) == before
    assert errors(caplog) == []


async def test_a_garbage_move_from_the_seat_to_act_is_refused_in_words(simcord_env, simcord_bot, caplog):
    """A menu's value is the client's to send. At Saizen for two (27 cards: the hand is a menu) the
    seat to act sends moves that name no card; before, the error reply itself failed (no answer)."""
    world = make_world(simcord_env)
    alice, bob = world.members[:2]
    await open_table(world, alice, "saizen", players=2)
    await bob.click(table_message(world), label="Join")
    while is_chip_prompt(dms(to_act(world)[0])[-1]):
        (member,) = to_act(world)
        await choose(member, dms(member)[-1], "pass")
    (first,) = to_act(world)
    dm = dms(first)[-1]
    (menu,) = [c["custom_id"] for c in components(dm) if c.get("custom_id", "").startswith("tt:as:")]
    tid = table_id(world)
    before = await stored(simcord_bot, tid)
    for action in ("play:x", "play:Z1", "play:S", "play:S1:S:S:S", "play:SS", "x"):
        result = await forge(first.user, dm, menu, [action])
        assert result.acknowledged and result.ephemeral, action
        assert answer_text(result) == f"Unknown move {action}.", action
    assert await stored(simcord_bot, tid) == before
    assert to_act(world) == [first]
    assert errors(caplog) == []


async def test_a_move_id_the_message_does_not_carry_is_refused(simcord_env, simcord_bot, caplog):
    world = make_world(simcord_env)
    await start_donguri(world)
    (first,) = to_act(world)
    dm = dms(first)[-1]
    prefix = enabled_ids(dm)[0].rsplit(":", 2)[0]  # tt:a:<table>:<current version>
    tid = table_id(world)
    before = await stored(simcord_bot, tid)
    for action in ("x", "play:x", "play:Z1", "play:"):
        result = await forge(first.user, dm, f"{prefix}:{action}")
        assert result.acknowledged and NOT_VALID in answer_text(result), action
    assert await stored(simcord_bot, tid) == before
    assert errors(caplog) == []


async def test_ids_beyond_64_bits_are_refused_without_an_error(simcord_env, simcord_bot, caplog):
    caplog.set_level(logging.INFO)
    world = make_world(simcord_env)
    alice, lobby = await lobby_of_two(world)
    tid = table_id(world)
    before = await stored(simcord_bot, tid)
    sent = 0
    for big in TOO_BIG:
        for custom_id, values in (
            (f"tt:join:{big}", None),
            (f"tt:hand:{big}", None),
            (f"tt:bot:easy:{big}", None),
            (f"tt:a:{big}:0:play:S5", None),
            (f"tt:a:{tid}:{big}:play:S5", None),
            (f"tt:as:{big}:0:0", ["play:S5"]),
            (f"tt:as:{tid}:0:{big}", ["play:S5"]),
            (f"tt:kick:{big}", ["1"]),
            (f"tt:clock:{big}", ["60"]),
            (f"tt:x:{big}:0", None),
            (f"tt:ev:join:{big}", None),
            (f"tt:ev:start:{big}", None),
        ):
            for carried in (True, False):
                result = await forge(alice, lobby, custom_id, values, carried)
                sent += 1
                assert result.acknowledged and NOT_VALID in answer_text(result), (custom_id[:80], carried)
    assert await stored(simcord_bot, tid) == before
    assert errors(caplog) == [], "no unexpected error, nothing from the database"
    assert len(refusals(caplog)) == sent


async def test_refusals_follow_the_members_language_and_real_buttons_still_work(
    simcord_env, simcord_bot, client_locales
):
    world = make_world(simcord_env)
    alice, lobby = await lobby_of_two(world)
    client_locales[alice.id] = "ja"
    tid = table_id(world)
    result = await forge(alice, lobby, f"tt:kick:{tid}", ["x"])
    assert answer_text(result).startswith("その操作は古くなっています")
    result = await forge(alice, lobby, f"tt:lang:{tid}", ["ja"])
    assert result.acknowledged and not result.ephemeral, "an offered value is applied"
    assert (await simcord_bot.store.get_table(tid)).language == "ja"


async def test_a_menu_choice_sent_with_a_buttons_id_is_answered(simcord_env, simcord_bot, caplog):
    """discord.py finds the clicked item by its id and its kind: a menu choice carrying a button's id
    reaches no item, and still gets its answer."""
    world = make_world(simcord_env)
    alice, lobby = await lobby_of_two(world)
    tid = table_id(world)
    before = await stored(simcord_bot, tid)
    for custom_id in (f"tt:join:{tid}", f"tt:start:{tid}"):
        result = await forge(world.members[2], lobby, custom_id, ["1"])
        assert result.acknowledged and NOT_VALID in answer_text(result), custom_id
    result = await forge(alice, lobby, f"tt:kick:{tid}")  # and a press carrying a menu's id
    assert result.acknowledged and NOT_VALID in answer_text(result)
    assert await stored(simcord_bot, tid) == before
    assert errors(caplog) == []
