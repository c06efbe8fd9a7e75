"""Computer levels through the real bot: the host picks a level when adding a computer, the lobby
and the table show it in the table's language, and every computer move (its own seat, a move for
a player out of time) goes to the chooser at the seat's level. The search itself is replaced by a
recorder here (tests/ai covers it), so these tests stay fast."""

from __future__ import annotations

import pytest

from bot.ai import pool
from bot.ai.registry import engine_class
from tests.support.table import (
    add_computer,
    components,
    embed_text,
    make_world,
    open_table,
    play_from_dm,
    table_message,
    to_act,
)


@pytest.fixture
def thoughts(simcord_bot, monkeypatch):
    """Computers "search" through a recorder: (seat, level) per move asked, and the move given
    (the last legal one, which a random or timeout move would seldom match every time)."""
    asked: list[tuple[int, str, str]] = []

    async def think(game, num_players, options, seed, log, seat, level, move_seed):
        engine = engine_class(game).replay(num_players, seed, options, log)
        action = engine.legal_actions(seat)[-1]
        asked.append((seat, level, action))
        return action

    monkeypatch.setattr(simcord_bot.config, "computer_search", True)
    monkeypatch.setattr(pool, "think", think)
    return asked


def table_id(world) -> int:
    return int(table_message(world).embeds[0].title.split("#")[-1].split()[0])


async def test_add_computer_asks_the_host_for_a_level_and_the_lobby_shows_it(simcord_env, simcord_bot):
    world = make_world(simcord_env)
    alice, bob = world.members[:2]
    lobby = await open_table(world, alice, "donguri", players=5, length="short")

    refused = await bob.click(lobby, label="Add computer")
    assert refused.ephemeral and "Only the host" in refused.response.content
    picker = await alice.click(lobby, label="Add computer")
    assert picker.ephemeral and "How strong" in picker.response.content
    assert [c["label"].split(":")[0] for c in components(picker.response)] == ["Easy", "Normal", "Hard"]
    tid = table_id(world)
    assert [c["custom_id"] for c in components(picker.response)] == [
        f"tt:bot:{level}:{tid}" for level in ("easy", "normal", "hard")
    ]
    assert (await simcord_bot.service.table(tid)).seats[1:] == [], "asking adds nobody"

    added = await alice.click(picker.response, custom_id=f"tt:bot:hard:{tid}")
    assert added.ephemeral and added.response.content == "A hard computer player was added."
    await alice.click(picker.response, custom_id=f"tt:bot:easy:{tid}")  # the picker stays usable
    text = embed_text(table_message(world))
    assert "🤖 Computer 1 (hard)" in text and "🤖 Computer 2 (easy)" in text
    seats = (await simcord_bot.service.table(tid)).seats
    assert [(s.user_id, s.level) for s in seats[1:]] == [(None, "hard"), (None, "easy")]

    await bob.click(lobby, label="Join")  # four of five seats: the table waits
    await add_computer(alice, table_message(world), "normal")  # the fourth seat starts the table
    table = await simcord_bot.service.table(tid)
    assert table.status == "running"
    text = embed_text(table_message(world))
    for name in ("🤖 Computer 1 (hard)", "🤖 Computer 2 (easy)", "🤖 Computer 3 (normal)"):
        assert name in text, "the table shows each computer's level next to its name"


async def test_a_bad_level_changes_nothing(simcord_env, simcord_bot):
    world = make_world(simcord_env)
    alice = world.members[0]
    await open_table(world, alice, "donguri", players=3, length="short")
    tid = table_id(world)
    with pytest.raises(Exception, match="bad_level"):
        await simcord_bot.lobby.add_computer(tid, alice.id, "grandmaster")
    assert len((await simcord_bot.service.table(tid)).seats) == 1


async def test_the_level_shows_in_japanese(simcord_env, simcord_bot, client_locales):
    guild = simcord_env.create_guild("将棋部", preferred_locale="ja")
    channel = guild.create_text_channel("games")
    taro = guild.add_member(simcord_env.create_user("taro"))
    client_locales[taro.id] = "ja"
    await taro.slash(channel, "donguri new", players=3, length="short")
    lobby = next(m for m in reversed(channel.history()) if m.author.bot and m.embeds)
    picker = await taro.click(lobby, label="CPUを追加")
    assert "強さ" in picker.response.content
    assert [c["label"].split(":")[0] for c in components(picker.response)] == ["よわい", "ふつう", "つよい"]
    hard = next(c["custom_id"] for c in components(picker.response) if ":hard:" in c["custom_id"])
    added = await taro.click(picker.response, custom_id=hard)
    assert added.response.content == "コンピューター(つよい)を追加しました。"
    lobby = next(m for m in reversed(channel.history()) if m.author.bot and m.embeds)
    assert "🤖 CPU1(つよい)" in embed_text(lobby)


async def test_computers_move_at_their_seat_level(simcord_env, simcord_bot, thoughts):
    world = make_world(simcord_env)
    alice = world.members[0]
    lobby = await open_table(world, alice, "donguri", players=3, length="short")
    await add_computer(alice, lobby, "hard")
    await add_computer(alice, table_message(world), "normal")
    tid = table_id(world)
    table = await simcord_bot.service.table(tid)
    levels = {s.position: s.level for s in table.seats if s.user_id is None}
    me = table.seat_of(alice.id)
    for _ in range(4):  # alice plays from her DM; the computers answer from their worker
        await simcord_env.settle()
        if to_act(world) == [alice]:
            await play_from_dm(alice)
    await simcord_env.settle()
    assert len(thoughts) >= 4
    assert {(seat, level) for seat, level, _ in thoughts} == set(levels.items())
    engine = await simcord_bot.service.engine(await simcord_bot.service.table(tid))
    played = iter((s, a) for s, a in engine.history if s != me)
    # every move thought out was played, in order (a move with one legal choice needs no thought)
    assert all((s, a) in played for s, _, a in thoughts), "the chooser's moves were played"


async def test_a_timed_out_move_is_chosen_at_the_seat_level(simcord_env, simcord_bot, thoughts, monkeypatch):
    # A fixed deal: with a random one, alice sometimes holds a single card of the suit led to her,
    # and a forced move is played without asking the chooser (about 1 deal in 50). In this deal
    # she has four cards to follow with, and the move played without the chooser is another one.
    monkeypatch.setattr("bot.tables.desk.secrets.randbits", lambda _bits: 424242)
    world = make_world(simcord_env)
    alice = world.members[0]
    lobby = await open_table(world, alice, "donguri", players=3, length="short")
    tid = table_id(world)
    await alice.select(table_message(world), ["60"], custom_id=f"tt:clock:{tid}")
    await alice.select(table_message(world), ["computer_turn"], custom_id=f"tt:tmo:{tid}")
    await add_computer(alice, lobby, "easy")
    await add_computer(alice, table_message(world), "easy")
    table = await simcord_bot.service.table(tid)
    me = table.seat_of(alice.id)
    engine = await simcord_bot.service.engine(table)
    assert engine.to_act() == [me]
    assert len(engine.legal_actions(me)) > 1, "alice has a choice: a forced move needs no thought"
    assert thoughts == [], "easy computers play at random, without the chooser"
    before = len(engine.history)
    await simcord_env.advance_time(61)
    engine = await simcord_bot.service.engine(await simcord_bot.service.table(tid))
    assert "ran out of time" in "\n".join(m.content for m in world.channel.threads[-1].history())
    assert [(s, level) for s, level, _ in thoughts] == [(me, "normal")], "a member's seat: normal"
    assert engine.history[before] == (me, thoughts[0][2]), "the chooser's move was played for alice"


async def test_other_tables_answer_while_a_computer_thinks(simcord_env, simcord_bot, monkeypatch):
    """A computer's search is awaited off the table's lock and off the event loop: while one is
    thinking (held here until the test lets it finish), clicks at another table, and even at the
    thinking computer's own table, are answered."""
    import asyncio

    thinking = asyncio.Event()
    finish = asyncio.Event()

    async def think(game, num_players, options, seed, log, seat, level, move_seed):
        thinking.set()  # the worker process's answer is outside input, as it is to the bot
        await simcord_env.external_wait(finish.wait(), reason="a search in a worker process")
        engine = engine_class(game).replay(num_players, seed, options, log)
        return engine.legal_actions(seat)[0]

    monkeypatch.setattr(simcord_bot.config, "computer_search", True)
    monkeypatch.setattr(pool, "think", think)
    world = make_world(simcord_env)
    alice, bob = world.members[:2]
    lobby = await open_table(world, alice, "donguri", players=3, length="short")
    first = table_id(world)
    await add_computer(alice, lobby, "hard")
    await add_computer(alice, table_message(world), "hard")
    for _ in range(3):
        if thinking.is_set():
            break
        await play_from_dm(alice)
    assert thinking.is_set() and not finish.is_set(), "a computer of the first table is thinking"
    history = len((await simcord_bot.service.engine(await simcord_bot.service.table(first))).history)

    # meanwhile: bob opens a second table, and alice asks for her hand at the first
    second_lobby = await open_table(world, bob, "donguri", players=3, length="short")
    picker = await bob.click(second_lobby, label="Add computer")
    assert picker.ephemeral and "How strong" in picker.response.content
    mine = await alice.click(next(m for m in world.channel.history() if m.embeds and f"#{first}" in m.embeds[0].title), label="My hand / Play")
    assert mine.ephemeral and "Your hand" in embed_text(mine.response)
    assert not finish.is_set()

    finish.set()  # the search ends: its move is played
    for _ in range(50):
        await simcord_env.settle()
        engine = await simcord_bot.service.engine(await simcord_bot.service.table(first))
        if len(engine.history) > history:
            break
        await asyncio.sleep(0.01)
    assert len(engine.history) > history
