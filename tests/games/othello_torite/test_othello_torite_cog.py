"""Othello de Torite through the real bot in SimCord: board image, DM menus, slash moves, record."""

from __future__ import annotations

import random
import re

from cogs.othello_torite.engine import OthelloToriteEngine
from tests.support import table as sim

SELECT = 3


def selects(message) -> list[dict]:
    return [c for c in sim.components(message) if c.get("type") == SELECT]


async def image_of(message) -> bytes:
    (attachment,) = message.attachments
    assert attachment.filename == "table.png"
    assert message.embeds[0].image.url == "attachment://table.png"
    return await attachment.read()


async def start_against_computer(world):
    alice = world.members[0]
    lobby = await sim.open_table(world, alice, "othello")
    await sim.add_computer(alice, lobby)
    return alice


async def play_from_menu(member, rng: random.Random) -> str:
    """Choose a random square from the member's DM menus; returns the chosen action."""
    dm = sim.dms(member)[-1]
    menus = selects(dm)
    assert menus, "the player to act has a menu of squares"
    menu = rng.choice(menus)
    value = rng.choice(menu["options"])["value"]
    await member.user.select(dm, [value], custom_id=menu["custom_id"])
    return value


def record_from(text: str) -> str:
    match = re.search(r"```\n(.*?)\n```", text, re.S)
    assert match, "the final table shows the game record"
    return match.group(1)


async def test_full_game_against_a_computer_from_the_dm_menus(simcord_env):
    world = sim.make_world(simcord_env)
    alice = await start_against_computer(world)
    table = sim.table_message(world)
    assert "Trick" in sim.embed_text(table) and "Black" in sim.embed_text(table) and "White" in sim.embed_text(table)
    image = await image_of(table)
    assert image.startswith(b"\x89PNG")
    assert len(sim.dms(alice)) == 1
    rng = random.Random(11)
    moves = 0
    while sim.to_act(world):
        assert sim.to_act(world) == [alice], "the computer seat never waits"
        dm = sim.dms(alice)[-1]
        prompt = sim.embed_text(dm)
        menus = selects(dm)
        led = re.search(r"led \S+ \*\*(red|blue)\*\*", prompt)
        if led and "You must place a" in prompt:
            assert [m["placeholder"].split()[1] for m in menus] == [led.group(1)], "only the led suit"
        for menu in menus:
            for option in menu["options"]:
                assert re.fullmatch(r"[a-h][1-8] · flips [1-9][0-9]?", option["label"])
        await play_from_menu(alice, rng)
        moves += 1
        after = await image_of(sim.table_message(world))
        assert after != image, "the board picture changes after every move"
        image = after
        if moves == 3:
            record = await alice.slash(world.channel, "othello record")
            assert record.ephemeral and "1. B:" in record.response.content
    assert 1 <= moves <= 30
    final = sim.table_message(world)
    text = sim.embed_text(final)
    assert "Game over" in text and sim.labels(final) == ["Rematch", "Rules", "?"]
    await image_of(final)
    assert text.index("Final result") < text.index("🥇"), "the final table names the winner (or both)"
    black = re.search(r"\(Black\) · (\d+) on the board", text)
    white = re.search(r"\(White\) · (\d+) on the board", text)
    replayed = OthelloToriteEngine.from_record(record_from(text))
    assert replayed.is_terminal()
    assert replayed.scores() == [int(black.group(1)), int(white.group(1))], "the record replays the game"
    assert f"· {max(replayed.scores())} discs" in text.split("🥇", 1)[1].splitlines()[0]
    log = "\n".join(m.content for m in sim.thread(world).history() if m.author.bot)
    assert "**Trick 1** ·" in log and "Final result" in log
    assert len(sim.dms(alice)) == 2 and len(sim.result_dms(alice)) == 1, "one hand DM, edited as the game goes; the result"


async def test_slash_play_autocomplete_and_refusals_change_nothing(simcord_env):
    world = sim.make_world(simcord_env)
    alice = await start_against_computer(world)
    bob = world.members[1]
    assert sim.to_act(world) == [alice]
    before_text = sim.embed_text(sim.table_message(world))
    before_image = await image_of(sim.table_message(world))
    before_dm = sim.embed_text(sim.dms(alice)[-1])

    taken = await alice.slash(world.channel, "othello play", suit="red", square="d4")
    assert taken.ephemeral and taken.response.content == "d4 is already taken."
    nonsense = await alice.slash(world.channel, "othello play", suit="blue", square="z9")
    assert nonsense.ephemeral and "z9 is not a square" in nonsense.response.content
    stranger = await bob.slash(world.channel, "othello play", suit="red", square="d3")
    assert stranger.ephemeral and "not playing at a running table" in stranger.response.content
    assert sim.embed_text(sim.table_message(world)) == before_text
    assert await image_of(sim.table_message(world)) == before_image
    assert sim.to_act(world) == [alice] and sim.embed_text(sim.dms(alice)[-1]) == before_dm

    # the square field suggests exactly the squares of the DM menu of that suit
    menus = {m["placeholder"].split()[1]: m for m in selects(sim.dms(alice)[-1])}
    suit = sorted(menus)[0]
    offered = await alice.autocomplete(world.channel, "othello play", "square", "", suit=suit)
    menu_squares = [o["value"].split(":")[2] for o in menus[suit]["options"]]
    assert [c["value"] for c in offered] == menu_squares
    assert all(suit in c["name"] for c in offered)

    # an ephemeral hand opened now goes stale once the move is made from the slash command
    opened = await alice.click(sim.table_message(world), label="My hand / Play")
    old = opened.response
    played = await alice.slash(world.channel, "othello play", suit=suit, square=offered[0]["value"])
    assert played.ephemeral and played.response.content == "Done."
    moved_text = sim.embed_text(sim.table_message(world))
    moved_image = await image_of(sim.table_message(world))
    assert moved_image != before_image and moved_text != before_text
    (menu, *_) = selects(old)
    stale = await alice.select(old, [menu["options"][0]["value"]], custom_id=menu["custom_id"])
    assert stale.ephemeral and "out of date" in stale.response.content
    assert sim.embed_text(sim.table_message(world)) == moved_text
    assert await image_of(sim.table_message(world)) == moved_image
